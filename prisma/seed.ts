// Idempotent demo data. `npm run db:seed` runs it against the configured database; `npm start`
// runs it on first start.
import { hashPassword } from "../app/lib/crypto.server.ts";
import { getEnv } from "../app/lib/env.server.ts";
import type { PrismaClient } from "../app/generated/prisma/client.ts";
import { seedEmailTemplates } from "./seed-data/email-templates.ts";

export async function seed(prisma: PrismaClient) {
  const env = getEnv();
  await seedEmailTemplates(prisma);
  for (const [key, value, description] of [
    ["platform_name", "Medanim", "Name shown across the site and in e-mails"],
    ["global_subscription_yearly_price", "99", "Premium yearly price in USD"],
    ["homepage_animations_per_page", "6", "Animation cards per page on the home page"],
  ] as const) {
    await prisma.appSetting.upsert({ where: { key }, update: {}, create: { key, value, description } });
  }
  await prisma.user.upsert({
    where: { email: env.SEED_ADMIN_EMAIL },
    update: {},
    create: {
      email: env.SEED_ADMIN_EMAIL,
      username: "admin",
      firstName: "Site",
      lastName: "Admin",
      password: await hashPassword(env.SEED_ADMIN_PASSWORD),
      role: "admin",
      isEmailVerified: true,
      termsAcceptedAt: new Date(),
      notificationPreferences: { create: {} },
    },
  });
}

if (process.argv[1]?.endsWith("seed.ts")) {
  const { getDb } = await import("../app/lib/db.server.ts");
  const db = getDb();
  try {
    await db.migrate();
    await seed(db.prisma);
    console.log("Seed complete.");
  } finally {
    await db.close();
  }
}
