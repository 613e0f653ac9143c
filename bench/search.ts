// `npx tsx bench/search.ts [--count=10000]`
//
// Catalogue search at scale, database work only: an in-memory embedded database with the demo
// catalogue's titles plus `count` generated animations (bench/run.ts's --large generator), then
// each kind of term timed through searchAnimations (services/catalogue/search.server.ts) beside
// the substring-only statement search used before typo tolerance, and the plans of the fuzzy
// statements (EXPLAIN ANALYZE) to show the trigram index at work.
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import { openDatabase, setDb } from "~/lib/db.server.ts";
import { getCategoryTree } from "~/services/catalogue/categories.server.ts";
import { forget } from "~/lib/memo.server.ts";
import { getSearchVocabulary, searchAnimations } from "~/services/catalogue/search.server.ts";
import { ANIMATIONS, animationSlug } from "../prisma/seed-data/animations.ts";
import { CATEGORIES } from "../prisma/seed-data/categories.ts";
import { DOCTORS } from "../prisma/seed-data/doctors.ts";

// As in production: the vocabulary is loaded once and kept (its load is timed on its own below).
process.env.CATALOGUE_CACHE_MS ??= "2000";
const countArg = process.argv.find((a) => a.startsWith("--count="));
const COUNT = countArg ? Number(countArg.split("=")[1]) : 10_000;
const RUNS = 20;

const WORDS =
  "anterior posterior lateral medial laser graft valve bypass fusion release repair reconstruction implant incision suture cartilage tendon ligament nerve artery".split(
    " ",
  );

const db = openDatabase({ memory: true });
setDb(db);
await db.migrate();
const prisma = db.prisma;

const subcategories: string[] = [];
for (const main of CATEGORIES) {
  const { id } = await prisma.category.create({ data: { name: main.name, slug: main.slug, description: main.description, sortOrder: main.sortOrder } });
  for (const sub of main.subcategories) {
    subcategories.push((await prisma.category.create({ data: { name: sub.name, slug: sub.slug, description: sub.description, parentId: id } })).id);
  }
}
const doctorIds: string[] = [];
for (const d of DOCTORS) doctorIds.push((await prisma.doctor.create({ data: { name: d.name, slug: d.slug, specialty: d.specialty } })).id);
await prisma.animation.createMany({
  data: ANIMATIONS.map((a, i) => ({
    title: a.title,
    slug: animationSlug(a.title),
    description: a.description,
    categoryId: subcategories[i % subcategories.length]!,
  })),
});
const started = Date.UTC(2020, 0, 1);
for (let offset = 0; offset < COUNT; offset += 1000) {
  const rows = Array.from({ length: Math.min(1000, COUNT - offset) }, (_, i) => {
    const n = offset + i;
    const word = (k: number) => WORDS[(n * 7 + k * 13) % WORDS.length];
    return {
      id: crypto.randomUUID(),
      title: `${word(1)} ${word(2)} ${word(3)} study ${n}`,
      slug: `bench-animation-${n}`,
      description: `A ${word(4)} ${word(5)} procedure, step by step (${n}).`,
      categoryId: subcategories[n % subcategories.length]!,
      createdAt: new Date(started + n * 1000),
    };
  });
  await prisma.animation.createMany({ data: rows });
  await prisma.animationDoctor.createMany({ data: rows.map((r, i) => ({ animationId: r.id, doctorId: doctorIds[i % doctorIds.length]! })) });
}
await db.maintain();
const tree = await getCategoryTree();

async function time(run: () => Promise<unknown>) {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(RUNS / 2)]!, p90: samples[Math.floor(RUNS * 0.9)]! };
}

/** The statement search ran before typo tolerance: a substring of searchText, newest first. */
function substringOnly(term: string) {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return prisma.$queryRaw`
    SELECT a."id", count(*) OVER () AS "total" FROM "Animation" AS a
    WHERE a."isActive" AND a."searchText" LIKE lower(${pattern})
    ORDER BY a."createdAt" DESC, a."id" DESC LIMIT 24`;
}

const terms = [
  ["common word (matches ~1,500)", "cartilage"],
  ["demo title word", "rhinoplasty"],
  ["typo of a title word", "rhinoplsty"],
  ["typo, two words", "facelfit recovery"],
  ["four words, one unknown", "deep plane facelift recovery"],
  ["typo of a bench word", "ligamnet"],
  ["no match at all", "zzzz-nothing-like-this"],
];

const total = await prisma.animation.count();
console.log(`\n${total.toLocaleString("en")} animations, in-memory PGlite; ${RUNS} runs each, first page of 24\n`);
console.log("term | substring only (before): median / p90 | searchAnimations (now): median / p90 | total | suggestion");
for (const [label, term] of terms) {
  const before = await time(() => substringOnly(term!));
  const now = await time(() => searchAnimations(term!, { categoryIds: null }, tree, 0, 24));
  const hits = await searchAnimations(term!, { categoryIds: null }, tree, 0, 24);
  const ms = (t: { median: number; p90: number }) => `${t.median.toFixed(1)} / ${t.p90.toFixed(1)} ms`;
  console.log(`${label} "${term}" | ${ms(before)} | ${ms(now)} | ${hits.total} | ${hits.suggestion ?? "-"}`);
}

const vocabulary = await time(async () => {
  forget("catalogue:search-vocabulary");
  await getSearchVocabulary();
});
console.log(
  `\nLoading the vocabulary (${(await getSearchVocabulary()).size} words; once per 5 minutes or catalogue write): ${vocabulary.median.toFixed(1)} / ${vocabulary.p90.toFixed(1)} ms`,
);

console.log("\nPlan of a fuzzy word (no literal match, no vocabulary correction):");
const plan = await prisma.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(
  `EXPLAIN ANALYZE SELECT 1 FROM "Animation" AS a WHERE a."isActive" AND 'ligamnetous' OPERATOR(public.<%) a."searchText" LIMIT 1`,
);
for (const row of plan) console.log(`  ${row["QUERY PLAN"]}`);
await db.close();
