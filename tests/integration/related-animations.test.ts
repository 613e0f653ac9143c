import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { listRelatedAnimations, RELATED_LIMIT } from "~/services/catalogue/animations.server.ts";
import { createAnimation, createCatalogue } from "../helpers/catalogue.ts";

// The detail page's side column: bounded lists, newest first, nothing twice.

describe("listRelatedAnimations", () => {
  it("lists up to four of the subcategory and up to four more of the first doctor, newest first, without repeats", async () => {
    const c = await createCatalogue();
    const day = 24 * 3600 * 1000;
    // Six more facial animations and five more of Dr. Smith's in cardiology, with distinct dates.
    for (let i = 0; i < 6; i++) await createAnimation({ title: `Facial ${i}`, categoryId: c.facial.id, createdAt: new Date(Date.now() - (i + 1) * day) });
    for (let i = 0; i < 5; i++) {
      await createAnimation({
        title: `Cardiac ${i}`,
        categoryId: c.cardiology.id,
        createdAt: new Date(Date.now() - (i + 1) * day),
        doctors: { create: [{ doctorId: c.smith.id }] },
      });
    }
    await createAnimation({ title: "Retired Cardiac", categoryId: c.cardiology.id, isActive: false, doctors: { create: [{ doctorId: c.smith.id }] } });

    const related = await listRelatedAnimations(c.rhinoplasty, c.smith.id);
    expect(related.sameCategory).toHaveLength(RELATED_LIMIT);
    expect(related.sameCategory.map((a) => a.title)).not.toContain("Rhinoplasty");
    const dates = await prisma.animation.findMany({ where: { id: { in: related.sameCategory.map((a) => a.id) } }, select: { id: true, createdAt: true } });
    const byId = new Map(dates.map((d) => [d.id, d.createdAt.getTime()]));
    const order = related.sameCategory.map((a) => byId.get(a.id)!);
    expect(order).toEqual([...order].sort((a, b) => b - a));

    expect(related.byDoctor.map((a) => a.title)).toEqual(["Cardiac 0", "Cardiac 1", "Cardiac 2", "Cardiac 3"]);
    const shown = [...related.sameCategory, ...related.byDoctor].map((a) => a.id);
    expect(new Set(shown).size).toBe(shown.length);
    // Cards only: no full video or download file leaves this list.
    for (const card of [...related.sameCategory, ...related.byDoctor]) expect(Object.keys(card)).not.toContain("fullVideo");
  });

  it("is empty for an animation without a category or doctor", async () => {
    const loose = await createAnimation({ title: "Uncategorised" });
    expect(await listRelatedAnimations(loose, null)).toEqual({ sameCategory: [], byDoctor: [] });
  });
});
