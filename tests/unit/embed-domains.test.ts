import { describe, expect, it } from "vitest";
import { EMBED_DOMAIN_MESSAGES as M, EmbedDomainSchema, frameAncestorSources, hostMatches, normaliseEmbedHost } from "~/validation/embed-domains.ts";

// The host rules of licensed embeds: what a licensee may type, and what reaches the
// Content-Security-Policy header.

describe("normaliseEmbedHost", () => {
  const accepted: [string, string][] = [
    ["clinic.example", "clinic.example"],
    ["  WWW.Clinic.Example.  ", "www.clinic.example"],
    ["*.clinic.example", "*.clinic.example"],
    ["*.Portal.Clinic.Example", "*.portal.clinic.example"],
    ["https://www.clinic.example/videos/knee?x=1#top", "www.clinic.example"],
    ["http://clinic.example:8080/", "clinic.example:8080"],
    ["https://clinic.example:443/", "clinic.example"],
    ["127.0.0.1:3301", "127.0.0.1:3301"],
    ["http://127.0.0.1:3301/page.html", "127.0.0.1:3301"],
    ["localhost", "localhost"],
    ["localhost:3000", "localhost:3000"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["*.bücher.example", "*.xn--bcher-kva.example"],
    ["clinic.example:08080", "clinic.example:8080"],
  ];
  for (const [input, host] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${host}`, () => {
      expect(normaliseEmbedHost(input)).toEqual({ ok: true, host });
    });
  }

  const refused: [string, string][] = [
    ["", M.required],
    ["   ", M.required],
    ["*", M.wildcardTooWide],
    ["*.com", M.wildcardTooWide],
    ["*.co.uk", M.wildcardTooWide],
    ["www.*.clinic.example", M.wildcard],
    ["clinic.*", M.wildcard],
    ["**.clinic.example", M.wildcard],
    ["clinic", M.singleLabel],
    ["clinic example", M.characters],
    ["clinic.example; script-src *", M.characters],
    ["clinic.example,evil.example", M.characters],
    ["clinic.example\nX-Injected: 1", M.characters],
    ["clinic.example\r\nSet-Cookie: a=b", M.characters],
    ["'self'", M.characters],
    ['"clinic.example"', M.characters],
    ["<script>.example", M.characters],
    ["clinic.example/videos", M.characters],
    ["user@clinic.example", M.characters],
    ["https://user:pw@clinic.example/", M.credentials],
    ["javascript://clinic.example", M.url],
    ["ftp://clinic.example", M.url],
    ["https://", M.url],
    ["10.0.0.1", M.ip],
    ["8.8.8.8:80", M.ip],
    ["*.127.0.0.1", M.ip],
    ["[::1]", M.characters],
    ["clinic.example:0", M.port],
    ["clinic.example:70000", M.port],
    ["-clinic.example", M.characters],
    ["clinic-.example", M.characters],
    ["clinic..example", M.characters],
    [`${"a".repeat(64)}.example`, M.characters],
    [`${"abcdefghi.".repeat(26)}example`, M.tooLong],
  ];
  for (const [input, message] of refused) {
    it(`refuses ${JSON.stringify(input)}: ${message}`, () => {
      expect(normaliseEmbedHost(input)).toEqual({ ok: false, message });
    });
  }

  it("never lets anything but host characters through", () => {
    const samples = ["a.example", "x;y.example", "a b", "ä.example", "*.a.b", "a.example:1", "%41.example", "a\u0000.example", "a\\b.example"];
    for (const sample of samples) {
      const result = normaliseEmbedHost(sample);
      if (result.ok) expect(result.host).toMatch(/^(\*\.)?[a-z0-9.-]+(:\d+)?$/);
    }
  });
});

describe("EmbedDomainSchema", () => {
  it("returns the normalised host, or the message on the host field", () => {
    expect(EmbedDomainSchema.parse({ host: "HTTPS://Clinic.Example/x" })).toEqual({ host: "clinic.example" });
    const failed = EmbedDomainSchema.safeParse({ host: "*.com" });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]).toMatchObject({ path: ["host"], message: M.wildcardTooWide });
    expect(EmbedDomainSchema.safeParse({}).error?.issues[0]?.message).toBe(M.required);
  });
});

describe("hostMatches and frameAncestorSources", () => {
  it("follows CSP: exact port, wildcard covers subdomains only", () => {
    expect(hostMatches("clinic.example", "clinic.example")).toBe(true);
    expect(hostMatches("clinic.example", "clinic.example:8080")).toBe(false);
    expect(hostMatches("127.0.0.1:3301", "127.0.0.1:3301")).toBe(true);
    expect(hostMatches("127.0.0.1:3301", "127.0.0.1:3302")).toBe(false);
    expect(hostMatches("*.clinic.example", "www.clinic.example")).toBe(true);
    expect(hostMatches("*.clinic.example", "a.b.clinic.example")).toBe(true);
    expect(hostMatches("*.clinic.example", "clinic.example")).toBe(false);
    expect(hostMatches("*.clinic.example", "evilclinic.example")).toBe(false);
  });

  it("lists each host over http and https", () => {
    expect(frameAncestorSources(["127.0.0.1:3301", "*.clinic.example"])).toEqual([
      "http://127.0.0.1:3301",
      "https://127.0.0.1:3301",
      "http://*.clinic.example",
      "https://*.clinic.example",
    ]);
  });
});
