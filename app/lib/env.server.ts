import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import { z } from "zod";
import { DEFAULT_LADDER, parseLadder } from "./media-ladder.ts";

// Every environment variable the app reads, parsed once. Nothing else reads process.env.
const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().positive().default(3000),
    DATA_DIR: z.string().default("data"),
    DATABASE_URL: z.string().optional(),
    SESSION_SECRET: z.string().min(16).optional(),
    JWT_SECRET: z.string().min(32).optional(),
    // Encrypts the authenticator-app secrets (lib/secret-box.server.ts). Changing it makes every
    // enrolled authenticator unreadable: those users then sign in with a recovery code or a passkey.
    MFA_ENCRYPTION_KEY: z.string().min(32).optional(),
    // A header a trusted proxy (TRUST_PROXY) sets to the client's approximate place, such as
    // Cloudflare's cf-ipcountry: the sessions list shows it. Unset, the list shows only addresses.
    GEO_HEADER: z
      .string()
      .optional()
      .transform((value) => value?.trim().toLowerCase() || undefined),
    APP_URL: z.string().url().optional(),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default("Medanim <no-reply@medanim.local>"),
    SUPPORT_EMAIL: z.string().default("support@medanim.local"),
    // The mailbox for misuse of the animations: named to visitors when the report form fails,
    // and sent the hourly digest of new reports beside the admins. Unset: SUPPORT_EMAIL is named.
    ABUSE_EMAIL: z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().email().optional()),
    // How many messages a bulk campaign sends per second (its job paces itself to this).
    MAIL_RATE_PER_SECOND: z.coerce.number().positive().max(10_000).default(20),
    SEED_ADMIN_EMAIL: z.string().email().default("admin@medanim.local"),
    SEED_ADMIN_PASSWORD: z.string().min(6).default("admin12345"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ENDPOINT: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: z
      .enum(["true", "false", "1", "0"])
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    FFMPEG_PATH: z.string().default("ffmpeg"),
    // The HLS ladder: "height:kbit/s" rungs (lib/media-ladder.ts); a master gets those up to its own height.
    MEDIA_LADDER: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (!value) return DEFAULT_LADDER;
        const ladder = parseLadder(value);
        if (!ladder) {
          ctx.addIssue({ code: "custom", message: 'expected rungs like "360:800,720:2800,1080:5000" (even heights, kbit/s)' });
          return z.NEVER;
        }
        return ladder;
      }),
    // How many transcodes this process runs at once (0: none, as on a web-only instance).
    MEDIA_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    // Whether the media scan queues transcodes for masters that have no set (the backlog after an
    // upgrade or an import). Off, only saves and Retry queue them.
    MEDIA_BACKFILL: z
      .enum(["true", "false", "1", "0"])
      .default("true")
      .transform((v) => v === "true" || v === "1"),
    // all: serve and run jobs; web: serve only; worker: run jobs only (no HTTP but /healthz).
    APP_ROLE: z.enum(["all", "web", "worker"]).default("all"),
    // Origin (a CDN in front of this app or the bucket) that pages name for /media/ files.
    MEDIA_BASE_URL: z
      .string()
      .url()
      .optional()
      .transform((value) => value?.replace(/\/+$/, "")),
    MAX_DOWNLOAD_FILE_MB: z.coerce.number().int().positive().default(2048),
    MAX_VIDEO_FILE_MB: z.coerce.number().int().positive().default(2048),
    // Sign-ups allowed per client address per hour (sign-in is limited per address and e-mail).
    SIGNUPS_PER_HOUR: z.coerce.number().int().positive().default(20),
    // Stripe sells when STRIPE_SECRET_KEY is set; without it the app sells in the local test mode.
    // An empty value (`STRIPE_SECRET_KEY=` in .env) counts as unset.
    STRIPE_SECRET_KEY: optionalKey(/^(sk|rk)_(test|live)_/, "expected a Stripe secret key (sk_test_… or sk_live_…)"),
    STRIPE_PUBLISHABLE_KEY: optionalKey(/^pk_(test|live)_/, "expected a Stripe publishable key (pk_test_… or pk_live_…)"),
    STRIPE_WEBHOOK_SECRET: optionalKey(/^whsec_/, "expected a webhook signing secret (whsec_…)"),
    // With Stripe: let Stripe Tax compute each purchase's tax (prices stay tax-inclusive) and the
    // invoice print Stripe's amounts. Needs Stripe Tax set up in the dashboard (origin address,
    // registrations). Off: the tax_rates setting's table decides, as in test mode.
    STRIPE_TAX: z
      .enum(["true", "false", "1", "0", ""])
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    // Whose X-Forwarded-* headers Express believes (its `trust proxy`): unset trusts nobody and
    // the client address is the socket's; a hop count ("1"), "true", or addresses/subnets.
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if (parsed === null) {
          ctx.addIssue({ code: "custom", message: "expected a hop count, true, false, or comma-separated addresses/subnets" });
          return z.NEVER;
        }
        return parsed;
      }),
    // How long (ms) the public catalogue's shared reads are kept in memory; 0 turns it off.
    CATALOGUE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    // How long (ms) an anonymous visitor's rendered page or public JSON answer may be served from
    // memory when no write on this instance dropped it first (writes on another instance are seen
    // within this time); 0 turns the page cache off. PAGE_CACHE_MB bounds its memory.
    PAGE_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    PAGE_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
    // How long (ms) a signed-in caller's user row, sign-in and active licences are reused between
    // their requests when no write on this instance changed them first: a sign-out, block or
    // purchase made on another instance is seen within this time; 0 reads them on every request.
    MEMBER_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
    // Animations per file of the sitemap (/sitemap-animations.xml?page=N). At most 10,000: each
    // entry is held under 5,000 bytes, so a file stays under the protocol's 50 MB (its 50,000-URL
    // cap is then never reached either). Smaller only to exercise the split in tests.
    // /metrics (Prometheus): with METRICS_PORT it is served on that port only, bound to
    // METRICS_HOST (loopback unless opened on purpose); otherwise on the public port to a bearer
    // token equal to METRICS_TOKEN (at least 16 characters). Neither set: /metrics answers 401.
    METRICS_TOKEN: z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().min(16).optional()),
    METRICS_PORT: z.preprocess((value) => (value === "" ? undefined : value), z.coerce.number().int().min(1).max(65535).optional()),
    METRICS_HOST: z.string().default("127.0.0.1"),
    // After SIGTERM/SIGINT, how long (ms) the instance keeps serving with /readyz at 503 before it
    // stops accepting connections: a few of the load balancer's health-check intervals. It adds to
    // the 25 s given to requests in flight, and both must fit the orchestrator's grace period.
    DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
    // Scheduled backups (decision 035): the directory archives are written and checked in (and
    // kept in, unless S3_BUCKET sends them to the bucket under backups/); DATA_DIR/backups unset.
    BACKUP_DIR: z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().optional()),
    // When the daily backup and the weekly restore drill run: cron expressions in UTC, or "off".
    // At most one scheduled archive per UTC day, however often the schedule fires.
    BACKUP_SCHEDULE: cronOrOff("0 3 * * *"),
    BACKUP_CHECK_SCHEDULE: cronOrOff("30 4 * * 0"),
    SITEMAP_URLS_PER_FILE: z.coerce.number().int().min(1).max(10_000).default(10_000),
  })
  .superRefine((env, ctx) => {
    // Without the signing secret no webhook can be verified, and Stripe's webhooks are what
    // record renewals, failed renewals, cancellations and refunds: refuse to start half-configured.
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "required when STRIPE_SECRET_KEY is set: the endpoint's signing secret (whsec_…) from the Stripe dashboard, or the one `stripe listen` prints",
      });
    }
  });

