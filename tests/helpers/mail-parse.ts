import fs from "node:fs";
import path from "node:path";

/** Subject and decoded text of a MIME message, enough for tests to find a link in it. */
export function simpleParser(raw: string) {
  const subject = raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
  const decoded = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return { subject, text: decoded };
}

/** The newest outbox message sent to this address, as text. */
export function latestOutboxMail(dataDir: string, to: string) {
  const dir = path.join(dataDir, "outbox");
  if (!fs.existsSync(dir)) return null;
  const safeTo = to.replace(/[^a-z0-9@._-]/gi, "_");
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.includes(`-${safeTo}-`))
    .sort();
  const last = files.at(-1);
  return last ? simpleParser(fs.readFileSync(path.join(dir, last), "utf8")) : null;
}

export function findLink(text: string, pathPrefix: string) {
  const match = text.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix.replace(/[/?]/g, "\\$&")}[^\\s"<>]*`));
  return match?.[0].replace(/&amp;/g, "&") ?? null;
}
