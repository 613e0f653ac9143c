import crypto from "node:crypto";
import { getEnv } from "./env.server.ts";

// Secrets the server must read back (an authenticator app's TOTP key), sealed with AES-256-GCM
// under MFA_ENCRYPTION_KEY. A stolen database alone then yields no working authenticator.
// Format: "v1.<iv>.<tag>.<ciphertext>" in base64url, so a later key or cipher can be told apart.

const VERSION = "v1";

function key() {
  // The variable is any string of 32+ characters; HKDF turns it into exactly 32 key bytes.
  return Buffer.from(crypto.hkdfSync("sha256", getEnv().MFA_ENCRYPTION_KEY, "medanim", "totp-secret-box", 32));
}

export function sealSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The secret, or null when it was sealed under another key or altered. */
export function openSecret(sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
