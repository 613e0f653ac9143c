import { prisma } from "~/lib/db.server.ts";
import { memo, sharedCacheMs } from "~/lib/memo.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { applySynonyms, parseSynonyms } from "~/validation/search.ts";
import { getSettings } from "../site/settings.server.ts";
import { cached, type CategoryTree } from "./categories.server.ts";

// Catalogue search that forgives typos. The term as typed is matched first, exactly as before
// (a substring of title or description, through the lowercased `searchText` and its trigram
// index). Only when that finds nothing is the term taken word by word: a word that occurs
// nowhere is corrected to the nearest word of the catalogue's vocabulary (titles, category and
// doctor names), or else matched by trigram word similarity (`<%`, served by the same index);
// a word that matches nothing at all is left out. The answer then carries the corrected term,
// which pages show as "Did you mean …".

export type SearchHits = { ids: string[]; total: number; suggestion?: string };

/** Words too common to narrow a search: they never decide a match on their own. */
const STOP_WORDS = new Set([
  "and",
  "the",
  "for",
  "with",
  "from",
  "after",
  "before",
  "how",
  "what",
  "why",
  "when",
  "are",
  "into",
  "its",
  "this",
  "that",
  "like",
  "your",
]);

/** A word needs three characters to be searched alone, four to be corrected or matched fuzzily. */
const MIN_WORD = 3;
const MIN_FUZZY_WORD = 4;

/**
 * The vocabulary is kept for five minutes (the catalogue's own entries live two seconds): a
 * word added on another instance is suggested a little later, which costs nothing but a
 * suggestion. A write on this instance drops it with the catalogue (cache-registry.server.ts).
 */
const VOCABULARY_MS = 5 * 60_000;

/** Same prefix as the catalogue's `cached`, so a catalogue write drops it too. */
const VOCABULARY_KEY = "catalogue:search-vocabulary";

/** Every word of active titles, category names and doctor names, with how often it occurs. */
export function getSearchVocabulary(): Promise<Map<string, number>> {
  return memo(VOCABULARY_KEY, sharedCacheMs() > 0 ? VOCABULARY_MS : 0, async () => {
    const rows = await prisma.$queryRaw<Array<{ word: string; n: number }>>`
      SELECT w AS "word", count(*)::int AS "n"
      FROM (
        SELECT regexp_split_to_table(lower(a."title"), '[^[:alnum:]]+') AS w FROM "Animation" AS a WHERE a."isActive"
        UNION ALL SELECT regexp_split_to_table(lower(c."name"), '[^[:alnum:]]+') FROM "Category" AS c WHERE c."isActive"
        UNION ALL SELECT regexp_split_to_table(lower(d."name"), '[^[:alnum:]]+') FROM "Doctor" AS d WHERE d."isActive"
      ) AS words
      WHERE length(w) >= ${MIN_WORD} AND w ~ '[[:alpha:]]'
      GROUP BY w`;
    return new Map(rows.map((row) => [row.word, row.n]));
  });
}

/** The term's words worth searching, lowercased, each once, in the order typed. */
export function searchWords(term: string): string[] {
  const words = term.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((w) => w.length >= MIN_WORD && !STOP_WORDS.has(w)))];
}

function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** pg_trgm's similarity(): shared trigrams over all trigrams of both words. */
export function trigramSimilarity(a: string, b: string): number {
  const [ta, tb] = [trigrams(a), trigrams(b)];
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** Edits (insert, delete, replace, swap two neighbours) from a to b, or max + 1 once over max. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}

/**
 * The vocabulary word a misspelt word most likely meant: the fewest edits (one for a word of up
 * to five letters, two up to eight, three beyond), then the most trigrams in common ("facelfit"
 * is one swap from "facelift" but shares more trigrams with "face"), then the most frequent.
 */
