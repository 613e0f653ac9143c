import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as auditScreen from "~/routes/admin/audit.tsx";
import { auditChanges, listAuditLog, recordAudit, AUDIT_PAGE_SIZE } from "~/services/admin/audit.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// The audit log: written in the transaction of the change it records, append-only in the
// database itself, and listed newest first with filters.

const actor = { id: "0d7f3c2a-5a43-4b8e-9a37-1c2d3e4f5a6b", email: "auditor@medanim.test" };

describe("recordAudit", () => {
  it("keeps only the fields that changed, long values shortened, Decimals and dates as text", () => {
    const changes = auditChanges(
      { title: "Knee", price: new Prisma.Decimal("299.00"), body: "x".repeat(500), updatedAt: new Date(1) },
      { title: "Knee Replacement", price: new Prisma.Decimal("299.00"), body: "y".repeat(500), updatedAt: new Date(2) },
    );
    expect(Object.keys(changes!).sort()).toEqual(["body", "title"]);
    expect(changes!.title).toEqual(["Knee", "Knee Replacement"]);
    expect((changes!.body![1] as string).length).toBe(201);
    expect(auditChanges({ a: 1 }, { a: 1 })).toBeNull();
    expect(auditChanges(null, { a: new Date("2026-01-02T00:00:00Z") })).toEqual({ a: [null, "2026-01-02T00:00:00.000Z"] });
  });

  it("commits with the change, and is gone with it when the transaction fails", async () => {
    await prisma.$transaction(async (tx) => {
      await recordAudit(tx, actor, {
        action: "setting.update",
        entityType: "setting",
        entityId: "platform_name",
        summary: "Renamed",
        before: { value: "A" },
        after: { value: "B" },
      });
    });
    await expect(
      prisma.$transaction(async (tx) => {
        await recordAudit(tx, actor, { action: "setting.update", entityType: "setting", entityId: "rolled-back", summary: "Never" });
        throw new Error("the write failed");
      }),
    ).rejects.toThrow("the write failed");
    const rows = await prisma.auditLog.findMany({ where: { entityType: "setting" } });
    expect(rows.map((row) => row.entityId)).toEqual(["platform_name"]);
    expect(rows[0]).toMatchObject({ actorId: actor.id, actorEmail: actor.email, action: "setting.update", changes: { value: ["A", "B"] } });
  });

  it("cannot be edited or deleted, even with direct database access", async () => {
    const row = await prisma.auditLog.create({ data: { actorEmail: actor.email, action: "x.y", entityType: "page", summary: "Kept" } });
    await expect(prisma.auditLog.update({ where: { id: row.id }, data: { summary: "Changed" } })).rejects.toThrow();
    await expect(prisma.auditLog.delete({ where: { id: row.id } })).rejects.toThrow();
    expect((await prisma.auditLog.findUnique({ where: { id: row.id } }))?.summary).toBe("Kept");
  });
});

describe("the audit list", () => {
  it("pages newest first without counting the table, and filters by record type, admin, text and day", async () => {
    const base = Date.UTC(2026, 0, 10);
    await prisma.auditLog.createMany({
      data: Array.from({ length: AUDIT_PAGE_SIZE + 3 }, (_, i) => ({
        actorEmail: i % 2 ? "odd@medanim.test" : "even@medanim.test",
        action: "doctor.update",
        entityType: "doctor",
        entityId: `doctor-${i}`,
        summary: `Updated doctor number ${i}`,
        createdAt: new Date(base + i * 3_600_000),
      })),
    });
    const first = await listAuditLog({ entityType: "doctor" });
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.hasNext).toBe(true);
    expect(first.entries[0]!.entityId).toBe(`doctor-${AUDIT_PAGE_SIZE + 2}`);
    const second = await listAuditLog({ entityType: "doctor", page: 2 });
    expect(second.entries).toHaveLength(3);
    expect(second.hasNext).toBe(false);
    expect((await listAuditLog({ entityType: "doctor", actor: "ODD@" })).entries.every((e) => e.actorEmail === "odd@medanim.test")).toBe(true);
    expect((await listAuditLog({ search: "number 7" })).entries.map((e) => e.entityId)).toEqual(["doctor-7"]);
    expect((await listAuditLog({ search: "doctor-3" })).entries.map((e) => e.entityId)).toEqual(["doctor-3"]);
    const day = await listAuditLog({ entityType: "doctor", from: "2026-01-11", to: "2026-01-11" });
    expect(day.entries.map((e) => e.entityId).sort()).toEqual(Array.from({ length: 4 }, (_, i) => `doctor-${24 + i}`).sort());
  });

  it("/admin/audit reads its filters from the URL and ignores nonsense in them", async () => {
    const admin = await createUser({ role: "admin" });
    const result = await callRoute(auditScreen, "/admin/audit?entityType=nonsense&page=-4&from=yesterday&search=number%202", {
      cookie: await sessionCookieFor(admin.id),
    });
    expect(result.status).toBe(200);
    expect(result.body.filter).toEqual({ search: "number 2" });
    expect(result.body.page).toBe(1);
  });
});
