import { createInstance, type TFunction } from "i18next";

// The player's words in the languages a patient may be shown (issue 46): the site itself is in
// English, but the licensed embed and a patient link play to a clinic's patients, in the link's
// language or their browser's. The server renders every string into the player's markup, so the
// browser's player script needs none of them (and i18next never reaches a page that does not
// hydrate; /watch hydrates and carries it with the player).

export const PLAYER_LANGUAGES = ["en", "es"] as const;
export type PlayerLanguage = (typeof PLAYER_LANGUAGES)[number];

const en = {
  previewOf: "Preview of {{title}}",
  previewBadge: "{{seconds}}-second preview",
  previewUnavailable: "Preview unavailable",
  videoUnavailable: "Video unavailable",
  noVideoSupport: "Your browser does not play this video.",
  quality: "Quality",
  auto: "Auto",
  captions: "Captions",
  transcript: "Transcript",
  showTranscript: "Show transcript",
  hideTranscript: "Hide transcript",
  transcriptIn: "Transcript ({{language}})",
  doctorVerifiedBy: "Doctor-verified by {{name}}",
  // The same sentence as formatMedicalReview (medical-review-claim.ts), which English pages print;
  // tests/unit/player-i18n.test.ts holds the two equal.
  medicalReview: "Medically reviewed by {{name}} ({{specialty}}) on {{reviewedOn}} · next review {{nextReviewOn}}",
  // The licensed embed's cards and a patient link's page.
  noLongerAvailable: "This video is no longer available",
  licenceEnded: "This animation's license has ended",
  renewLicence: "Renew the license",
  notLicensedHere: "This animation is not licensed for this site",
  watchOnMedanim: "Watch it on Medanim",
  embedNotAvailable: "This embed is not available",
  fromClinic: "From {{clinic}}",
  videoOf: "Video {{n}} of {{count}}",
  linkWorksUntil: "This link works until {{date}}.",
  linkEnded: "This link is no longer available",
  linkEndedDetail: "Please contact your clinic if you still need it.",
};

type PlayerStrings = Record<keyof typeof en, string>;

const es: PlayerStrings = {
  previewOf: "Vista previa de {{title}}",
  previewBadge: "Vista previa de {{seconds}} segundos",
  previewUnavailable: "Vista previa no disponible",
  videoUnavailable: "Video no disponible",
  noVideoSupport: "Su navegador no puede reproducir este video.",
  quality: "Calidad",
  auto: "Automática",
  captions: "Subtítulos",
  transcript: "Transcripción",
  showTranscript: "Mostrar la transcripción",
  hideTranscript: "Ocultar la transcripción",
  transcriptIn: "Transcripción ({{language}})",
  doctorVerifiedBy: "Verificado por {{name}}",
  medicalReview: "Revisión médica de {{name}} ({{specialty}}) el {{reviewedOn}} · próxima revisión el {{nextReviewOn}}",
  noLongerAvailable: "Este video ya no está disponible",
  licenceEnded: "La licencia de esta animación ha terminado",
  renewLicence: "Renovar la licencia",
  notLicensedHere: "Esta animación no tiene licencia para este sitio",
  watchOnMedanim: "Verla en Medanim",
  embedNotAvailable: "Este video no está disponible",
  fromClinic: "De {{clinic}}",
  videoOf: "Video {{n}} de {{count}}",
  linkWorksUntil: "Este enlace funciona hasta el {{date}}.",
  linkEnded: "Este enlace ya no está disponible",
  linkEndedDetail: "Si todavía lo necesita, comuníquese con su clínica.",
};

/** i18next's resources: one namespace, `player`, per language. */
export const PLAYER_RESOURCES: Record<PlayerLanguage, { player: PlayerStrings }> = { en: { player: en }, es: { player: es } };

export type PlayerKey = keyof PlayerStrings;
export type PlayerT = (key: PlayerKey, values?: Record<string, string | number>) => string;

const translators = new Map<PlayerLanguage, TFunction>();

/**
 * The player's `t` in `language`: one i18next instance per language, made on first use and kept,
 * initialised synchronously (the resources are in memory, nothing is fetched).
 */
export function playerT(language: PlayerLanguage): PlayerT {
  let t = translators.get(language);
  if (!t) {
    const instance = createInstance();
    void instance.init({
      lng: language,
      fallbackLng: "en",
      supportedLngs: [...PLAYER_LANGUAGES],
      ns: ["player"],
      defaultNS: "player",
      resources: PLAYER_RESOURCES,
      initAsync: false,
      // React escapes what it renders; escaping here too would show "&amp;" in a title.
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    t = instance.t;
    translators.set(language, t);
  }
  const translate = t;
  return (key, values) => String(translate(key, values));
}

function isPlayerLanguage(code: string): code is PlayerLanguage {
  return (PLAYER_LANGUAGES as readonly string[]).includes(code);
}

/** "es-MX" → "es"; a code the player does not speak → null. */
function supported(code: string | null | undefined): PlayerLanguage | null {
  const primary = code?.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return isPlayerLanguage(primary) ? primary : null;
}

/**
 * The language a player speaks to its viewer: `preferred` (a patient link's own setting) when the
 * player speaks it, else the best of the browser's Accept-Language that it speaks (by q, then
 * order; q=0 means "not this one"), else English.
 */
export function playerLanguage(acceptLanguage: string | null, preferred?: string | null): PlayerLanguage {
  const chosen = supported(preferred);
  if (chosen) return chosen;
  const ranges = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.split(";").map((s) => s.trim());
      const q = params.find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { range, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.range && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { range } of ranges) {
    const language = supported(range);
    if (language) return language;
  }
  return "en";
}

/**
 * The words one player shows, in `language`, finished on the server: the player's component
 * takes these, so a page that hydrates (/watch) carries its strings and not i18next.
 */
export type PlayerWords = {
  /** The video's accessible name: its title, or "Preview of …". */
  label: string;
  /** Where there is nothing to play. */
  unavailable: string;
  noVideoSupport: string;
  previewBadge: string;
  quality: string;
  auto: string;
  transcript: string;
  showTranscript: string;
  hideTranscript: string;
};

export function playerWords(
  language: PlayerLanguage,
  { title, isPreview, previewSeconds }: { title: string; isPreview: boolean; previewSeconds: number },
): PlayerWords {
  const t = playerT(language);
  return {
    label: isPreview ? t("previewOf", { title }) : title,
    unavailable: t(isPreview ? "previewUnavailable" : "videoUnavailable"),
    noVideoSupport: t("noVideoSupport"),
    previewBadge: t("previewBadge", { seconds: previewSeconds }),
    quality: t("quality"),
    auto: t("auto"),
    transcript: t("transcript"),
    showTranscript: t("showTranscript"),
    hideTranscript: t("hideTranscript"),
  };
}

/**
 * A current medical review as the player's pages print it, in the viewer's language: the dates
 * spelt the language's way (UTC days, as every page prints them).
 */
export function medicalReviewLine(language: PlayerLanguage, review: { doctor: { name: string; specialty: string }; reviewedAt: string; nextReviewAt: string }) {
  const day = new Intl.DateTimeFormat(language === "es" ? "es" : "en-US", { dateStyle: "long", timeZone: "UTC" });
  return playerT(language)("medicalReview", {
    name: review.doctor.name,
    specialty: review.doctor.specialty,
    reviewedOn: day.format(new Date(review.reviewedAt)),
    nextReviewOn: day.format(new Date(review.nextReviewAt)),
  });
}