export function correctWord(word: string, vocabulary: Map<string, number>): string | null {
  if (word.length < MIN_FUZZY_WORD || /^\p{N}+$/u.test(word)) return null;
  const max = word.length <= 5 ? 1 : word.length <= 8 ? 2 : 3;
  let best: { word: string; distance: number; similarity: number; n: number } | null = null;
  for (const [candidate, n] of vocabulary) {
    const distance = editDistance(word, candidate, max);
    if (distance > max || distance === 0) continue;
    const similarity = trigramSimilarity(word, candidate);
    if (!best || distance < best.distance || (distance === best.distance && (similarity > best.similarity || (similarity === best.similarity && n > best.n)))) {
      best = { word: candidate, distance, similarity, n };
    }
  }
  return best?.word ?? null;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Filter = { categoryIds: string[] | null };

function categoryFilter({ categoryIds }: Filter) {
  return categoryIds ? Prisma.sql`AND a."categoryId" IN (${uuidList(categoryIds)})` : Prisma.empty;
}

/** One page of ids ranked by `order`, with the number of matches (one scan: a window count). */
async function rankedPage(matches: Prisma.Sql, order: Prisma.Sql, skip: number, take: number): Promise<{ ids: string[]; total: number }> {
  const page = await prisma.$queryRaw<Array<{ id: string; total: bigint | number }>>`
    SELECT a."id", count(*) OVER () AS "total"
    FROM "Animation" AS a
    WHERE ${matches}
    ORDER BY ${order}, a."createdAt" DESC, a."id" DESC
    LIMIT ${take} OFFSET ${skip}`;
  if (page.length || skip === 0) return { ids: page.map((r) => r.id), total: page.length ? Number(page[0]!.total) : 0 };
  const [count] = await prisma.$queryRaw<Array<{ total: bigint | number }>>`SELECT count(*) AS "total" FROM "Animation" AS a WHERE ${matches}`;
  return { ids: [], total: Number(count?.total ?? 0) };
}

/** Active doctors' names, for matching words to doctors without a join per search (a short list). */
function getDoctorNames(): Promise<Array<{ id: string; name: string }>> {
  return cached("search-doctors", async () =>
    (await prisma.doctor.findMany({ where: { isActive: true }, select: { id: true, name: true } })).map((d) => ({ id: d.id, name: d.name.toLowerCase() })),
  );
}

const uuidList = (ids: string[]) => Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));

/**
 * An animation matches a word when its title or description holds it, its category (or that
 * category's main category) is named with it, or one of its active doctors is; a word that
 * occurs nowhere literally may instead match by trigram word similarity. Category and doctor
 * names are matched here, not in SQL, so the common case (no name holds the word) stays one
 * condition the trigram index serves.
 */
function wordMatch(word: string, fuzzy: boolean, tree: CategoryTree, doctors: Array<{ id: string; name: string }>): Prisma.Sql {
  const named = [...tree.byId.values()].filter((node) => node.name.toLowerCase().includes(word));
  const categoryIds = [...new Set(named.flatMap((node) => [node.id, ...(tree.childrenOf.get(node.id) ?? []).map((child) => child.id)]))];
  const doctorIds = doctors.filter((doctor) => doctor.name.includes(word)).map((doctor) => doctor.id);
  const inCategory = categoryIds.length ? Prisma.sql`OR a."categoryId" IN (${uuidList(categoryIds)})` : Prisma.empty;
  const byDoctor = doctorIds.length
    ? Prisma.sql`OR a."id" IN (SELECT ad."animationId" FROM "AnimationDoctor" AS ad WHERE ad."doctorId" IN (${uuidList(doctorIds)}))`
    : Prisma.empty;
  // `<%` (word similarity over the threshold, 0.6 by default) is served by the trigram index; similarity() in a WHERE is not.
  const similar = fuzzy ? Prisma.sql`OR ${word} OPERATOR(public.<%) a."searchText"` : Prisma.empty;
  return Prisma.sql`(a."searchText" LIKE ${likePattern(word)} ${inCategory} ${byDoctor} ${similar})`;
}

/** Which words occur literally in some active animation's title or description (one statement). */
async function literalWords(words: string[]): Promise<Set<string>> {
  if (!words.length) return new Set();
  const rows = await prisma.$queryRaw<Array<{ word: string }>>`
    SELECT w.word FROM unnest(${words}::text[], ${words.map(likePattern)}::text[]) AS w(word, pattern)
    WHERE EXISTS (SELECT 1 FROM "Animation" AS a WHERE a."isActive" AND a."searchText" LIKE w.pattern)`;
  return new Set(rows.map((row) => row.word));
}

/** Which words some active animation's text holds by trigram word similarity. */
async function similarWords(words: string[]): Promise<Set<string>> {
  if (!words.length) return new Set();
  const rows = await prisma.$queryRaw<Array<{ word: string }>>`
    SELECT w.word FROM unnest(${words}::text[]) AS w(word)
    WHERE EXISTS (SELECT 1 FROM "Animation" AS a WHERE a."isActive" AND w.word OPERATOR(public.<%) a."searchText")`;
  return new Set(rows.map((row) => row.word));
}

