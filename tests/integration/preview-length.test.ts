import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { sendToApp } from "../helpers/app.ts";

// Claims from data: the preview is the animation's first 10 seconds, or the
// whole animation when it is shorter, and every page that names its length says what it plays.

let c: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  c = await createCatalogue();
  await prisma.animation.update({ where: { id: c.tummy.id }, data: { duration: 6 } });
  dropAllCaches();
});

const page = async (target: string) => {
  const res = await sendToApp(target, { headers: new Headers() });
  expect(res.status, target).toBe(200);
  return res.body.toString();
};

describe("the preview's length", () => {
  it("a 6-second animation's page says a 6-second preview, stopping at 0:06", async () => {
    const html = await page(`/animations/${c.tummy.slug}`);
    expect(html).toContain(">6-second preview</span>");
    expect(html).toContain("The preview stops at 0:06. The full animation comes with Premium or a license: ");
    expect(html).toContain("You are watching a 6-second preview.");
    expect(html).toContain("The 6-second preview has ended.");
    expect(html).not.toContain("10-second");
    // Its video object says the same length as the page.
    expect(html).toContain('"duration":"PT6S"');
  });

  it("a longer animation's says the 10-second cap", async () => {
    const html = await page(`/animations/${c.rhinoplasty.slug}`);
    expect(html).toContain(">10-second preview</span>");
    expect(html).toContain("The preview stops at 0:10.");
    expect(html).toContain("The 10-second preview has ended.");
  });

  it("each card on a listing names its own animation's preview", async () => {
    for (const target of ["/", "/search?q=tummy"]) {
      const html = await page(target);
      const card = /<h3[^>]*>Tummy Tuck<\/h3>[\s\S]*?<span class="mt-auto[^>]*>([^<]*)</.exec(html)?.[1];
      expect(card, target).toBe("Free 6-second preview · full video with Premium or a license");
    }
    const home = await page("/");
    const rhinoplasty = /<h3[^>]*>Rhinoplasty<\/h3>[\s\S]*?<span class="mt-auto[^>]*>([^<]*)</.exec(home)?.[1];
    expect(rhinoplasty).toBe("Free 10-second preview · full video with Premium or a license");
  });
});