function optionalKey(pattern: RegExp, message: string) {
  return z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().regex(pattern, message).optional());
}

/** A five-field cron expression (pg-boss reads it, in UTC), or "off"; unset or empty: `fallback`. */
function cronOrOff(fallback: string) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? value.trim() : fallback),
    z
      .string()
      .regex(
        /^(off|[\d*/,\-A-Za-z?LW#]+( [\d*/,\-A-Za-z?LW#]+){4})$/,
        'expected five cron fields (minute hour day month weekday, UTC) such as "0 3 * * *", or "off"',
      ),
  );
}

// proxy-addr's names for common ranges, accepted by Express beside addresses and subnets.
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** TRUST_PROXY as Express's `trust proxy` takes it; null if it is none of the accepted forms. */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] | null {
  const text = value?.trim() ?? "";
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    if (NAMED_RANGES.has(entry)) return true;
    const [address, mask, ...rest] = entry.split("/");
    if (rest.length || !net.isIP(address!)) return false;
    if (mask === undefined) return true;
    const max = net.isIPv4(address!) ? 32 : 128;
    return (/^\d+$/.test(mask) && Number(mask) <= max) || (max === 32 && net.isIPv4(mask));
  });
  return valid ? entries : null;
}

export type Env = z.infer<typeof EnvSchema> & { SESSION_SECRET: string; JWT_SECRET: string; MFA_ENCRYPTION_KEY: string };

function loadEnv(): Env {
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  return {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? devSecret(env, "SESSION_SECRET"),
    JWT_SECRET: env.JWT_SECRET ?? devSecret(env, "JWT_SECRET"),
    MFA_ENCRYPTION_KEY: env.MFA_ENCRYPTION_KEY ?? devSecret(env, "MFA_ENCRYPTION_KEY"),
  };
}

/**
 * In production a missing secret stops the start: signing with a generated one would log
 * everyone out at each restart and differ between instances. In development and tests the
 * secret is generated once and kept under DATA_DIR.
 */
function devSecret(env: z.infer<typeof EnvSchema>, name: "SESSION_SECRET" | "JWT_SECRET" | "MFA_ENCRYPTION_KEY"): string {
  if (env.NODE_ENV === "production") {
    throw new Error(
      `${name} is not set. In production the server refuses to start without it: set ${name} to a random string of at least 32 characters (for example: openssl rand -hex 32).`,
    );
  }
  const file = path.join(env.DATA_DIR, "secrets", `${name.toLowerCase()}.txt`);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("hex");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

let current: Env | undefined;

export function getEnv(): Env {
  current ??= loadEnv();
  return current;
}

/** For tests that change configuration between cases. */
export function resetEnv() {
  current = undefined;
}
