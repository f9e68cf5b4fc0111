// Reading a Prometheus scrape in tests, and checking it (or alert rules) with promtool.
import { spawnSync } from 'node:child_process';

/** One scrape: every sample by its name and labels. */
export interface Scrape {
  text: string;
  /** The sample's value; 0 when the series is absent (a counter not incremented yet). */
  value(name: string, labels?: Record<string, string>): number;
  /** The sum of every series of `name` whose labels include `labels`. */
  sum(name: string, labels?: Record<string, string>): number;
  /** Every metric family named in `# TYPE` lines. */
  families(): string[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseScrape(text: string): Scrape {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  const matching = (name: string, labels: Record<string, string>) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    text,
    value(name, labels = {}) {
      const exact = matching(name, labels).filter(
        (s) => Object.keys(s.labels).length === Object.keys(labels).length,
      );
      if (exact.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} names several series`);
      return exact[0]?.value ?? 0;
    },
    sum: (name, labels = {}) => matching(name, labels).reduce((total, s) => total + s.value, 0),
    families: () => [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!),
  };
}

/** What promtool printed and its exit status. */
export function promtool(bin: string, args: string[], input?: string) {
  const run = spawnSync(bin, args, { input, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}
