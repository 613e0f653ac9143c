import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id floor: m=19 MiB, t=2, p=1.
const ARGON2 = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string) {
  return hash(password, ARGON2);
}

export async function verifyPassword(hashed: string, password: string) {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

// A hash to verify against when no user matches, so a wrong e-mail costs the same time as a
// wrong password and the answer's timing reveals nothing.
let dummyHash: Promise<string> | undefined;
export function burnPasswordCheck(password: string) {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  return dummyHash.then((h) => verifyPassword(h, password));
}

/** A random token for a URL or a client, and the hash we store instead of it. */
export function createOpaqueToken() {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: hashToken(token) };
}

export function hashToken(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A keyed signature of `value` (HMAC-SHA256, base64url) for links that must not be forged. */
export function signValue(value: string, secret: string) {
  return crypto.createHmac("sha256", secret).update(value).digest("base64url");
}

/** Compares a signature in constant time. */
export function signatureMatches(value: string, signature: string, secret: string) {
  const expected = Buffer.from(signValue(value, secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
