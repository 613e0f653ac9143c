import { describe, expect, it } from "vitest";
import { consumeRateLimit, purgeRateLimits } from "~/lib/rate-limit.server.ts";
import { prisma } from "~/lib/db.server.ts";
import * as authRoute from "~/routes/public/auth.tsx";
import { signIn } from "~/services/auth/sign-in.server.ts";
import { createUser, TEST_PASSWORD } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

describe("consumeRateLimit", () => {
  it("allows up to the limit within the window, then refuses with the time left", async () => {
    const rule = { limit: 3, windowMs: 60_000 };
    const now = new Date("2026-01-01T00:00:00Z");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await consumeRateLimit("k1", rule, now));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]!.retryAfterSeconds).toBe(60);
  });

  it("starts a new window once the old one has passed, and purges expired counters", async () => {
    const rule = { limit: 1, windowMs: 1000 };
    const t0 = new Date("2026-01-01T00:00:00Z");
    expect((await consumeRateLimit("k2", rule, t0)).allowed).toBe(true);
    expect((await consumeRateLimit("k2", rule, t0)).allowed).toBe(false);
    const later = new Date(t0.getTime() + 1500);
    expect((await consumeRateLimit("k2", rule, later)).allowed).toBe(true);
    await purgeRateLimits(new Date(t0.getTime() + 10_000));
    expect(await prisma.rateLimit.count({ where: { key: "k2" } })).toBe(0);
  });

  it("counts concurrent attempts exactly", async () => {
    const rule = { limit: 5, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 8 }, () => consumeRateLimit("k3", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});

describe("sign-in on /auth", () => {
  it("answers 429 after ten attempts for one address from one client", async () => {
    const user = await createUser();
    const attempt = () => callRoute(authRoute, "/auth", { form: { intent: "signin", email: user.email, password: "wrong-password" } });
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(JSON.stringify(refused.body)).toContain("Too many attempts. Please try again in 15 minutes.");
  });

  it("clears the count on a successful sign-in, so only failures add up", async () => {
    const user = await createUser();
    const signIn = (password: string) => callRoute(authRoute, "/auth", { form: { intent: "signin", email: user.email, password } });
    for (let i = 0; i < 9; i++) expect((await signIn("wrong-password")).status).toBe(401);
    expect((await signIn(TEST_PASSWORD)).status).toBe(302);
    for (let i = 0; i < 9; i++) expect((await signIn("wrong-password")).status).toBe(401);
  });
});

describe("signIn", () => {
  it("refuses the 51st failure on one account even when every attempt comes from a new address", async () => {
    const user = await createUser();
    const attempt = (i: number) => signIn({ email: user.email, password: "wrong-password" }, `203.0.113.${i}`);
    for (let i = 0; i < 50; i++) await expect(attempt(i)).rejects.toMatchObject({ status: 401 });
    await expect(attempt(50)).rejects.toMatchObject({ status: 429, message: "Too many attempts. Please try again in 15 minutes." });
    // The right password is refused too until the window passes: the account's budget is spent.
    await expect(signIn({ email: user.email, password: TEST_PASSWORD }, "203.0.113.200")).rejects.toMatchObject({ status: 429 });
  });

  it("forgets the account's failures on a successful sign-in", async () => {
    const user = await createUser();
    for (let i = 0; i < 49; i++)
      await expect(signIn({ email: user.email, password: "wrong-password" }, `198.51.100.${i}`)).rejects.toMatchObject({ status: 401 });
    await expect(signIn({ email: user.email, password: TEST_PASSWORD }, "198.51.100.250")).resolves.toMatchObject({ id: user.id });
    for (let i = 0; i < 49; i++)
      await expect(signIn({ email: user.email, password: "wrong-password" }, `198.51.100.${i}`)).rejects.toMatchObject({ status: 401 });
  });
});
