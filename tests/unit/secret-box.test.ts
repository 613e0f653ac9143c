import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnv } from "~/lib/env.server.ts";
import { openSecret, sealSecret } from "~/lib/secret-box.server.ts";

// TOTP secrets are sealed under MFA_ENCRYPTION_KEY: read back only under the same key
// and unaltered; production does not start without the key.

const KEY_A = "a".repeat(32);
const KEY_B = "b".repeat(32);

function useKey(key: string) {
  vi.stubEnv("MFA_ENCRYPTION_KEY", key);
  resetEnv();
}

beforeEach(() => {
  // Every secret given, so nothing is generated under a data directory by these tests.
  vi.stubEnv("SESSION_SECRET", "s".repeat(32));
  vi.stubEnv("JWT_SECRET", "j".repeat(32));
  useKey(KEY_A);
});

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnv();
});

describe("sealSecret / openSecret", () => {
  it("round-trips, and seals the same secret differently each time", () => {
    const sealed = sealSecret("JBSWY3DPEHPK3PXP");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(openSecret(sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(sealSecret("JBSWY3DPEHPK3PXP")).not.toBe(sealed);
  });

  it("reads nothing under another key", () => {
    const sealed = sealSecret("JBSWY3DPEHPK3PXP");
    useKey(KEY_B);
    expect(openSecret(sealed)).toBeNull();
    useKey(KEY_A);
    expect(openSecret(sealed)).toBe("JBSWY3DPEHPK3PXP");
  });

  it("reads nothing from an altered box: body, tag, nonce, version or shape", () => {
    const sealed = sealSecret("JBSWY3DPEHPK3PXP");
    const [version, iv, tag, body] = sealed.split(".") as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, "base64url");
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString("base64url");
    };
    expect(openSecret([version, iv, tag, flip(body)].join("."))).toBeNull();
    expect(openSecret([version, iv, flip(tag), body].join("."))).toBeNull();
    expect(openSecret([version, flip(iv), tag, body].join("."))).toBeNull();
    expect(openSecret(["v2", iv, tag, body].join("."))).toBeNull();
    expect(openSecret([version, iv, tag].join("."))).toBeNull();
    expect(openSecret("")).toBeNull();
  });
});

describe("MFA_ENCRYPTION_KEY in production", () => {
  it("refuses to start without it, naming the variable; starts with it", () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("MFA_ENCRYPTION_KEY", undefined);
    resetEnv();
    expect(() => getEnv()).toThrow(/MFA_ENCRYPTION_KEY is not set\. In production the server refuses to start without it/);
    useKey(KEY_A);
    expect(getEnv().MFA_ENCRYPTION_KEY).toBe(KEY_A);
  });

  it("refuses a key shorter than 32 characters", () => {
    useKey("too-short");
    expect(() => getEnv()).toThrow(/MFA_ENCRYPTION_KEY/);
  });
});
