import { z } from "zod";

// The sites a licence may be embedded on (licensed embeds). A host is parsed and rebuilt from
// what the URL parser returns, never pasted: it ends up in a Content-Security-Policy header
// (frame-ancestors), so nothing but letters, digits, dots, hyphens, one leading "*." and a port
// can reach it. Browser-safe: the add-domain form validates with it too.

/** Issue: "the domains allowed to embed (up to 5 ...)". */
export const MAX_EMBED_DOMAINS = 5;

export const EMBED_DOMAIN_MESSAGES = {
  required: "Enter a domain, like clinic.example",
  characters: "A domain can contain only letters, digits, dots and hyphens, with an optional port",
  url: "Enter a web address starting with http:// or https://, or just the domain",
  credentials: "Leave the user name and password out of the address",
  wildcard: "A wildcard is allowed only at the start, as in *.clinic.example",
  wildcardTooWide: "A wildcard needs a domain under it, like *.clinic.example",
  singleLabel: "Enter a full domain, like clinic.example",
  ip: "Use the site's domain name, not an IP address (127.0.0.1 works for local testing)",
  port: "The port must be a number from 1 to 65535",
  tooLong: "A domain can be at most 253 characters",
  limit: `A license can name at most ${MAX_EMBED_DOMAINS} domains`,
  duplicate: "This domain is already on the license",
} as const;

/**
 * Two-label public suffixes common enough to be typed by mistake after a wildcard
 * (`*.co.uk` would allow every British company). Not the whole Public Suffix List: a wildcard
 * must already have two labels under it, and this catches the frequent cases of the rest.
 */
