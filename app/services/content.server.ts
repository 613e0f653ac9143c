import { prisma } from "~/lib/db.server.ts";
import { SETTING_DEFAULTS } from "./settings.server.ts";

/** What every page's header and footer need, in one round trip each. */
export async function getLayoutData() {
  const [legalPages, platform] = await Promise.all([
    prisma.page.findMany({
      where: { type: "legal", isPublished: true },
      select: { slug: true, title: true },
      orderBy: { title: "asc" },
    }),
    prisma.appSetting.findUnique({ where: { key: "platform_name" }, select: { value: true } }),
  ]);
  return { legalPages, platformName: platform?.value ?? SETTING_DEFAULTS.platform_name };
}
