import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as profileApi from "~/routes/api/auth.profile.ts";
import * as verifyApi from "~/routes/api/auth.verify-email.ts";
import * as preferencesApi from "~/routes/api/notifications.preferences.ts";
import * as notificationsPage from "~/routes/account/notifications.tsx";
import * as profilePage from "~/routes/account/profile.tsx";
import { sendVerificationEmail } from "~/services/auth/verification.server.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { seedEmailTemplates } from "../../prisma/seed-data/email-templates.ts";
import { useMailCapture } from "./account-helpers.ts";

const mail = useMailCapture();

function profileOf(user: { firstName: string; lastName: string; username: string; email: string }) {
  return { firstName: user.firstName, lastName: user.lastName, username: user.username, email: user.email };
}

describe("PUT /api/auth/profile", () => {
  it("401 for an anonymous caller", async () => {
    const res = await callRoute(profileApi, "/api/auth/profile", { method: "PUT", json: { firstName: "A" } });
    expect(res.status).toBe(401);
  });

  it("updates names and username and keeps the address verified when it is unchanged", async () => {
    const user = await createUser();
    const res = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token: await accessTokenFor(user.id),
      json: { ...profileOf(user), firstName: "Ada", lastName: "Lovelace", username: `ada_${user.id.slice(0, 6)}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ firstName: "Ada", lastName: "Lovelace", isEmailVerified: true });
    expect(res.body.user).not.toHaveProperty("password");
  });

  it.each([
    [{ firstName: " " }, "First name is required"],
    [{ lastName: "" }, "Last name is required"],
    [{ username: "ab" }, "Username must be at least 3 characters"],
    [{ email: "not-an-email" }, "Must be a valid email"],
  ])("400 with the product's message for %o", async (change, message) => {
    const user = await createUser();
    const res = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token: await accessTokenFor(user.id),
      json: { ...profileOf(user), ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("409 with a clear message when the username or e-mail belongs to someone else", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const token = await accessTokenFor(user.id);
    const name = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token,
      json: { ...profileOf(user), username: other.username.toUpperCase() },
    });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe("This username is already taken");
    const email = await callRoute(profileApi, "/api/auth/profile", { method: "PUT", token, json: { ...profileOf(user), email: other.email } });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe("An account with this email already exists");
  });

  it("405 for GET", async () => {
    expect((await callRoute(profileApi, "/api/auth/profile")).status).toBe(405);
  });
});

describe("changing the e-mail address", () => {
  it("marks it unverified, mails the new address, and only the new link verifies it", async () => {
    const user = await createUser({ isEmailVerified: false });
    await sendVerificationEmail(user);
    const oldLink = await mail.tokenFrom(user.email, "/verify-email");
    const newEmail = `new-${user.email}`;

    const verified = await createUser();
    const res = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token: await accessTokenFor(user.id),
      json: { ...profileOf(user), email: newEmail.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: newEmail, isEmailVerified: false });

    const changeMail = mail.to(newEmail).at(-1);
    expect(changeMail?.subject).toContain("Confirm your new email address");
    const newLink = await mail.tokenFrom(newEmail, "/verify-email");

    // The link sent to the old address no longer verifies anything.
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token: oldLink } })).status).toBe(400);
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token: newLink } })).status).toBe(200);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isEmailVerified).toBe(true);

    // A verified user changing address becomes unverified.
    const again = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token: await accessTokenFor(verified.id),
      json: { ...profileOf(verified), email: `other-${verified.email}` },
    });
    expect(again.body.user.isEmailVerified).toBe(false);
  });

  it("sends the optional security notice to the old address only when the user keeps security alerts on", async () => {
    // The seeded security_alert template ("Security notice for your ... account").
    await seedEmailTemplates(prisma);
    const alerted = await createUser();
    const quiet = await createUser();
    await prisma.notificationPreferences.update({ where: { userId: quiet.id }, data: { emailSecurityAlerts: false } });
    for (const u of [alerted, quiet]) {
      const res = await callRoute(profileApi, "/api/auth/profile", {
        method: "PUT",
        token: await accessTokenFor(u.id),
        json: { ...profileOf(u), email: `changed-${u.email}` },
      });
      expect(res.status).toBe(200);
    }
    expect(mail.to(alerted.email).map((m) => m.subject)).toContainEqual(expect.stringContaining("Security notice"));
    expect(mail.to(quiet.email)).toHaveLength(0);
  });
});

describe("/profile page", () => {
  it("shows validation errors inline, then saves with a toast", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const bad = await callRoute(profilePage, "/profile", { cookie, form: { intent: "update", ...profileOf(user), firstName: "", username: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.result.error.firstName).toEqual(["First name is required"]);
    expect(bad.body.result.error.username).toEqual(["Username must be at least 3 characters"]);
    const ok = await callRoute(profilePage, "/profile", { cookie, form: { intent: "update", ...profileOf(user), firstName: "Grace" } });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/profile");
    expect(ok.headers.get("Set-Cookie")).toContain("medanim_toast");
  });

  it("a taken username is a field error", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const res = await callRoute(profilePage, "/profile", {
      cookie: await sessionCookieFor(user.id),
      form: { intent: "update", ...profileOf(user), username: other.username },
    });
    expect(res.status).toBe(409);
    expect(res.body.result.error.username).toEqual(["This username is already taken"]);
  });

  it("sends anonymous visitors to sign in", async () => {
    const res = await callRoute(profilePage, "/profile");
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth?redirectTo=%2Fprofile");
  });
});

describe("GET/PUT /api/notifications/preferences", () => {
  it("401 for an anonymous caller", async () => {
    expect((await callRoute(preferencesApi, "/api/notifications/preferences")).status).toBe(401);
    expect((await callRoute(preferencesApi, "/api/notifications/preferences", { method: "PUT", json: { emailPromotions: true } })).status).toBe(401);
  });

  it("creates the row with the defaults when missing", async () => {
    const user = await createUser({ notificationPreferences: undefined });
    await prisma.notificationPreferences.deleteMany({ where: { userId: user.id } });
    const res = await callRoute(preferencesApi, "/api/notifications/preferences", { token: await accessTokenFor(user.id) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      emailNewAnimations: true,
      emailPromotions: false,
      emailSubscriptionUpdates: true,
      emailSecurityAlerts: true,
      emailNewsletter: true,
      emailRenewalReminders: true,
    });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("PUT changes only the keys sent and answers with all of them", async () => {
    const user = await createUser();
    const token = await accessTokenFor(user.id);
    const res = await callRoute(preferencesApi, "/api/notifications/preferences", {
      method: "PUT",
      token,
      json: { emailPromotions: true, emailSecurityAlerts: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ emailPromotions: true, emailSecurityAlerts: false, emailNewAnimations: true });
    const other = await createUser();
    expect((await callRoute(preferencesApi, "/api/notifications/preferences", { token: await accessTokenFor(other.id) })).body.emailPromotions).toBe(false);
  });

  it("400 for a value that is not a boolean", async () => {
    const user = await createUser();
    const res = await callRoute(preferencesApi, "/api/notifications/preferences", {
      method: "PUT",
      token: await accessTokenFor(user.id),
      json: { emailPromotions: "yes" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Preferences must be true or false");
  });
});

describe("/notifications page", () => {
  it("an unchecked box is absent from the form and means false", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const res = await callRoute(notificationsPage, "/notifications", { cookie, form: { emailPromotions: "on", emailNewAnimations: "on" } });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/notifications");
    const page = await callRoute(notificationsPage, "/notifications", { cookie });
    expect(page.body.preferences).toMatchObject({
      emailPromotions: true,
      emailNewAnimations: true,
      emailSubscriptionUpdates: false,
      emailSecurityAlerts: false,
    });
  });
});
