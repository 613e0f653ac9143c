import { prisma, uniqueViolation } from "~/lib/db.server.ts";
import { conflict, notFound, ServiceError } from "~/lib/errors.server.ts";
import type { PageType, Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { FaqInput, PageInput } from "~/validation/admin-content.ts";
import { type Actor, recordAudit } from "./audit.server.ts";

// The site's content in the back office: pages (/admin/pages) and the Help Center's FAQs
// (admins add, edit and delete them from /help). Stored HTML is kept as written and sanitised
// whenever it is rendered (content.server.ts); every write drops the caches the public reads.

export const PAGES_PAGE_SIZE = 20;
export const PAGE_NOT_FOUND = "Page not found";
export const FAQ_NOT_FOUND = "FAQ not found";

// ---- pages ----

const adminPageSelect = {
  id: true,
  title: true,
  slug: true,
  content: true,
  metaDescription: true,
  metaKeywords: true,
  type: true,
  isPublished: true,
  showInFooter: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.PageSelect;

export async function listAdminPages({ search, type, page }: { search?: string; type?: PageType; page: number }) {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  const [rows, groups] = await Promise.all([
    prisma.page.findMany({
      where: { ...(type ? { type } : {}), ...(contains ? { OR: [{ title: contains }, { slug: contains }] } : {}) },
      select: { id: true, title: true, slug: true, type: true, isPublished: true, updatedAt: true },
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      skip: (page - 1) * PAGES_PAGE_SIZE,
      take: PAGES_PAGE_SIZE + 1,
    }),
    prisma.page.groupBy({ by: ["type", "isPublished"], _count: { _all: true } }),
  ]);
  const sum = (match: (g: (typeof groups)[number]) => boolean) => groups.filter(match).reduce((n, g) => n + g._count._all, 0);
  return {
    pages: rows.slice(0, PAGES_PAGE_SIZE),
    page,
    hasNext: rows.length > PAGES_PAGE_SIZE,
    // The stat cards: Total Pages, Published, Legal, Company.
    stats: { total: sum(() => true), published: sum((g) => g.isPublished), legal: sum((g) => g.type === "legal"), company: sum((g) => g.type === "company") },
  };
}

export async function getAdminPage(id: string) {
  if (!UUID_RE.test(id)) return null;
  return prisma.page.findUnique({ where: { id }, select: adminPageSelect });
}

function pageData(input: PageInput) {
  return {
    title: input.title,
    slug: input.slug,
    content: input.content,
    metaDescription: input.metaDescription ?? null,
    metaKeywords: input.metaKeywords ?? null,
    type: input.type,
    isPublished: input.isPublished,
  };
}

function slugTaken(error: unknown): never {
  if (uniqueViolation(error)) throw conflict("This slug is already in use", "slug");
  throw error;
}

export async function createPage(actor: Actor, input: PageInput) {
  const values = pageData(input);
  const page = await prisma
    .$transaction(async (tx) => {
      const row = await tx.page.create({ data: values, select: adminPageSelect });
      await recordAudit(tx, actor, {
        action: "page.create",
        entityType: "page",
        entityId: row.id,
        summary: `Created page “${row.title}” (/${row.slug})`,
        after: values,
      });
      return row;
    })
    .catch(slugTaken);
  return page;
}

export async function updatePage(actor: Actor, id: string, input: PageInput) {
  const current = await getAdminPage(id);
  if (!current) throw notFound(PAGE_NOT_FOUND);
  const values = pageData(input);
  const page = await prisma
    .$transaction(async (tx) => {
      const row = await tx.page.update({ where: { id }, data: values, select: adminPageSelect });
      const { id: _, createdAt: __, updatedAt: ___, showInFooter: ____, ...before } = current;
      const verb = current.isPublished === values.isPublished ? "Updated" : values.isPublished ? "Published" : "Unpublished";
      await recordAudit(tx, actor, {
        action: "page.update",
        entityType: "page",
        entityId: id,
        summary: `${verb} page “${row.title}” (/${row.slug})`,
        before,
        after: values,
      });
      return row;
    })
    .catch(slugTaken);
  return page;
}

export async function deletePage(actor: Actor, id: string) {
  const current = await getAdminPage(id);
  if (!current) throw notFound(PAGE_NOT_FOUND);
  await prisma.$transaction(async (tx) => {
    await tx.page.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "page.delete",
      entityType: "page",
      entityId: id,
      summary: `Deleted page “${current.title}” (/${current.slug})`,
      before: { title: current.title, slug: current.slug, type: current.type, isPublished: current.isPublished },
    });
  });
  return current;
}

// ---- FAQs ----

const adminFaqSelect = {
  id: true,
  question: true,
  answer: true,
  categoryId: true,
  sortOrder: true,
  isActive: true,
  views: true,
  category: { select: { name: true } },
} satisfies Prisma.FaqSelect;

type FaqRow = Prisma.FaqGetPayload<{ select: typeof adminFaqSelect }>;
const toAdminFaq = ({ category, ...row }: FaqRow) => ({ ...row, categoryName: category?.name ?? null });

export async function getAdminFaq(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.faq.findUnique({ where: { id }, select: adminFaqSelect });
  return row ? toAdminFaq(row) : null;
}

/** Every FAQ category, active or not, for the FAQ form's select. */
export function listFaqCategoryOptions() {
  return prisma.faqCategory.findMany({ select: { id: true, name: true, isActive: true }, orderBy: [{ sortOrder: "asc" }, { name: "asc" }] });
}

async function checkCategory(categoryId: string | null) {
  if (categoryId && !(await prisma.faqCategory.count({ where: { id: categoryId } }))) {
    throw new ServiceError("Choose an existing FAQ category", 400, "categoryId");
  }
}

const faqData = (input: FaqInput) => ({
  question: input.question,
  answer: input.answer,
  categoryId: input.categoryId,
  sortOrder: input.sortOrder,
  isActive: input.isActive,
});

export async function createFaq(actor: Actor, input: FaqInput) {
  await checkCategory(input.categoryId);
  const values = faqData(input);
  const faq = await prisma.$transaction(async (tx) => {
    const row = await tx.faq.create({ data: values, select: adminFaqSelect });
    await recordAudit(tx, actor, { action: "faq.create", entityType: "faq", entityId: row.id, summary: `Created FAQ “${row.question}”`, after: values });
    return row;
  });
  return toAdminFaq(faq);
}

export async function updateFaq(actor: Actor, id: string, input: FaqInput) {
  const current = await getAdminFaq(id);
  if (!current) throw notFound(FAQ_NOT_FOUND);
  await checkCategory(input.categoryId);
  const values = faqData(input);
  const faq = await prisma.$transaction(async (tx) => {
    const row = await tx.faq.update({ where: { id }, data: values, select: adminFaqSelect });
    const { question, answer, categoryId, sortOrder, isActive } = current;
    await recordAudit(tx, actor, {
      action: "faq.update",
      entityType: "faq",
      entityId: id,
      summary: `Updated FAQ “${row.question}”`,
      before: { question, answer, categoryId, sortOrder, isActive },
      after: values,
    });
    return row;
  });
  return toAdminFaq(faq);
}

export async function deleteFaq(actor: Actor, id: string) {
  const current = await getAdminFaq(id);
  if (!current) throw notFound(FAQ_NOT_FOUND);
  await prisma.$transaction(async (tx) => {
    await tx.faq.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "faq.delete",
      entityType: "faq",
      entityId: id,
      summary: `Deleted FAQ “${current.question}”`,
      before: { question: current.question, isActive: current.isActive },
    });
  });
  return current;
}
