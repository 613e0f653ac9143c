import fs from "node:fs";
import path from "node:path";

/** Subject and decoded text of a MIME message, enough for tests to find a link in it. */
export function simpleParser(raw: string) {
  const subject = raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
  // Quoted-printable is decoded in the body only: a header (List-Unsubscribe) holds a URL as is,
  // and its "=C2..." must not turn into a character.
  const bodyAt = raw.search(/\r?\n\r?\n/);
  const [headers, body] = bodyAt < 0 ? [raw, ""] : [raw.slice(0, bodyAt), raw.slice(bodyAt)];
  const decoded = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return { subject, text: headers + decoded };
}

/** The newest outbox message sent to this address, as text. */
export function latestOutboxMail(dataDir: string, to: string) {
  return outboxMails(dataDir, to).at(-1) ?? null;
}

/** Every outbox mail to this address, oldest first. */
export function outboxMails(dataDir: string, to: string) {
  const dir = path.join(dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  const safeTo = to.replace(/[^a-z0-9@._-]/gi, "_");
  return fs
    .readdirSync(dir)
    .filter((f) => f.includes(`-${safeTo}-`))
    .sort()
    .map((file) => simpleParser(fs.readFileSync(path.join(dir, file), "utf8")));
}

export function findLink(text: string, pathPrefix: string) {
  // A link in a text part may sit in parentheses, "Reset password (https://…)": the ")" ends it.
  const match = text.match(new RegExp(`https?://[^\\s"<>()]*${pathPrefix.replace(/[/?]/g, "\\$&")}[^\\s"<>()]*`));
  return match?.[0].replace(/&amp;/g, "&") ?? null;
}
