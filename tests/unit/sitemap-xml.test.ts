import { describe, expect, it } from "vitest";
import { animationEntry, escapeXml, escapeXmlWithin, MAX_ENTRY_BYTES, VIDEO_DESCRIPTION_MAX } from "~/services/seo/sitemap-xml.ts";

const video = {
  thumbnailLoc: "https://medanim.example/objects/uploads/0396b608-9e04-427e-840c-34f18efc28a1/16x9-1280.jpg",
  contentLoc: "https://medanim.example/media/0396b608-9e04-427e-840c-34f18efc28a1/public/preview.mp4",
  title: "Rhinoplasty",
  description: "Reshaping the nose.",
  duration: 125,
  publishedAt: new Date("2026-01-02T03:04:05.000Z"),
};

describe("sitemap XML", () => {
  it("escapes the five characters and drops what XML 1.0 cannot hold", () => {
    expect(escapeXml(`a & b < c > d "e" 'f'`)).toBe("a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;");
    expect(escapeXml("bell\u0007 nul\u0000 lone\uD800 tab\tnewline\n ok 🫀")).toBe("bell nul lone tab\tnewline\n ok 🫀");
  });

  it("cuts escaped text to a byte budget, never inside an entity or a character", () => {
    expect(escapeXmlWithin("a&b", 5)).toBe("a");
    expect(escapeXmlWithin("a&b", 6)).toBe("a&amp;");
    expect(escapeXmlWithin("🫀🫀", 5)).toBe("🫀");
    expect(escapeXmlWithin("short", 100)).toBe("short");
  });

  it("an animation entry: its video extension, the duration in Google's range, within MAX_ENTRY_BYTES", () => {
    const entry = animationEntry("https://medanim.example/animations/rhinoplasty", new Date("2026-02-03T00:00:00.000Z"), video)!;
    expect(entry).toBe(
      "<url><loc>https://medanim.example/animations/rhinoplasty</loc><lastmod>2026-02-03T00:00:00.000Z</lastmod><video:video>" +
        `<video:thumbnail_loc>${video.thumbnailLoc}</video:thumbnail_loc><video:title>Rhinoplasty</video:title>` +
        `<video:description>Reshaping the nose.</video:description><video:content_loc>${video.contentLoc}</video:content_loc>` +
        "<video:duration>125</video:duration><video:publication_date>2026-01-02T03:04:05.000Z</video:publication_date></video:video></url>\n",
    );
    expect(animationEntry("https://x.example/a", null, { ...video, duration: 0 })).not.toContain("video:duration");
    const worst = animationEntry("https://x.example/a", null, { ...video, title: `"&`.repeat(100), description: `"&<>'`.repeat(5000) })!;
    expect(Buffer.byteLength(worst)).toBeLessThanOrEqual(MAX_ENTRY_BYTES);
    expect(worst).toContain("<video:description>&quot;&amp;");
    // A plain description is kept up to Google's 2,048 characters.
    const long = animationEntry("https://x.example/a", null, { ...video, description: "x".repeat(3000) })!;
    expect(long).toContain(`<video:description>${"x".repeat(VIDEO_DESCRIPTION_MAX)}</video:description>`);
  });

  it("without a video the entry is the URL alone; an address no entry can hold is left out", () => {
    expect(animationEntry("https://x.example/a", null, null)).toBe("<url><loc>https://x.example/a</loc></url>\n");
    expect(animationEntry(`https://x.example/${"a".repeat(MAX_ENTRY_BYTES)}`, null, video)).toBeNull();
  });
});
