// Reads Prometheus's text exposition format as a scraper does: one sample per line,
// `name{label="value",…} number`. Shared by tests/integration/operations.test.ts and the e2e
// teardown (tests/e2e/metrics.teardown.ts); no app code, so both runners can import it.

export type Sample = { labels: Record<string, string>; value: number };

/** Every sample of one metric, with its labels. */
export function samples(text: string, name: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the first sample whose labels include `labels`, or undefined when there is none. */
export function sample(text: string, name: string, labels: Record<string, string> = {}) {
  return samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
