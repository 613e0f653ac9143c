import { afterAll, beforeAll, expect, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { resetMailTransport } from "~/lib/mail.server.ts";
import { seedEmailTemplates } from "../../prisma/seed-data/email-templates.ts";
import { findLink } from "./mail-parse.ts";
import { startSmtpServer } from "./smtp.ts";

/** For a test file: the e-mail templates seeded and the app's mail sent to a real SMTP server. */
export function useMailCapture() {
  const box: { smtp?: Awaited<ReturnType<typeof startSmtpServer>> } = {};
  beforeAll(async () => {
    await seedEmailTemplates(prisma);
    box.smtp = await startSmtpServer();
    (getEnv() as { SMTP_URL?: string }).SMTP_URL = box.smtp.url;
    resetMailTransport();
  });
  afterAll(async () => {
    await box.smtp?.close();
    (getEnv() as { SMTP_URL?: string }).SMTP_URL = undefined;
    resetMailTransport();
  });
  return {
    get received() {
      return box.smtp!.received;
    },
    /** Mail to this address, oldest first. */
    to(address: string) {
      return box.smtp!.received.filter((m) => m.to.includes(address));
    },
    /** Waits for the newest mail to `address` with a link under `path`, and returns its token. */
    async tokenFrom(address: string, path: string, count = 1) {
      let token: string | null = null;
      await vi.waitFor(
        () => {
          const mails = box.smtp!.received.filter((m) => m.to.includes(address) && findLink(m.text, path));
          expect(mails.length).toBeGreaterThanOrEqual(count);
          const link = findLink(mails.at(-1)!.text, path)!;
          token = new URL(link).searchParams.get("token");
          expect(token).toBeTruthy();
        },
        { timeout: 5000, interval: 20 },
      );
      return token!;
    },
  };
}
