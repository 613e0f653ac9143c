import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README is an entry and docs/ the manual: every relative link in them resolves, every
// anchor names a heading of its file, and nothing of the old one-file manual went missing.

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The headings of the README before it was split into docs/: each must still be a heading somewhere. */
const FORMER_README_HEADINGS = [
  "Medanim",
  "What it looks like",
  "The two commands",
  "Configuration",
  "How it is built",
  "Search",
  "Migrations",
  "Running on PostgreSQL, S3, SMTP",
  "Operating: metrics, health, backups, scaling out",
  "Accounts and security: two-step sign-in, passkeys, sessions",
  "The back office (`/admin`)",
  "For API clients (`/api`)",
  "Payments: test mode and Stripe",
  "Found and shared: the head of every page",
  "For clinics: embedding licensed animations",
  "Images",
  "For search engines and browsers: robots.txt, the sitemap, the web manifest",
  "Streaming: the media pipeline",
  "Speed",
  "Tests",
];

function markdownFiles() {
  const docs = fs.readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md"));
  return ["README.md", "bench/README.md", ...docs.map((f) => path.join("docs", f))];
}

/** Headings outside code blocks, as GitHub shows them. */
function headingsOf(file: string) {
  const headings: string[] = [];
  let fenced = false;
  for (const line of fs.readFileSync(path.join(ROOT, file), "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const match = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (match) headings.push(match[1].trim());
  }
  return headings;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped but for hyphens, spaces to hyphens. */
function slugOf(heading: string) {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

function linksOf(file: string) {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

describe("the README and docs/", () => {
  it("keep the README an entry: under 250 lines", () => {
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(250);
  });

  it.each(markdownFiles())("%s links only to files and headings that exist", (file) => {
    const broken: string[] = [];
    for (const target of linksOf(file)) {
      const [linkPath, anchor] = target.split("#");
      const resolved = linkPath ? path.join(path.dirname(file), decodeURIComponent(linkPath)) : file;
      if (!fs.existsSync(path.join(ROOT, resolved))) {
        broken.push(`${target} (no file ${resolved})`);
        continue;
      }
      if (anchor && !headingsOf(resolved).map(slugOf).includes(anchor)) broken.push(`${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it("keep every heading of the former one-file README", () => {
    const all = new Set(markdownFiles().flatMap(headingsOf));
    expect(FORMER_README_HEADINGS.filter((heading) => !all.has(heading))).toEqual([]);
  });
});
