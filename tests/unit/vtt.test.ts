import { describe, expect, it } from "vitest";
import { cueTextToPlain, hasWebVttHeader, hasWebVttHeaderBytes, parseVtt, TRANSCRIPT_MAX_CHARS, vttToSrt } from "~/lib/vtt.ts";

describe("the WebVTT header", () => {
  it.each([
    ["WEBVTT", true],
    ["WEBVTT\n\n00:00.000 --> 00:01.000\nHi", true],
    ["WEBVTT\r\n", true],
    ["WEBVTT - Knee arthroscopy\n", true],
    ["WEBVTT\tkind", true],
    ["\uFEFFWEBVTT\n", true],
    ["WEBVTTX\n", false],
    ["webvtt\n", false],
    [" WEBVTT\n", false],
    ["1\n00:00:00,000 --> 00:00:01,000\nSubRip\n", false],
    ["", false],
  ])("%j → %s", (text, expected) => {
    expect(hasWebVttHeader(text)).toBe(expected);
    expect(hasWebVttHeaderBytes(Buffer.from(text, "utf8"))).toBe(expected);
  });
});

describe("cue text", () => {
  it("drops tags and decodes entities", () => {
    expect(cueTextToPlain("<v Dr. Lee>The <b>knee</b> &amp; the <i.loud>hip</i> &lt;3 &#x41;&#66;")).toBe("The knee & the hip <3 AB");
    expect(cueTextToPlain("<00:00:01.000>karaoke <c.yellow>text</c>")).toBe("karaoke text");
    expect(cueTextToPlain("unknown &bogus; stays")).toBe("unknown &bogus; stays");
  });
});

describe("parseVtt", () => {
  it("keeps the cue text: no timing lines, cue ids, NOTE, STYLE or REGION blocks", () => {
    const text = [
      "\uFEFFWEBVTT - Knee",
      "Kind: captions",
      "",
      "STYLE",
      "::cue { color: yellow }",
      "",
      "REGION",
      "id:fred width:40%",
      "",
      "NOTE This is a comment",
      "spanning two lines",
      "",
      "intro",
      "00:00:00.000 --> 00:00:02.000 line:0",
      "<v Narrator>Welcome to the knee.</v>",
      "",
      "00:00:02.000 --> 00:00:04.000",
      "The joint has",
      "<i>two</i> menisci.",
      "",
      "00:00:04.000 --> 00:00:05.000",
      "The joint has two menisci.",
      "",
    ].join("\r\n");
    expect(parseVtt(text)).toEqual({
      cueCount: 3,
      transcript: "Welcome to the knee.\nThe joint has two menisci.",
    });
  });

  it("counts no cues in a header-only file", () => {
    expect(parseVtt("WEBVTT\n\nNOTE nothing yet\n")).toEqual({ cueCount: 0, transcript: "" });
    expect(parseVtt("WEBVTT")).toEqual({ cueCount: 0, transcript: "" });
  });

  it("caps the transcript on a line boundary but counts every cue", () => {
    const line = "x".repeat(999);
    const cues = Array.from({ length: 150 }, (_, i) => `00:00:${String(i % 60).padStart(2, "0")}.000 --> 00:00:59.000\n${line}${i}`);
    const { cueCount, transcript } = parseVtt(`WEBVTT\n\n${cues.join("\n\n")}\n`);
    expect(cueCount).toBe(150);
    expect(transcript.length).toBeLessThanOrEqual(TRANSCRIPT_MAX_CHARS);
    expect(transcript.split("\n").every((l) => l.startsWith(line))).toBe(true);
  });
});

describe("vttToSrt", () => {
  it("numbers the cues, writes SubRip times and keeps only SubRip's markup", () => {
    const vtt =
      "\uFEFFWEBVTT\r\n\r\nNOTE a note\r\n\r\nintro\r\n00:01.000 --> 00:02.500 align:start\r\n<v Dr. Lee>Hello <b>there</b></v>\r\n\r\n1:00:03.250 --> 1:00:04.000\r\nLine one\r\n<i>line two</i>\r\n";
    expect(vttToSrt(vtt)).toBe("1\n00:00:01,000 --> 00:00:02,500\nHello <b>there</b>\n\n2\n01:00:03,250 --> 01:00:04,000\nLine one\n<i>line two</i>\n");
  });
});
