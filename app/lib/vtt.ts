// WebVTT caption files (https://www.w3.org/TR/webvtt1/): the header check that upload applies
// before a byte is stored, and the cue text kept as the plain transcript shown on the public
// page. Browser-safe (no server imports): the unit tests and the upload guard share it.

const BOM = "\uFEFF";

/** The transcript kept per track is capped: a caption file is at most 1 MB, a page need not be. */
export const TRANSCRIPT_MAX_CHARS = 100_000;

/**
 * Whether text opens as WebVTT: an optional UTF-8 byte order mark, then "WEBVTT" followed by a
 * space, a tab, a line break or the end of the file ("WEBVTTX" and "webvtt" are not WebVTT).
 */
export function hasWebVttHeader(text: string): boolean {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (!body.startsWith("WEBVTT")) return false;
  const next = body.charAt(6);
  return next === "" || next === " " || next === "\t" || next === "\n" || next === "\r";
}

/** The same check on the first bytes of an upload (up to 10: a BOM is 3 bytes). */
export function hasWebVttHeaderBytes(head: Uint8Array): boolean {
  let start = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) start = 3;
  const word = [0x57, 0x45, 0x42, 0x56, 0x54, 0x54]; // "WEBVTT"
  for (let i = 0; i < word.length; i++) if (head[start + i] !== word[i]) return false;
  const next = head[start + 6];
  return next === undefined || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

export type ParsedVtt = { cueCount: number; transcript: string };

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00A0",
  lrm: "\u200E",
  rlm: "\u200F",
};

/** Cue text without its markup: tags (<v Dr. Lee>, <b>, <00:00:01.000>) dropped, entities decoded. */
export function cueTextToPlain(text: string): string {
  return text
    .replace(/<[^>\n]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+/g, " ")
    .trim();
}

/**
 * Splits a WebVTT file into blocks and keeps the text of its cues: timing lines, cue ids and
 * NOTE, STYLE and REGION blocks are dropped. Consecutive identical lines (a roll-up caption
 * repeating its previous line) are kept once. The transcript is one cue per line, capped at
 * TRANSCRIPT_MAX_CHARS on a line boundary.
 */
export function parseVtt(text: string): ParsedVtt {
  const body = (text.startsWith(BOM) ? text.slice(1) : text).replace(/\r\n?/g, "\n");
  // The header block (WEBVTT and any header lines) ends at the first blank line.
  const blocks = body.split(/\n{2,}/).slice(1);
  let cueCount = 0;
  const lines: string[] = [];
  let length = 0;
  let full = false;
  for (const block of blocks) {
    const blockLines = block.split("\n").filter((line) => line.trim() !== "");
    const timing = blockLines.findIndex((line) => line.includes("-->"));
    // NOTE, STYLE and REGION blocks have no timing line; a cue id line comes before the timing.
    if (timing === -1 || timing > 1) continue;
    cueCount += 1;
    if (full) continue;
    const cueText = blockLines
      .slice(timing + 1)
      .map(cueTextToPlain)
      .filter(Boolean)
      .join(" ");
    if (!cueText || lines.at(-1) === cueText) continue;
    if (length + cueText.length + 1 > TRANSCRIPT_MAX_CHARS) {
      full = true;
      continue;
    }
    lines.push(cueText);
    length += cueText.length + 1;
  }
  return { cueCount, transcript: lines.join("\n") };
}

/**
 * The same cues as SubRip (.srt), for editing tools that read no WebVTT: numbered from 1, times
 * as 00:01:02,500 (hours always written), settings after the timing dropped, markup other than
 * SubRip's own <b>, <i>, <u> removed. NOTE, STYLE and REGION blocks are not cues and are left out.
 */
export function vttToSrt(text: string): string {
  const body = (text.startsWith(BOM) ? text.slice(1) : text).replace(/\r\n?/g, "\n");
  const cues: string[] = [];
  for (const block of body.split(/\n{2,}/).slice(1)) {
    const lines = block.split("\n").filter((line) => line.trim() !== "");
    const timing = lines.findIndex((line) => line.includes("-->"));
    if (timing === -1 || timing > 1) continue;
    const [start, end] = lines[timing]!.split("-->").map((part) => srtTime(part.trim().split(/\s+/)[0]!));
    if (!start || !end) continue;
    const cueText = lines
      .slice(timing + 1)
      .map((line) => line.replace(/<(?!\/?[biu]>)[^>\n]*>/g, ""))
      .join("\n");
    cues.push(`${cues.length + 1}\n${start} --> ${end}\n${cueText}`);
  }
  return cues.length ? `${cues.join("\n\n")}\n` : "";
}

/** "01:02.500" or "1:01:02.500" as SubRip's "00:01:02,500"; null when it is not a time. */
function srtTime(vtt: string): string | null {
  const match = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(vtt);
  if (!match) return null;
  const [, hours = "0", minutes, seconds, millis] = match;
  return `${hours.padStart(2, "0")}:${minutes}:${seconds},${millis}`;
}
