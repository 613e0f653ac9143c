import { describe, expect, it } from "vitest";
import { hasRenditions, parseRenditionName, renditionHeight, renditionUrl } from "~/lib/image-renditions.ts";

const COVER = "/objects/uploads/0b8f7c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b";

describe("rendition names", () => {
  it("reads back the names the markup writes", () => {
    const url = renditionUrl(COVER, "16x9", 320, "avif");
    expect(url).toBe(`${COVER}/16x9-320.avif`);
    expect(parseRenditionName(url.split("/").at(-1)!)).toEqual({ aspect: "16x9", width: 320, format: "avif" });
    expect(parseRenditionName("1x1-96.jpg")).toEqual({ aspect: "1x1", width: 96, format: "jpg" });
    expect(parseRenditionName("og.jpg")).toEqual({ og: true });
  });

  it("refuses widths, aspects and formats it does not make", () => {
    for (const name of ["16x9-321.avif", "16x9-2560.jpg", "4x3-320.jpg", "16x9-320.png", "16x9-0320.jpg", "og.webp", "16x9-320.avif.jpg", ""]) {
      expect(parseRenditionName(name), name).toBeNull();
    }
  });

  it("gives renditions only to stored objects", () => {
    expect(hasRenditions(COVER)).toBe(true);
    expect(hasRenditions(`${COVER}/16x9-320.jpg`)).toBe(false);
    expect(hasRenditions("https://example.com/cover.jpg")).toBe(false);
  });

  it("keeps the aspect in whole pixels", () => {
    expect(renditionHeight("16x9", 1280)).toBe(720);
    expect(renditionHeight("16x9", 96)).toBe(54);
    expect(renditionHeight("1x1", 160)).toBe(160);
  });
});