/**
 * One page of the animations matching `term`, best first. Lay words are first put in the
 * catalogue's terms (the search_synonyms setting: "nose job" → rhinoplasty). Then the term as
 * typed: an animation matches when its text holds the whole term, or when each of its words is
 * in its title or description, its category's name or a doctor's (the same match a corrected
 * word gets, so the exact term never finds fewer than its misspelling). Ranked: the title equal
 * to the term, then starting with it, then holding it, then the text holding it, then titles
 * holding more of the words; newest first among equals. When nothing matches, its words are
 * corrected or matched by similarity: every word must match (or, when no animation matches them
 * all, as many as possible). `suggestion` is the term as searched when it differs from the
 * one typed (a synonym or a correction found the results).
 */
export async function searchAnimations(typed: string, filter: Filter, tree: CategoryTree, skip: number, take: number): Promise<SearchHits> {
  const synonyms = parseSynonyms((await getSettings()).search_synonyms) ?? [];
  const term = applySynonyms(typed, synonyms);
  const translated = term !== typed ? term : undefined;
  const pattern = likePattern(term);
  const scope = Prisma.sql`a."isActive" ${categoryFilter(filter)}`;
  const typedWords = searchWords(term);
  const doctors = typedWords.length ? await getDoctorNames() : [];
  const allWords = typedWords.length
    ? Prisma.sql`OR (${Prisma.join(
        typedWords.map((w) => wordMatch(w, false, tree, doctors)),
        " AND ",
      )})`
    : Prisma.empty;
  const wordsInTitle = typedWords.length
    ? Prisma.join(
        typedWords.map((w) => Prisma.sql`(lower(a."title") LIKE ${likePattern(w)})::int`),
        " + ",
      )
    : null;
  const exact = await rankedPage(
    Prisma.sql`${scope} AND (a."searchText" LIKE lower(${pattern}) ${allWords})`,
    Prisma.sql`(lower(a."title") = lower(${term})) DESC, (lower(a."title") LIKE lower(${`${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})) DESC,
      (lower(a."title") LIKE lower(${pattern})) DESC, (a."searchText" LIKE lower(${pattern})) DESC${wordsInTitle ? Prisma.sql`, ${wordsInTitle} DESC` : Prisma.empty}`,
    skip,
    take,
  );
  if (exact.total > 0) return translated ? { ...exact, suggestion: translated } : exact;

  const words = searchWords(term);
  const literal = await literalWords(words);
  const unknown = words.filter((w) => !literal.has(w));
  // Category and doctor names are not in the text: a vocabulary word is searched as it is.
  const vocabulary = unknown.length ? await getSearchVocabulary() : new Map<string, number>();
  const corrections = new Map<string, string>();
  for (const word of unknown) {
    const corrected = vocabulary.has(word) ? null : correctWord(word, vocabulary);
    if (corrected) corrections.set(word, corrected);
  }
  const similar = await similarWords(unknown.filter((w) => !corrections.has(w) && !vocabulary.has(w) && w.length >= MIN_FUZZY_WORD));
  const searched = words
    .filter((w) => literal.has(w) || corrections.has(w) || vocabulary.has(w) || similar.has(w))
    .map((w) => ({ word: corrections.get(w) ?? w, fuzzy: similar.has(w) }));
  if (!searched.length) return { ids: [], total: 0 };

  const names = doctors.length ? doctors : await getDoctorNames();
  const matches = searched.map(({ word, fuzzy }) => wordMatch(word, fuzzy, tree, names));
  const inTitle = Prisma.join(
    searched.map(({ word }) => Prisma.sql`(lower(a."title") LIKE ${likePattern(word)})::int`),
    " + ",
  );
  let hits = await rankedPage(Prisma.sql`${scope} AND ${Prisma.join(matches, " AND ")}`, Prisma.sql`${inTitle} DESC`, skip, take);
  if (hits.total === 0 && matches.length > 1) {
    const matched = Prisma.join(
      matches.map((match) => Prisma.sql`${match}::int`),
      " + ",
    );
    hits = await rankedPage(Prisma.sql`${scope} AND (${Prisma.join(matches, " OR ")})`, Prisma.sql`${matched} DESC, ${inTitle} DESC`, skip, take);
  }
  if (hits.total === 0) return hits;
  if (!corrections.size) return translated ? { ...hits, suggestion: translated } : hits;
  const suggestion = term
    .toLowerCase()
    .split(/([^\p{L}\p{N}]+)/u)
    .map((token) => corrections.get(token) ?? token)
    .join("")
    .trim();
  return { ...hits, suggestion };
}
