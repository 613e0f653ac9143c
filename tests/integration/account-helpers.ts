import { afterAll, beforeAll, expect, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { resetMailTransport } from "~/lib/mail.server.ts";
import { seedEmailTemplates } from "../../prisma/seed-data/email-templates.ts";
import { findLink } from "../helpers/mail-parse.ts";
import { startSmtpServer } from "../helpers/smtp.ts";

// Shared by the account-*.test.ts files: templates seeded and a real SMTP server capturing mail.

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

export const DAY_MS = 24 * 60 * 60 * 1000;

let counter = 0;
export async function createCategory(overrides: { parentId?: string; name?: string } = {}) {
  counter += 1;
  const n = `${Date.now().toString(36)}${counter}`;
  return prisma.category.create({
    data: { name: overrides.name ?? `Category ${n}`, slug: `category-${n}`, parentId: overrides.parentId ?? null, yearlyPrice: 299 },
  });
}

export async function createAnimation(overrides: { categoryId?: string; title?: string; description?: string; isActive?: boolean } = {}) {
  counter += 1;
  const n = `${Date.now().toString(36)}${counter}`;
  return prisma.animation.create({
    data: {
      title: overrides.title ?? `Animation ${n}`,
      slug: `animation-${n}`,
      description: overrides.description ?? "A doctor-verified animation.",
      categoryId: overrides.categoryId ?? null,
      coverImage: "/demo/cover.jpg",
      previewVideo: "/demo/preview.mp4",
      fullVideo: `/objects/uploads/full-${n}`,
      downloadFile: `/objects/uploads/zip-${n}`,
      duration: 95,
      isActive: overrides.isActive ?? true,
    },
  });
}
