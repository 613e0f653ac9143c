import { inflateSync } from "node:zlib";

/**
 * The text of a PDF as the app sends it: every deflated content stream inflated and the glyphs
 * of each text-showing operation joined; operations are separated by `separator`.
 */
export function pdfText(bytes: Buffer, separator = "\n") {
  // Each stream is read as exactly its dictionary's /Length bytes: compressed data can hold any
  // byte, so finding its end by the "endstream" keyword failed for about one PDF in 150.
  const raw = bytes.toString("latin1");
  const streams = [...raw.matchAll(/\/Length (\d+)\b[^]*?>>\s*stream\r?\n/g)].map((match) => {
    const start = match.index + match[0].length;
    const body = Buffer.from(raw.slice(start, start + Number(match[1])), "latin1");
    try {
      return inflateSync(body).toString("latin1");
    } catch {
      return body.toString("latin1");
    }
  });
  return streams
    .flatMap((s) => [...s.matchAll(/\[([^\]]*)\] TJ/g)])
    .map(([, parts]) => [...parts!.matchAll(/<([0-9a-f]*)>/gi)].map(([, hex]) => Buffer.from(hex!, "hex").toString("latin1")).join(""))
    .join(separator);
}
