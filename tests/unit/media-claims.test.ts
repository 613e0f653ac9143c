import { describe, expect, it } from "vitest";
import { describeDownloads } from "~/services/catalogue/media-claims.ts";

// The "Download:" claim of an animation page, from its package's video files alone (a pure module).
describe("describeDownloads", () => {
  it("names each format once, MP4 first, with the resolutions it has files at, largest first", () => {
    expect(
      describeDownloads([
        { file: "download.webm", width: 3840, height: 2160 },
        { file: "download-720p.mp4", width: 1280, height: 720 },
        { file: "download.mp4", width: 3840, height: 2160 },
        { file: "download-1080p.mp4", width: 1920, height: 1080 },
      ]),
    ).toBe("MP4 4K (2160p), 1080p, 720p and WebM 4K (2160p)");
  });

  it("reads a portrait frame by its short side, and a master's own type", () => {
    expect(describeDownloads([{ file: "master.mov", width: 1080, height: 1920 }])).toBe("MOV 1080p");
    expect(describeDownloads([{ file: "master.mp4", width: null, height: null }])).toBe("MP4");
  });
});
