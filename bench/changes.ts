// How well comparePhotos (src/analyzers/changes/compare.ts) finds new damage between two photos of one
// vehicle, on the change set of bench/lib/change-set.ts: 300 pairs of 4000x3000 JPEGs of a drawn car,
// the second taken from a slightly different place, in other light, before another backdrop on half of
// them, with 0 to 3 damages drawn on it (a third of the pairs without any). A fifth is held out.
//
// Each photo goes the service's way: prepareImage() at the comparison's size (768 px), then comparePhotos(before,
// after, box), timed alone, with the car's true box grown by 5 % (the vehicle model, which gives the box in
// the service, does not recognise the drawn cars close up). Figures per part:
//   recall           visible damages covered by a region (their boxes overlap by a quarter of the
//                    smaller one, and by a twentieth of the region: one around the whole car covers
//                    nothing); a damage is visible when the "after" photo differs from the same photo
//                    rendered without damage, with the same noise, by VISIBLE_LEVELS at least on
//                    VISIBLE_SHARE of its box at least (a scratch under the plate, or white on white
//                    paint, is not): the others are counted apart and left out of recall;
//   false regions    regions covering no damage (visible or not), per pair with damage and per pair
//                    without change;
//   not aligned      pairs the comparison could not register;
//   time per pair    comparePhotos, and with the two prepareImage() of the 12 MP photos.
//
//   npm run bench:changes
//     BENCH_CHANGES_IMAGES=dir   render into dir and reuse the images there (named by a digest); kept
//     BENCH_CHANGES_PART=p       only the tuning or the held-out part
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import {
  COMPARISON_PREVIEW,
  comparePhotos,
  grownBox,
  type Comparison,
} from '../src/analyzers/changes/compare.js';
import { prepareImage } from '../src/analyzers/prepare.js';
import { changeSet, changeSetDigest, covers, type ChangePair } from './lib/change-set.js';
import { renderSet, type Part } from './lib/reading-set.js';
import { median, percentile } from './lib/stats.js';

const IMAGES = process.env.BENCH_CHANGES_IMAGES || undefined;
const ONLY_PART = process.env.BENCH_CHANGES_PART as Part | undefined;
if (ONLY_PART !== undefined && ONLY_PART !== 'tuning' && ONLY_PART !== 'held-out')
  throw new Error(`BENCH_CHANGES_PART must be tuning or held-out, not '${String(ONLY_PART)}'`);

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const print = (line = '') => process.stdout.write(`${line}\n`);

/** A pixel differs visibly by this much (of 255) in one channel at least... */
const VISIBLE_LEVELS = 12;
/** ...and a damage is visible when this share of its box's pixels at least differ so. */
const VISIBLE_SHARE = 0.01;

/** Whether each of the pair's damages can be seen: `after` against `undamaged`, full size. */
async function visibility(pair: ChangePair, after: string, undamaged: string): Promise<boolean[]> {
  const { width = 0, height = 0 } = await sharp(after).metadata();
  return Promise.all(
    pair.damages.map(async ({ box }) => {
      const left = Math.max(0, Math.floor(box.x * width));
      const top = Math.max(0, Math.floor(box.y * height));
      const region = {
        left,
        top,
        width: Math.max(1, Math.min(width, Math.ceil((box.x + box.width) * width)) - left),
        height: Math.max(1, Math.min(height, Math.ceil((box.y + box.height) * height)) - top),
      };
      const [a, b] = await Promise.all(
        [after, undamaged].map((file) => sharp(file).extract(region).removeAlpha().raw().toBuffer()),
      );
      let differing = 0;
      for (let i = 0; i < a!.length; i += 3) {
        const most = Math.max(
          Math.abs(a![i]! - b![i]!),
          Math.abs(a![i + 1]! - b![i + 1]!),
          Math.abs(a![i + 2]! - b![i + 2]!),
        );
        if (most >= VISIBLE_LEVELS) differing++;
      }
      return differing >= VISIBLE_SHARE * region.width * region.height;
    }),
  );
}

interface Outcome {
  pair: ChangePair;
  /** One per damage of the pair: whether it can be seen at all. */
  visible: boolean[];
  comparison: Comparison;
  compareMs: number;
  prepareMs: number;
}

async function measure(
  pair: ChangePair,
  visible: boolean[],
  beforeFile: string,
  afterFile: string,
): Promise<Outcome> {
  const started = performance.now();
  const [before, after] = [
    await prepareImage(beforeFile, 'image/jpeg', COMPARISON_PREVIEW),
    await prepareImage(afterFile, 'image/jpeg', COMPARISON_PREVIEW),
  ];
  const prepareMs = performance.now() - started;
  const t = performance.now();
  const comparison = await comparePhotos(before.preview, after.preview, grownBox(pair.vehicle, 0.05));
  return { pair, visible, comparison, compareMs: performance.now() - t, prepareMs };
}

