// Fits the trees that judge a comparison's candidate regions (src/analyzers/changes/judge.ts) on the
// change bench's tuning part (bench/lib/change-set.ts), never on its held-out part, and writes them to
// src/analyzers/changes/judge-model.json. A candidate is damage when it covers one as the bench counts
// it. Before fitting on the whole part, it prints how the trees would do on pairs they were not fitted
// on: the part's pairs in five folds, each judged by trees fitted on the other four, at several
// likelihoods (found of the damages; false regions per pair with damage, without change), for five
// ways of cutting the pairs into folds and their mean.
//
//   npm run train:changes
//     BENCH_CHANGES_IMAGES=dir   render into dir and reuse the images there (as bench:changes)
//     TRAIN_CHANGES_DRY=1        print the folds' figures only; leave the model as it is
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COMPARISON_PREVIEW,
  candidateRegions,
  grownBox,
  judgedRegions,
  type JudgedCandidate,
} from '../src/analyzers/changes/compare.js';
import { FEATURE_NAMES } from '../src/analyzers/changes/candidates.js';
import { fitTrees, likelihood } from '../src/analyzers/changes/judge.js';
import { prepareImage } from '../src/analyzers/prepare.js';
import { changeSet, covers, type ChangePair } from './lib/change-set.js';
import { renderSet } from './lib/reading-set.js';

const IMAGES = process.env.BENCH_CHANGES_IMAGES || undefined;
const DRY = process.env.TRAIN_CHANGES_DRY === '1';
const MODEL_FILE = fileURLToPath(new URL('../src/analyzers/changes/judge-model.json', import.meta.url));
const FOLDS = 5;
/**
 * Ways of cutting the pairs into FOLDS folds: the found count of one way moves by up to 5 damages
 * between versions that differ little (docs/adr/0016-change-detection-with-opencv.md, stop 48), their
 * mean less. By place in the set, in runs of neighbours, and by three bytes of a digest of the pair's id.
 */
const FOLDINGS: { name: string; foldOf: (sample: Sample, k: number, count: number) => number }[] = [
  { name: 'place', foldOf: (_, k) => k % FOLDS },
  { name: 'runs', foldOf: (_, k, count) => Math.floor((k * FOLDS) / count) },
  ...[0, 1, 2].map((byte) => ({
    name: `digest ${byte}`,
    foldOf: (sample: Sample) => createHash('sha1').update(sample.pair.id).digest()[byte]! % FOLDS,
  })),
];
const LIKELIHOODS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55];

const log = (line: string) => process.stderr.write(`[train] ${line}\n`);
const print = (line = '') => process.stdout.write(`${line}\n`);

interface Sample {
  pair: ChangePair;
  candidates: JudgedCandidate[];
}

async function collect(): Promise<Sample[]> {
  const pairs = changeSet().filter((p) => p.part === 'tuning');
  const dir = IMAGES ?? fs.mkdtempSync(path.join(os.tmpdir(), 'train-changes-'));
  const images = pairs.flatMap((p) => [p.before, p.after]);
  const files = await renderSet(images, dir, (done, count) => {
    if (done % 40 === 0) log(`images ${done}/${images.length} (${count} rendered)`);
  });
  const samples: Sample[] = [];
  for (const [k, pair] of pairs.entries()) {
    const [before, after] = await Promise.all(
      [files[2 * k]!, files[2 * k + 1]!].map((file) => prepareImage(file, 'image/jpeg', COMPARISON_PREVIEW)),
    );
    const found = await candidateRegions(before!.preview, after!.preview, grownBox(pair.vehicle, 0.05));
    samples.push({ pair, candidates: found.status === 'compared' ? found.candidates : [] });
    if ((k + 1) % 40 === 0) log(`pairs ${k + 1}/${pairs.length}`);
  }
  if (!IMAGES) fs.rmSync(dir, { recursive: true, force: true });
  return samples;
}

