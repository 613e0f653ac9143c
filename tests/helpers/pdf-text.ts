import { inflateSync } from "node:zlib";

/**
 * The text of a PDF as the app sends it: every deflated content stream inflated and the glyphs
 * of each text-showing operation joined; operations are separated by `separator`.
 */
export function pdfText(bytes: Buffer, separator = "\n") {
  const streams = [...bytes.toString("latin1").matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map(([, body]) => {
    try {
      return inflateSync(Buffer.from(body!, "latin1")).toString("latin1");
    } catch {
      return body!;
    }
  });
  return streams
    .flatMap((s) => [...s.matchAll(/\[([^\]]*)\] TJ/g)])
    .map(([, parts]) => [...parts!.matchAll(/<([0-9a-f]*)>/gi)].map(([, hex]) => Buffer.from(hex!, "hex").toString("latin1")).join(""))
    .join(separator);
}