function report(outcomes: Outcome[], part: Part) {
  const rows = outcomes.filter((o) => o.pair.part === part);
  if (rows.length === 0) return;
  const damaged = rows.filter((o) => o.pair.damages.length > 0);
  const unchanged = rows.filter((o) => o.pair.damages.length === 0);
  const regionsOf = (o: Outcome) => (o.comparison.status === 'compared' ? o.comparison.regions : []);
  const all = damaged.flatMap((o) => o.pair.damages.map((d, k) => ({ d, o, visible: o.visible[k] })));
  const damages = all.filter((damage) => damage.visible);
  const hidden = all.length - damages.length;
  const found = damages.filter(({ d, o }) => regionsOf(o).some((r) => covers(r, d))).length;
  const falseOf = (o: Outcome) =>
    regionsOf(o).filter((r) => !o.pair.damages.some((d) => covers(r, d))).length;
  const sum = (list: Outcome[], f: (o: Outcome) => number) => list.reduce((s, o) => s + f(o), 0);
  const notAligned = rows.filter((o) => o.comparison.status === 'not_aligned').length;
  const per = (n: number, d: number) => (d === 0 ? '-' : (n / d).toFixed(2));
  print(
    `${part} part (${rows.length} pairs: ${damaged.length} with ${all.length} damages, ${hidden} of them not visible; ${unchanged.length} without change)`,
  );
  print(
    `  recall:                          ${found}/${damages.length} (${damages.length ? ((found / damages.length) * 100).toFixed(1) : '-'} %)`,
  );
  print(`  false regions per damaged pair:  ${per(sum(damaged, falseOf), damaged.length)}`);
  print(`  false regions per unchanged pair: ${per(sum(unchanged, falseOf), unchanged.length)}`);
  print(`  not aligned:                     ${notAligned}`);
  for (const kind of ['scratch', 'dent', 'scuff', 'panel'] as const) {
    const ofKind = damages.filter(({ d }) => d.kind === kind);
    const hit = ofKind.filter(({ d, o }) => regionsOf(o).some((r) => covers(r, d))).length;
    const unseen = all.filter(({ d, visible }) => d.kind === kind && !visible).length;
    print(`    ${kind.padEnd(8)} ${hit}/${ofKind.length}${unseen ? ` (and ${unseen} not visible)` : ''}`);
  }
  print();
}

async function main() {
  const pairs = changeSet().filter((p) => !ONLY_PART || p.part === ONLY_PART);
  const dir = IMAGES ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-changes-'));
  log(`${pairs.length} pairs; images in ${dir}`);
  const images = pairs.flatMap((p) => [p.before, p.after, ...(p.undamaged ? [p.undamaged] : [])]);
  const rendered = await renderSet(images, dir, (done, count) => {
    if (done % 20 === 0) log(`images ${done}/${images.length} (${count} rendered)`);
  });
  const fileOf = new Map(images.map((image, i) => [image.id, rendered[i]!]));
  const files = (pair: ChangePair) => ({
    before: fileOf.get(pair.before.id)!,
    after: fileOf.get(pair.after.id)!,
    undamaged: pair.undamaged && fileOf.get(pair.undamaged.id)!,
  });
  // Warm-up: the vehicle model and OpenCV load on first use.
  await measure(pairs[0]!, [], files(pairs[0]!).before, files(pairs[0]!).after);
  const outcomes: Outcome[] = [];
  for (const pair of pairs) {
    const { before, after, undamaged } = files(pair);
    const visible = undamaged ? await visibility(pair, after, undamaged) : [];
    outcomes.push(await measure(pair, visible, before, after));
  }
  print(`change set ${changeSetDigest(pairs)}: ${pairs.length} pairs`);
  print();
  for (const part of ['held-out', 'tuning'] as const) report(outcomes, part);
  const times = outcomes.map((o) => o.compareMs);
  const withPrepare = outcomes.map((o) => o.compareMs + o.prepareMs);
  print(
    `comparePhotos per pair: median ${median(times).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms; ` +
      `with the two prepareImage(): median ${median(withPrepare).toFixed(0)} ms (one core, ${os.cpus()[0]?.model.trim()})`,
  );
  print();
  print(
    'Pairs with a miss or a false region (id [part]: visible damages found / visible damages, false regions, not visible | about)',
  );
  for (const o of outcomes) {
    const regions = o.comparison.status === 'compared' ? o.comparison.regions : [];
    const seen = o.pair.damages.filter((_, k) => o.visible[k]);
    const found = seen.filter((d) => regions.some((r) => covers(r, d))).length;
    const falses = regions.filter((r) => !o.pair.damages.some((d) => covers(r, d))).length;
    if (found === seen.length && falses === 0 && o.comparison.status === 'compared') continue;
    const hidden = o.pair.damages.length - seen.length;
    print(
      `  ${o.pair.id} [${o.pair.part}]: ${o.comparison.status === 'compared' ? `${found}/${seen.length}, ${falses} false` : `not aligned (${o.comparison.inliers} inliers)`}${hidden ? `, ${hidden} not visible` : ''} | ${o.pair.about}`,
    );
  }
  if (!IMAGES) fs.rmSync(dir, { recursive: true, force: true });
}

await main();
