import { describe, expect, it } from "vitest";
import { medicalReviewLine, PLAYER_LANGUAGES, PLAYER_RESOURCES, playerLanguage, playerT } from "~/lib/i18n/player.ts";
import { formatMedicalReview } from "~/services/catalogue/medical-review-claim.ts";

describe("the player's strings", () => {
  const keys = (language: (typeof PLAYER_LANGUAGES)[number]) => Object.keys(PLAYER_RESOURCES[language].player).sort();

  it("has every key in every language, none empty, with the same placeholders", () => {
    for (const language of PLAYER_LANGUAGES) {
      expect(keys(language), language).toEqual(keys("en"));
      for (const [key, text] of Object.entries(PLAYER_RESOURCES[language].player)) {
        expect(text.trim(), `${language}.${key}`).not.toBe("");
        const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(PLAYER_RESOURCES.en.player[key as keyof typeof PLAYER_RESOURCES.en.player]));
      }
    }
  });

  it("keeps the site's English words", () => {
    const t = playerT("en");
    expect(t("previewOf", { title: "Open Rhinoplasty" })).toBe("Preview of Open Rhinoplasty");
    expect(t("previewBadge", { seconds: 10 })).toBe("10-second preview");
    expect(t("quality")).toBe("Quality");
    expect(t("auto")).toBe("Auto");
    expect(t("noVideoSupport")).toBe("Your browser does not play this video.");
    expect(t("previewUnavailable")).toBe("Preview unavailable");
  });

  it("speaks Spanish through i18next, interpolating without escaping (React escapes)", () => {
    const t = playerT("es");
    expect(t("quality")).toBe("Calidad");
    expect(t("previewOf", { title: "Rinoplastia & septo" })).toBe("Vista previa de Rinoplastia & septo");
    // The same instance each time: a cached translator per language.
    expect(playerT("es")("transcript")).toBe("Transcripción");
  });
});

describe("playerLanguage", () => {
  it.each([
    [null, undefined, "en"],
    ["", null, "en"],
    ["es-MX,es;q=0.9,en;q=0.8", null, "es"],
    ["fr-FR, fr;q=0.9, es;q=0.5, en;q=0.4", null, "es"],
    ["de-DE, en-GB;q=0.8", null, "en"],
    ["en;q=0.5, es;q=0.9", null, "es"],
    ["es;q=0, en", null, "en"],
    ["*", null, "en"],
    ["ES_ar", null, "es"],
    ["es-ES", "en", "en"],
    ["en-US", "es", "es"],
    ["en-US", "es-419", "es"],
    // A link set to a language the player does not speak falls back to the browser's.
    ["es", "fr", "es"],
  ])("Accept-Language %j with the link's %j → %s", (header, preferred, expected) => {
    expect(playerLanguage(header, preferred)).toBe(expected);
  });
});

describe("medicalReviewLine", () => {
  const review = {
    doctor: { id: "d", slug: "d", name: "Dr. Sarah Mitchell", specialty: "Plastic Surgery" },
    reviewedAt: "2026-06-08T00:00:00.000Z",
    nextReviewAt: "2027-06-08T00:00:00.000Z",
  };

  it("says in English exactly what every English page prints (one sentence, held equal here)", () => {
    expect(medicalReviewLine("en", review)).toBe(formatMedicalReview(review));
  });

  it("says it in Spanish with Spanish dates", () => {
    expect(medicalReviewLine("es", review)).toBe(
      "Revisión médica de Dr. Sarah Mitchell (Plastic Surgery) el 8 de junio de 2026 · próxima revisión el 8 de junio de 2027",
    );
  });
});
