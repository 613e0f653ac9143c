import { describe as group, expect, it } from "vitest";
import { absoluteUrl, DESCRIPTION_MAX, describe, isoDuration, pageHead } from "~/lib/seo.ts";

const site = { platformName: "Medanim", origin: "https://medanim.example" };

group("describe", () => {
  it("keeps a short text as plain text on one line", () => {
    expect(describe("Overview\n<b>Reshaping</b>&nbsp;the   nose.")).toBe("Overview Reshaping the nose.");
  });

  it("cuts a long text at a word, with an ellipsis, within the limit", () => {
    const text = describe("Board-certified plastic surgeon. ".repeat(15));
    expect(text.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(text.endsWith("surgeon…") || text.endsWith("plastic…") || text.endsWith("Board-certified…")).toBe(true);
  });
});

group("isoDuration", () => {
  it.each([
    [0, "PT0S"],
    [10, "PT10S"],
    [125, "PT2M5S"],
    [120, "PT2M"],
    [3725, "PT1H2M5S"],
  ])("%i s is %s", (seconds, iso) => expect(isoDuration(seconds)).toBe(iso));
});

group("pageHead", () => {
  it("makes the canonical and social URLs absolute on the root's origin and adds robots only when not indexable", () => {
    const indexable = pageHead(site, { title: "Rhinoplasty", description: "Reshaping the nose.", canonicalPath: "/animations/rhinoplasty" });
    expect(indexable).toContainEqual({ tagName: "link", rel: "canonical", href: "https://medanim.example/animations/rhinoplasty" });
    expect(indexable).toContainEqual({ property: "og:url", content: "https://medanim.example/animations/rhinoplasty" });
    expect(indexable).toContainEqual({ title: "Rhinoplasty | Medanim" });
    expect(indexable.some((d) => "name" in d && d.name === "robots")).toBe(false);
    expect(indexable).toContainEqual({ name: "twitter:card", content: "summary" });

    const search = pageHead(site, { title: "Search", description: "Results.", canonicalPath: "/search", robots: "noindex, follow" });
    expect(search).toContainEqual({ name: "robots", content: "noindex, follow" });
  });

  it("keeps an absolute media URL (a CDN) as it is", () => {
    expect(absoluteUrl(site, "https://cdn.example/media/x/public/preview.mp4")).toBe("https://cdn.example/media/x/public/preview.mp4");
    expect(absoluteUrl(site, "/objects/uploads/a/og.jpg")).toBe("https://medanim.example/objects/uploads/a/og.jpg");
  });
});
