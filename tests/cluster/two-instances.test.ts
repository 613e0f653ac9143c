import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "../helpers/smtp.ts";
import { CookieJar, type Instance, startInstance, waitUntilServing } from "./instances.ts";
import { startS3rver } from "./s3rver.ts";

// Two instances, one system (decision 020 "Two instances"): two production servers
// (child processes, `tsx server.ts` on build/) on two ports, against ONE PostgreSQL database, ONE
// S3-compatible server (s3rver, a real one: S3 mode is not only msw here) and ONE SMTP sink, both
// in Stripe test mode (Stripe's HTTP edge is msw inside each child: tests/cluster/stripe-edge.ts).
// Mixed traffic goes to both, interleaved, as a load balancer would spread it. The test process
// prepares rows with the factories on the same database; everything it checks went through the
// instances' front door.
//
// PostgreSQL only (the embedded database is one process's): without DATABASE_URL it is skipped.
// It needs `npm run build` (or `npx react-router build`) first, as .ci/run's PostgreSQL pass has.

const BASE_URL = process.env.DATABASE_URL;
const PORTS = { s3: 3460, a: 3461, b: 3462 };
const WEBHOOK_SECRET = "whsec_cluster_medanim_0123456789abcdef";
const BUCKET = "medanim-cluster";

const run = BASE_URL?.startsWith("postgres") ? describe : describe.skip;
if (!BASE_URL) console.warn("two-instances test skipped: it needs DATABASE_URL (PostgreSQL) and a build");

type Ctx = {
  admin: pg.Client;
  dbName: string;
  url: string;
  a: Instance;
  b: Instance;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  s3: Awaited<ReturnType<typeof startS3rver>>;
  /** The instances' environment, for a restart. */
  env: Record<string, string>;
  /** When both instances were started. */
  firstStart: number;
};
const ctx = {} as Ctx;

// Imported once the environment names the test's database (getEnv reads it once).
let prisma: typeof import("~/lib/db.server.ts").prisma;
let factories: typeof import("../helpers/factories.ts");
let catalogue: typeof import("../helpers/catalogue.ts");

/** The instances serve build/: one older than app/ would test yesterday's code. */
function assertFreshBuild() {
  const root = path.resolve(import.meta.dirname, "../..");
  const built = path.join(root, "build/server/index.js");
  if (!fs.existsSync(built)) throw new Error("two-instances test: no build/server/index.js — run `npm run build` first");
  const builtAt = fs.statSync(built).mtimeMs;
  const newer = fs
    .readdirSync(path.join(root, "app"), { recursive: true, withFileTypes: true })
    .find((entry) => entry.isFile() && fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs > builtAt);
  if (newer)
    throw new Error(`two-instances test: build/ is older than ${path.relative(root, path.join(newer.parentPath, newer.name))} — run \`npm run build\` first`);
}