const isDamage = (region: { box: JudgedCandidate['box'] }, pair: ChangePair) =>
  pair.damages.some((d) => covers(region, d));

function fit(samples: readonly Sample[]) {
  const rows = samples.flatMap((s) => s.candidates.map((c) => c.features));
  const labels = samples.flatMap((s) => s.candidates.map((c) => +isDamage(c, s.pair)));
  return fitTrees(rows, labels);
}

/** Found damages and false regions of a pair judged by `judge` at `least`, as comparePhotos keeps them. */
function measure({ pair, candidates }: Sample, judge: (features: number[]) => number, least: number) {
  const kept = judgedRegions(candidates, judge, least);
  const falses = kept.filter((region) => !isDamage(region, pair)).length;
  const damaged = pair.damages.length > 0;
  return {
    found: pair.damages.filter((d) => kept.some((region) => covers(region, d))).length,
    damages: pair.damages.length,
    falseDamaged: damaged ? falses : 0,
    falseUnchanged: damaged ? 0 : falses,
    damaged: +damaged,
    unchanged: +!damaged,
  };
}

async function main() {
  const samples = await collect();
  const count = samples.reduce((s, x) => s + x.candidates.length, 0);
  print(`tuning part: ${samples.length} pairs, ${count} candidates, ${FEATURE_NAMES.length} numbers each`);
  print(
    'fitted on four fifths of the pairs, judged on the fifth left out, for each way of cutting the pairs into folds',
  );
  print('(found of the damages, hidden ones included; false regions per damaged pair / per unchanged pair)');
  const judged = FOLDINGS.map(({ name, foldOf }) => {
    const likelihoods = new Map<Sample, (features: number[]) => number>();
    for (let fold = 0; fold < FOLDS; fold++) {
      const model = fit(samples.filter((sample, k) => foldOf(sample, k, samples.length) !== fold));
      for (const sample of samples.filter((s, k) => foldOf(s, k, samples.length) === fold))
        likelihoods.set(sample, (features) => likelihood(model, features));
    }
    const figures = LIKELIHOODS.map((least) => measureFolds(samples, likelihoods, least));
    print(`  ${name.padEnd(8)} ${figures.map(shown).join(' | ')}`);
    return figures;
  });
  const mean = LIKELIHOODS.map((_, k) => {
    const of = (key: 'found' | 'perDamaged' | 'perUnchanged') =>
      judged.reduce((s, figures) => s + figures[k]![key], 0) / judged.length;
    return { found: of('found'), perDamaged: of('perDamaged'), perUnchanged: of('perUnchanged') };
  });
  print(`  ${'mean'.padEnd(8)} ${mean.map(shown).join(' | ')}`);
  print(`  (of ${judged[0]![0]!.damages} damages; at likelihoods ${LIKELIHOODS.join(', ')})`);
  if (DRY) return;
  fs.writeFileSync(MODEL_FILE, `${JSON.stringify(fit(samples))}\n`);
  log(`written ${path.relative(process.cwd(), MODEL_FILE)}`);
}

const shown = (m: { found: number; perDamaged: number; perUnchanged: number }) =>
  `${Number.isInteger(m.found) ? m.found : m.found.toFixed(1)} ${m.perDamaged.toFixed(2)}/${m.perUnchanged.toFixed(2)}`;

function measureFolds(
  samples: readonly Sample[],
  likelihoods: Map<Sample, (features: number[]) => number>,
  least: number,
) {
  const parts = samples.map((sample) => measure(sample, likelihoods.get(sample)!, least));
  const sum = (key: keyof (typeof parts)[number]) => parts.reduce((s, m) => s + m[key], 0);
  return {
    found: sum('found'),
    damages: sum('damages'),
    perDamaged: sum('falseDamaged') / sum('damaged'),
    perUnchanged: sum('falseUnchanged') / sum('unchanged'),
  };
}

await main();