const TWO_LABEL_SUFFIXES = new Set([
  "co.uk",
  "org.uk",
  "ac.uk",
  "gov.uk",
  "nhs.uk",
  "com.au",
  "net.au",
  "org.au",
  "co.nz",
  "org.nz",
  "co.jp",
  "ne.jp",
  "com.br",
  "com.mx",
  "com.ar",
  "co.za",
  "co.in",
  "co.il",
  "com.sg",
  "com.hk",
  "com.tr",
  "com.cn",
  "co.kr",
  "github.io",
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
// What may appear before the URL parser sees a bare host: anything else (spaces, quotes, ";",
// ",", "<", newlines, "/", "@", "%"...) is refused outright rather than percent-encoded away.
const BARE_HOST = /^(\*\.)?([\p{L}\p{N}.-]+)(?::(\d{1,5}))?$/u;

export type EmbedHostResult = { ok: true; host: string } | { ok: false; message: string };

/**
 * `clinic.example`, `WWW.Clinic.Example.`, `*.clinic.example`, `127.0.0.1:3301`,
 * `https://clinic.example/videos` → the normalised host (lowercase, punycode, no trailing dot,
 * port only when given), or the reason it is refused.
 */
export function normaliseEmbedHost(input: string): EmbedHostResult {
  let value = input.trim();
  if (!value) return { ok: false, message: EMBED_DOMAIN_MESSAGES.required };
  if (value.length > 300) return { ok: false, message: EMBED_DOMAIN_MESSAGES.tooLong };

  // A pasted address: scheme, path, query and fragment are dropped, only if it parses as one.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return { ok: false, message: EMBED_DOMAIN_MESSAGES.url };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, message: EMBED_DOMAIN_MESSAGES.url };
    if (url.username || url.password) return { ok: false, message: EMBED_DOMAIN_MESSAGES.credentials };
    // The parser already lowercased and punycoded it; a "*" would have been percent-encoded.
    value = url.port ? `${url.hostname}:${url.port}` : url.hostname;
    if (value.startsWith("%2a.")) value = `*.${value.slice(4)}`;
  }

  if (value === "*" || value === "*.") return { ok: false, message: EMBED_DOMAIN_MESSAGES.wildcardTooWide };
  const match = BARE_HOST.exec(value);
  if (!match) {
    // A "*" where a host would otherwise be fine is a misplaced wildcard; anything else is junk.
    const misplacedWildcard = value.includes("*") && BARE_HOST.test(value.replaceAll("*", "a"));
    return { ok: false, message: misplacedWildcard ? EMBED_DOMAIN_MESSAGES.wildcard : EMBED_DOMAIN_MESSAGES.characters };
  }
  const [, wildcard, name, port] = match as unknown as [string, string | undefined, string, string | undefined];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return { ok: false, message: EMBED_DOMAIN_MESSAGES.port };

  // Lowercase and punycode through the WHATWG parser, on a string that can hold nothing but a name.
  let hostname: string;
  try {
    hostname = new URL(`http://${name}`).hostname;
  } catch {
    return { ok: false, message: EMBED_DOMAIN_MESSAGES.characters };
  }
  hostname = hostname.replace(/\.$/, "");
  if (hostname.length > 253) return { ok: false, message: EMBED_DOMAIN_MESSAGES.tooLong };
  if (IPV4.test(hostname)) {
    if (hostname !== "127.0.0.1" || wildcard) return { ok: false, message: EMBED_DOMAIN_MESSAGES.ip };
    return { ok: true, host: port ? `${hostname}:${Number(port)}` : hostname };
  }
  const labels = hostname.split(".");
  if (!labels.every((label) => LABEL.test(label))) return { ok: false, message: EMBED_DOMAIN_MESSAGES.characters };
  // A name whose last label is all digits is not a domain (the parser reads some as addresses).
  if (/^\d+$/.test(labels.at(-1)!)) return { ok: false, message: EMBED_DOMAIN_MESSAGES.ip };
  if (wildcard) {
    if (labels.length < 2 || TWO_LABEL_SUFFIXES.has(hostname)) return { ok: false, message: EMBED_DOMAIN_MESSAGES.wildcardTooWide };
  } else if (labels.length < 2 && hostname !== "localhost") {
    return { ok: false, message: EMBED_DOMAIN_MESSAGES.singleLabel };
  }
  const host = `${wildcard ? "*." : ""}${hostname}${port ? `:${Number(port)}` : ""}`;
  return { ok: true, host };
}

/** The add-domain form and call: one field, `host`, normalised on the way in. */
export const EmbedDomainSchema = z.object({
  host: z
    .string({ error: EMBED_DOMAIN_MESSAGES.required })
    .max(300, EMBED_DOMAIN_MESSAGES.tooLong)
    .transform((value, ctx) => {
      const result = normaliseEmbedHost(value);
      if (result.ok) return result.host;
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }),
});

/**
 * Whether a concrete host (`www.clinic.example`, `127.0.0.1:3301`) is allowed by a stored
 * pattern, with CSP's rules: a port must match exactly (none means the default one), and
 * `*.clinic.example` covers its subdomains but not `clinic.example` itself.
 */
export function hostMatches(pattern: string, host: string) {
  const [patternName, patternPort = ""] = splitPort(pattern);
  const [name, port = ""] = splitPort(host);
  if (patternPort !== port) return false;
  if (patternName.startsWith("*.")) return name.endsWith(patternName.slice(1)) && name.length > patternName.length - 1;
  return patternName === name;
}

function splitPort(host: string): [string, string?] {
  const colon = host.lastIndexOf(":");
  return colon === -1 ? [host] : [host.slice(0, colon), host.slice(colon + 1)];
}

/** The frame-ancestors sources of stored hosts: each over http and https. */
export function frameAncestorSources(hosts: string[]) {
  return hosts.flatMap((host) => [`http://${host}`, `https://${host}`]);
}

/** The add-domain form on /my-animations: which licence, and the host. */
export const AddEmbedDomainSchema = EmbedDomainSchema.extend({
  licenceId: z.string({ error: "License not found" }).max(100, "License not found"),
});

/** /my-animations?licence=&animation=: which of a category licence's animations its snippet shows. */
export const EmbedChoiceSchema = z
  .object({
    licence: z.string().max(100).optional().catch(undefined),
    animation: z.string().max(100).optional().catch(undefined),
  })
  .transform(({ licence, animation }) => ({ licenceId: licence, animationId: animation }));

export const RemoveEmbedDomainSchema = z.object({
  licenceId: z.string({ error: "License not found" }).max(100, "License not found"),
  domainId: z.string({ error: "Domain not found" }).max(100, "Domain not found"),
});