run("two instances, one system", () => {
  beforeAll(async () => {
    assertFreshBuild();
    const base = new URL(BASE_URL!);
    ctx.dbName = `${base.pathname.slice(1) || "medanim"}_cluster_${process.pid}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
    base.pathname = "/postgres";
    ctx.admin = new pg.Client({ connectionString: base.toString() });
    await ctx.admin.connect();
    await ctx.admin.query(`DROP DATABASE IF EXISTS "${ctx.dbName}" WITH (FORCE)`);
    await ctx.admin.query(`CREATE DATABASE "${ctx.dbName}"`);
    base.pathname = `/${ctx.dbName}`;
    ctx.url = base.toString();

    ctx.smtp = await startSmtpServer();
    ctx.s3 = await startS3rver({ port: PORTS.s3, bucket: BUCKET });
    const shared = {
      DATABASE_URL: ctx.url,
      JWT_SECRET: crypto.randomBytes(32).toString("hex"),
      SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
      MFA_ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
      SMTP_URL: ctx.smtp.url,
      ...ctx.s3.env,
      STRIPE_SECRET_KEY: "sk_test_cluster_medanim",
      STRIPE_PUBLISHABLE_KEY: "pk_test_cluster_medanim",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      // No transcodes: ffmpeg would compete for the two cores with the traffic under test.
      MEDIA_CONCURRENCY: "0",
      MEDIA_BACKFILL: "false",
      MAIL_RATE_PER_SECOND: "50",
      LOG_LEVEL: "warn",
      DATA_DIR: `/tmp/${ctx.dbName}`,
      // Both instances get the same backup schedule, firing every minute: one archive is written
      // for the day all the same (decision 035), to the bucket under backups/.
      BACKUP_SCHEDULE: "* * * * *",
      BACKUP_CHECK_SCHEDULE: "off",
    };
    // The test process shares the database and the secrets (its factories' sessions, tokens and
    // sealed authenticator secrets must be the instances' own).
    Object.assign(process.env, shared);
    const db = await import("~/lib/db.server.ts");
    await db.getDb().migrate();
    prisma = db.prisma;
    factories = await import("../helpers/factories.ts");
    catalogue = await import("../helpers/catalogue.ts");
    await catalogue.createCatalogue();

    // Both at once, as a deployment's instances start: their at-start jobs race.
    ctx.env = shared;
    ctx.firstStart = Date.now();
    ctx.a = startInstance("A", PORTS.a, shared);
    ctx.b = startInstance("B", PORTS.b, shared);
    await Promise.all([waitUntilServing(ctx.a), waitUntilServing(ctx.b)]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [ctx.a, ctx.b]) {
      if (instance && instance.child.exitCode === null) {
        instance.child.kill("SIGTERM");
        await instance.exited;
      }
    }
    await import("~/lib/db.server.ts").then((db) => db.getDb().close()).catch(() => undefined);
    await ctx.smtp?.close();
    await ctx.s3?.close();
    if (ctx.env) fs.rmSync(ctx.env.DATA_DIR!, { recursive: true, force: true });
    if (ctx.admin) {
      await ctx.admin.query(`DROP DATABASE IF EXISTS "${ctx.dbName}" WITH (FORCE)`);
      await ctx.admin.end();
    }
  }, 60_000);

  /** A request to an instance, as a browser or API client on this machine would make it. */
  async function call(instance: Instance, path: string, init: RequestInit & { jar?: CookieJar; token?: string; json?: unknown } = {}) {
    const headers = new Headers(init.headers);
    if (init.jar?.header()) headers.set("Cookie", init.jar.header());
    if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    if (init.method && init.method !== "GET" && !init.token) headers.set("Origin", instance.url);
    const res = await fetch(`${instance.url}${path}`, { ...init, headers, body, redirect: "manual" });
    init.jar?.take(res);
    return res;
  }

  const failedWith = (instance: Instance, res: Response, text: string) =>
    `${instance.name} ${res.status}: ${text.slice(0, 300)}\n--- ${instance.name}'s output ---\n${instance.output.join("").slice(-4000)}`;

  async function expectStatus(instance: Instance, res: Response, status: number) {
    const text = await res.clone().text();
    expect(res.status, failedWith(instance, res, text)).toBe(status);
  }

  async function apiSignIn(instance: Instance, email: string) {
    const res = await call(instance, "/api/auth/login", { method: "POST", json: { email, password: factories.TEST_PASSWORD } });
    await expectStatus(instance, res, 200);
    return ((await res.json()) as { accessToken: string }).accessToken;
  }

  async function pageSignIn(instance: Instance, jar: CookieJar, email: string) {
    const form = new URLSearchParams({ intent: "signin", email, password: factories.TEST_PASSWORD, redirectTo: "/" });
    const res = await call(instance, "/auth", { method: "POST", jar, body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(res.status, failedWith(instance, res, await res.clone().text())).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
  }

  it("s3rver answers every S3 call the app makes (presigned PUT/GET with overrides, ranges, lists, deletes, heads)", async () => {
    const store = await import("~/lib/s3-store.server.ts");
    const { Readable } = await import("node:stream");
    const id = crypto.randomUUID();
    const body = Buffer.from("0123456789abcdefghij");
    const put = await store.presignPut(id, { contentType: "video/mp4", size: body.length }, 300);
    expect((await fetch(put, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body })).status).toBe(200);
    const preflight = await fetch(put, {
      method: "OPTIONS",
      headers: { Origin: ctx.a.url, "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "content-type" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    // s3rver checks a presigned URL's access key and expiry, not the V4 signature's value (its
    // V4 check is unimplemented): a signed content type or length is not enforced here, which
    // the app's own check after an upload (magic bytes, size) and tests/mocks/s3.ts cover.
    const forged = new URL(put);
    forged.searchParams.set("X-Amz-Credential", forged.searchParams.get("X-Amz-Credential")!.replace(/^[^/]+/, "AKIAFORGED"));
    expect((await fetch(forged, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body })).status).toBe(403);
    const get = await store.presignGet(
      id,
      { method: "GET", contentDisposition: 'attachment; filename="a.mp4"', cacheControl: "private, max-age=60", contentType: "video/mp4" },
      300,
    );
    const part = await fetch(get, { headers: { Range: "bytes=2-5" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-5/20");
    expect(part.headers.get("content-disposition")).toBe('attachment; filename="a.mp4"');
    expect(part.headers.get("cache-control")).toBe("private, max-age=60");
    expect(await part.text()).toBe("2345");
    expect(await store.readHead(id, 4)).toMatchObject({ size: 20, bytes: Buffer.from("0123"), contentType: "video/mp4" });
    expect((await store.readRange(id, 10, 5)).toString()).toBe("abcde");
    expect((await fetch(await store.presignGet(id, { method: "HEAD" }, 300), { method: "HEAD" })).headers.get("content-length")).toBe("20");
    await store.putKey(`media/${id}/a.txt`, Readable.from(Buffer.from("hello")), "text/plain", 5, "public, max-age=60");
    await store.putKey(`media/${id}/b.txt`, Readable.from(Buffer.from("world")), "text/plain", 5, "public, max-age=60");
    expect((await store.readKey(`media/${id}/b.txt`))?.toString()).toBe("world");
    await store.removePrefix(`media/${id}/`);
    expect([await store.hasKey(`media/${id}/a.txt`), await store.hasKey(`media/${id}/b.txt`)]).toEqual([false, false]);
    await store.remove(id);
    expect(await store.readHead(id, 4)).toBeNull();
  });

  it("browsing works on both; a session made on A works on B, and an API token from A works on B", async () => {
    const member = await factories.createUser();
    for (const instance of [ctx.a, ctx.b]) {
      for (const path of ["/", "/category/plastic-surgery", "/search?q=breast", "/api/animations"]) {
        const res = await call(instance, path);
        await expectStatus(instance, res, 200);
      }
      const list = (await (await call(instance, "/api/animations")).json()) as { animations?: Array<{ slug: string }>; data?: Array<{ slug: string }> };
      const slug = (list.animations ?? list.data ?? [])[0]?.slug;
      expect(slug).toBeTruthy();
      await expectStatus(instance, await call(instance, `/animations/${slug}`), 200);
    }

    const jar = new CookieJar();
    await pageSignIn(ctx.a, jar, member.email);
    const me = await call(ctx.b, "/profile", { jar });
    await expectStatus(ctx.b, me, 200);
    expect(await me.text()).toContain(member.email);
    // And without the cookie B sends the visitor to sign in: it was the session that worked.
    expect((await call(ctx.b, "/profile")).status).toBeGreaterThanOrEqual(300);

    const token = await apiSignIn(ctx.a, member.email);
    const fromB = await call(ctx.b, "/api/auth/me", { token });
    await expectStatus(ctx.b, fromB, 200);
    expect(JSON.stringify(await fromB.json())).toContain(member.email);
  });

  it("sign-in limits count across both instances: wrong passwords alternated between A and B hit the limit at the one-instance total", async () => {
    const { SIGN_IN_RULE } = await import("~/lib/rate-limit.server.ts");
    const member = await factories.createUser();
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_RULE.limit; i++) {
      const instance = i % 2 === 0 ? ctx.a : ctx.b;
      const res = await call(instance, "/api/auth/login", { method: "POST", json: { email: member.email, password: "wrong-password-1" } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(SIGN_IN_RULE.limit).fill(401), 429]);
  });

  it("a purchase started on A and its completion webhook delivered to both at once make one payment", async () => {
    const member = await factories.createUser();
    const token = await apiSignIn(ctx.a, member.email);
    const started = await call(ctx.a, "/api/subscriptions/global", { method: "POST", token, json: { priceType: "yearly" } });
    await expectStatus(ctx.a, started, 200);
    const checkout = await prisma.checkoutSession.findFirstOrThrow({ where: { userId: member.id }, orderBy: { createdAt: "desc" } });
    const customer = (await prisma.user.findUniqueOrThrow({ where: { id: member.id } })).stripeCustomerId!;
    const { checkoutSessionObject, eventObject, stripeId } = await import("../mocks/stripe.ts");
    const session = checkoutSessionObject({
      customer,
      amountTotal: Math.round(Number(checkout.amount) * 100),
      metadata: { checkoutId: checkout.id, userId: member.id, type: "global" },
      clientReferenceId: checkout.id,
      status: "complete",
      paymentStatus: "paid",
      invoice: stripeId("in"),
      subscription: checkout.providerSessionId ?? stripeId("sub"),
    });
    const payload = JSON.stringify(eventObject("checkout.session.completed", session));
    const deliver = (instance: Instance) =>
      call(instance, "/api/webhooks/stripe", {
        method: "POST",
        body: payload,
        headers: { "Content-Type": "application/json", "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      });
    // Stripe retries; a load balancer may hand each delivery to another instance, at once.
    const results = await Promise.all([deliver(ctx.a), deliver(ctx.b), deliver(ctx.a), deliver(ctx.b)]);
    for (const [i, res] of results.entries()) await expectStatus(i % 2 ? ctx.b : ctx.a, res, 200);
    expect(await prisma.payment.count({ where: { userId: member.id } })).toBe(1);
    expect(await prisma.subscription.count({ where: { userId: member.id, status: "active" } })).toBe(1);
    // The member sees it on the other instance.
    const mine = await call(ctx.b, "/api/subscriptions/me", { token });
    await expectStatus(ctx.b, mine, 200);
    expect(JSON.stringify(await mine.json())).toContain("global");
  });

  /** An admin's upload: where to PUT (asked of `instance`), then the PUT straight to the bucket. */
  async function uploadThrough(instance: Instance, token: string) {
    const bytes = crypto.randomBytes(256 * 1024);
    const asked = await call(instance, "/api/objects/upload", {
      method: "POST",
      token,
      json: { kind: "download", fileName: "bundle.zip", contentType: "application/zip", size: bytes.length },
    });
    await expectStatus(instance, asked, 200);
    const { uploadURL, path } = (await asked.json()) as { uploadURL: string; path: string };
    expect(uploadURL.startsWith(ctx.s3.endpoint)).toBe(true);
    // The browser's PUT goes to the bucket, never through an instance.
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), bytes.subarray(4)]);
    const put = await fetch(uploadURL, { method: "PUT", headers: { "Content-Type": "application/zip" }, body: zip });
    expect(put.status).toBe(200);
    return { path, zip };
  }

  it("an admin uploads through A's presigned PUT to the bucket, and the file streams through B's redirect", async () => {
    const admin = await factories.createUser({ role: "admin" });
    const token = await factories.accessTokenFor(admin.id, { stepUp: "now" });
    const { path, zip } = await uploadThrough(ctx.a, token);

    const redirect = await call(ctx.b, path, { token });
    await expectStatus(ctx.b, redirect, 302);
    const location = redirect.headers.get("location")!;
    expect(location.startsWith(ctx.s3.endpoint)).toBe(true);
    const whole = await fetch(location);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(zip)).toBe(true);
    const part = await fetch(location, { headers: { Range: "bytes=1000-1999" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(zip.subarray(1000, 2000))).toBe(true);

    // A visitor's preview: the file made an animation's preview (set up here as the admin's save
    // would leave it), played by an anonymous visitor through the other instance.
    const animation = await prisma.animation.findFirstOrThrow({ where: { isActive: true }, orderBy: { createdAt: "asc" } });
    await prisma.animation.update({ where: { id: animation.id }, data: { previewVideo: path } });
    const preview = await call(ctx.a, path);
    await expectStatus(ctx.a, preview, 302);
    const played = await fetch(preview.headers.get("location")!, { headers: { Range: "bytes=0-65535" } });
    expect(played.status).toBe(206);
    expect(Buffer.from(await played.arrayBuffer()).equals(zip.subarray(0, 65536))).toBe(true);
  });

  it("a campaign started on B is sent exactly once: one mail per recipient at the shared sink", async () => {
    const admin = await factories.createUser({ role: "admin" });
    const token = await factories.accessTokenFor(admin.id, { stepUp: "now" });
    const recipients = await Promise.all(Array.from({ length: 40 }, () => factories.createUser()));
    const subject = `Cluster campaign ${crypto.randomUUID()}`;
    const res = await call(ctx.b, "/api/emails/bulk", {
      method: "POST",
      token,
      json: { subject, html: "<p>Hello from one of two instances</p>", userIds: recipients.map((r) => r.id) },
    });
    await expectStatus(ctx.b, res, 202);
    const ours = () => ctx.smtp.received.filter((mail) => mail.subject === subject);
    await expect.poll(() => ours().length, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(recipients.length);
    // Both instances run campaign workers: a second copy would arrive within the next polls.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const to = ours().flatMap((mail) => mail.to);
    expect(to).toHaveLength(recipients.length);
    expect(new Set(to)).toEqual(new Set(recipients.map((r) => r.email.toLowerCase())));
  }, 45_000);

  it("SIGTERM to A mid-traffic: every request A accepted completes, A exits 0, B keeps serving", async () => {
    const member = await factories.createUser();
    const token = await apiSignIn(ctx.b, member.email);
    const admin = await factories.createUser({ role: "admin" });
    const adminToken = await factories.accessTokenFor(admin.id, { stepUp: "now" });
    const file = await uploadThrough(ctx.b, adminToken);

    // Slow requests on A: their bodies trickle in over 1.5 s (a client on a slow line). The
    // signal waits until both have sent three tenths of their bodies (0.45 s): A has accepted
    // them, not merely been sent them. At the first tenth, a busy A (CI) had once not yet read
    // the upload's headers: its connection was still idle to Node, and closing idle connections
    // at the stop reset it.
    let streaming = 0;
    let bothStreaming: () => void;
    const accepted = new Promise<void>((resolve) => (bothStreaming = resolve));
    const slowBody = (json: object) => {
      const bytes = Buffer.from(JSON.stringify(json));
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= bytes.length) return controller.close();
          if (sent === 3 * Math.ceil(bytes.length / 10) && ++streaming === 2) bothStreaming();
          await new Promise((resolve) => setTimeout(resolve, 150));
          const next = Math.min(bytes.length, sent + Math.ceil(bytes.length / 10));
          controller.enqueue(bytes.subarray(sent, next));
          sent = next;
        },
      });
    };
    const slowPost = (path: string, json: object, bearer?: string) =>
      fetch(`${ctx.a.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
        body: slowBody(json),
        duplex: "half",
      } as RequestInit);
    const onA: Array<[Promise<Response>, number]> = [
      [slowPost("/api/auth/login", { email: member.email, password: factories.TEST_PASSWORD }), 200],
      [slowPost("/api/objects/upload", { kind: "download", fileName: "late.zip", contentType: "application/zip", size: 4096 }, adminToken), 200],
      [fetch(`${ctx.a.url}${file.path}`, { headers: { Authorization: `Bearer ${adminToken}` }, redirect: "manual" }), 302],
      ...["/", "/api/animations", "/category/plastic-surgery", "/search?q=breast"].map((path): [Promise<Response>, number] => [
        fetch(`${ctx.a.url}${path}`, { redirect: "manual" }),
        200,
      ]),
    ];
    // B's mixed traffic runs throughout, before and after A stops: pages, the API, a stream.
    let stopB = false;
    const bFailures: string[] = [];
    let bCount = 0;
    const bTraffic = (async () => {
      const steps: Array<[string, string | undefined, number]> = [
        ["/", undefined, 200],
        ["/api/animations", undefined, 200],
        [file.path, adminToken, 302],
        ["/category/plastic-surgery", undefined, 200],
        ["/api/auth/me", token, 200],
      ];
      for (let i = 0; !stopB; i++) {
        const [path, bearer, status] = steps[i % steps.length]!;
        const got = await call(ctx.b, path, { token: bearer }).then(
          (res) => res.status,
          (error: Error) => `${error.message} ${String(error.cause)}`,
        );
        bCount++;
        if (got !== status) bFailures.push(`${path}: ${got}`);
      }
    })();
    await accepted;
    const stoppedAt = Date.now();
    ctx.a.child.kill("SIGTERM");

    const settled = await Promise.allSettled(onA.map(([request]) => request));
    const outcomes = settled.map((result) =>
      result.status === "fulfilled" ? result.value.status : `failed: ${String((result.reason as Error).cause ?? result.reason)}`,
    );
    expect(outcomes, ctx.a.output.join("").slice(-3000)).toEqual(onA.map(([, status]) => status));
    const [signedIn, uploadTarget] = await Promise.all(
      settled.slice(0, 2).map((result) => (result as PromiseFulfilledResult<Response>).value.json() as Promise<Record<string, string>>),
    );
    expect(signedIn!.accessToken).toBeTruthy();
    expect(uploadTarget!.uploadURL!.startsWith(ctx.s3.endpoint)).toBe(true);
    expect(await ctx.a.exited, ctx.a.output.join("").slice(-3000)).toBe(0);
    // Promptly: the clients' idle keep-alive connections must not hold A until its 25 s deadline.
    expect(Date.now() - stoppedAt, ctx.a.output.join("").slice(-3000)).toBeLessThan(10_000);

    // After A has gone: B still answers everything, A's token included.
    await new Promise((resolve) => setTimeout(resolve, 500));
    stopB = true;
    await bTraffic;
    expect(bCount).toBeGreaterThan(10);
    expect(bFailures).toEqual([]);
    await expectStatus(ctx.b, await call(ctx.b, "/api/auth/me", { token: signedIn!.accessToken }), 200);
  }, 45_000);

  it("each at-start job ran once per hour across instances: both starting together, then A restarted (a rolling deploy)", async () => {
    const { AT_START_SLOT_SECONDS } = await import("~/services/job-workers.server.ts");
    const slot = (ms: number) => Math.floor(ms / 1000 / AT_START_SLOT_SECONDS);
    const slots = new Set([slot(ctx.firstStart), slot(Date.now())]);
    ctx.a = startInstance("A", PORTS.a, ctx.env);
    await waitUntilServing(ctx.a);
    slots.add(slot(Date.now()));
    const counts = () =>
      prisma.$queryRawUnsafe<Array<{ name: string; jobs: number; done: number }>>(
        `SELECT name, count(*)::int AS jobs, count(*) FILTER (WHERE state = 'completed')::int AS done FROM (
           SELECT name, state::text, singleton_key FROM pgboss.job UNION ALL SELECT name, state::text, singleton_key FROM pgboss.archive
         ) j WHERE name IN ('billing-sweep', 'purge') AND singleton_key = 'start' GROUP BY name ORDER BY name`,
      );
    // One job per hour slot the three starts fell in (one, unless the test ran across an hour);
    // the workers poll every 5 s, so wait for them to complete.
    const expected = slots.size;
    await expect.poll(counts, { timeout: 20_000, interval: 500 }).toEqual([
      { name: "billing-sweep", jobs: expected, done: expected },
      { name: "purge", jobs: expected, done: expected },
    ]);
  }, 60_000);

  it("the backup schedule both instances have writes one archive for the day, to the bucket", async () => {
    // pg-boss looks at its schedules every 30 s and the schedule fires each minute: wait for the
    // first archive, then as long again as that run took, for a run of the other instance to show.
    // Later fires of the day are throttled by pg-boss, and a retry or a second job of the same day
    // stops at the day's claim (tests/integration/backup-schedule.test.ts, two workers).
    const finished = () => prisma.backup.findMany({ where: { trigger: "schedule", finishedAt: { not: null } } });
    await expect.poll(async () => (await finished()).length, { timeout: 150_000, interval: 2_000 }).toBe(1);
    const [first] = await finished();
    await new Promise((resolve) => setTimeout(resolve, Math.max(5_000, first!.finishedAt!.getTime() - first!.startedAt.getTime())));
    const rows = await prisma.backup.findMany({ where: { trigger: "schedule" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ destination: `s3://${BUCKET}/backups/`, failedAt: null, error: null });
    const { listKeys } = await import("~/lib/s3-store.server.ts");
    const archives: string[] = [];
    for await (const object of listKeys()) if (object.key.startsWith("backups/")) archives.push(object.key);
    expect(archives).toEqual([`backups/${rows[0]!.archiveName}`]);
  }, 240_000);
});
