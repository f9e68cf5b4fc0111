// How well the text analyzer (src/analyzers/text.ts) reads licence plates and VINs, on a fixed reading
// set (bench/lib/reading-set.ts): the 4 real fixture photos (none shows a legible plate or VIN, so any
// reading there is a false one), 36 synthetic EU plates composited into the 3 fixture photos that show
// a vehicle (plate width 8/12/18/25 % of the image x rotation -8/0/+6° x blur sigma 0/1/2.5 preview
// pixels), 27 VIN labels photographed close up (30/45/60 % of the width) and 18 small on a vehicle
// (10/15 %), with the same rotations and blurs. Generated images are 4000x3000 JPEGs, quality 90.
//
// Every image goes the service's way: prepareImage() (the 1024 px preview), detectVehicles() on the
// preview (timed; the analysis thread runs it beside the text analyzer), then readText() twice:
//   (a) with inputMetaData {}: "read right" when the reading equals the truth (compact(): uppercase
//       letters and digits only); a reading where there is no such text, or a wrong one, is false;
//   (b) with the vehicle's plate and VIN as inputMetaData (as an inspection gives them for every photo,
//       shown or not): "matched" when match === true; any flag is a false alarm, as the data is right.
// Both are run because neither can be derived from the other: given the expected text, readText
// reports the candidate equal to it even when another candidate ranks first.
//
// BENCH_READING_SEARCH=whole measures the whole-frame search that text regions replaced. Its rates
// depend on CPU load: it runs a second, contrast-stretched OCR pass only when the first took under
// 600 ms (SECOND_PASS_BEFORE_MS in text.ts), so a busy machine skips it and reads less. Compare runs
// made under the same load; the load average is printed with the figures.
// A warm-up image (not counted) loads the vehicle model and starts the OCR worker first, so the
// worker's start does not eat the first measured image's time budget.
//
//   npm run bench:reading     (BENCH_READING_LIMIT=N runs the first N samples only, a mix of every
//                              category; BENCH_READING_KEEP=1 keeps the images and prints where)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PreparedImage } from '../src/analyzers/analyzer.js';
import { prepareImage } from '../src/analyzers/prepare.js';
import { closeTextReader, compact, readText, textAnalyzer, type TextSearch } from '../src/analyzers/text.js';
import { detectVehicles, vehicleAnalyzer } from '../src/analyzers/vehicle.js';
import type { TextPart, VehiclesPart } from '../src/domain/result/detection-parts.js';
import { median, percentile } from './lib/stats.js';
import {
  ANGLES,
  BLURS,
  readingSet,
  renderSet,
  type Category,
  type Placement,
  type Sample,
} from './lib/reading-set.js';

const LIMIT = positiveInteger('BENCH_READING_LIMIT');
const KEEP = process.env.BENCH_READING_KEEP === '1';
/** 'regions' (the default) or 'whole': the whole-frame search of text.ts before text regions. */
const SEARCH = searchOf(process.env.BENCH_READING_SEARCH);

function searchOf(value: string | undefined): TextSearch {
  if (value === undefined || value === '' || value === 'regions') return 'regions';
  if (value === 'whole') return 'whole';
  throw new Error(`BENCH_READING_SEARCH must be regions or whole, not '${value}'`);
}

function positiveInteger(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`${name} must be a positive integer, not '${value}'`);
  return Number(value);
}

// ---------------------------------------------------------------------------------------------------
// Figures

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const rate = (hits: number, total: number) =>
  `${hits}/${total} (${total === 0 ? '-' : ((hits / total) * 100).toFixed(0)} %)`;
const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(0)} ms`);

// ---------------------------------------------------------------------------------------------------
// One sample, the service's way

/**
 * Everything the text analyzer could be told about one image. readText takes the inputMetaData today;
 * the vehicles are here so that, should it take them (or more), only callReadText changes.
 */
interface TextInputs {
  inputMetaData: Record<string, unknown>;
  vehicles: VehiclesPart;
}

interface Timed<T> {
  value: T;
  ms: number;
}

async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

/** readText as the analysis service calls it: today's signature, under the analyzer's own time limit. */
function callReadText(image: PreparedImage, inputs: TextInputs): Promise<TextPart> {
  const signal = AbortSignal.timeout(textAnalyzer.timeoutMs);
  return readText(image, { inputMetaData: inputs.inputMetaData, signal }, SEARCH);
}

interface Outcome {
  sample: Sample;
  prepareMs: number;
  vehicles: VehiclesPart;
  detectMs: number;
  /** (a): no inputMetaData. */
  blind: Timed<TextPart>;
  /** (b): the vehicle's plate and VIN as inputMetaData. */
  told: Timed<TextPart>;
}

async function measure(sample: Sample, file: string): Promise<Outcome> {
  const prepared = await timed(() => prepareImage(file, 'image/jpeg'));
  const image = prepared.value;
  const detected = await timed(() => detectVehicles(image.preview));
  const vehicles = detected.value;
  const blind = await timed(() => callReadText(image, { inputMetaData: {}, vehicles }));
  const told = await timed(() => callReadText(image, { inputMetaData: sample.identity, vehicles }));
  return { sample, prepareMs: prepared.ms, vehicles, detectMs: detected.ms, blind, told };
}

// ---------------------------------------------------------------------------------------------------
// Scoring

type Field = 'plate' | 'vin';

const same = (read: string | null, truth: string | null) =>
  read !== null && truth !== null && compact(read) === compact(truth);
/** (a) read the text the image shows. */
const readRight = (o: Outcome, field: Field) => same(o.blind.value[field].read, o.sample.truth[field]);
/** (a) reported a text the image does not show (a wrong reading, or one where there is none). */
const falseReading = (o: Outcome, field: Field) => o.blind.value[field].read !== null && !readRight(o, field);
/** (b) confirmed the expected text. */
const matched = (o: Outcome, field: Field) => o.told.value[field].match === true;
const shows = (o: Outcome, field: Field) => o.sample.truth[field] !== null;
const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;
const rateOf = <T>(items: readonly T[], test: (item: T) => boolean) => rate(count(items, test), items.length);

// ---------------------------------------------------------------------------------------------------
// Report

const lines: string[] = [];
const print = (line = '') => lines.push(line);

const HEADER =
  `${''.padEnd(16)}${'n'.padStart(3)}  ${'read right (a)'.padEnd(15)}${'matched (b)'.padEnd(15)}` +
  `${'false (a)'.padEnd(11)}${'flags (b)'.padEnd(11)}${'vehicle'.padEnd(9)}readText median`;

/** One row: how the samples of one level of a factor fared, on the field they show. */
function row(label: string, outcomes: Outcome[], field: Field): string {
  const n = outcomes.length;
  const right = rateOf(outcomes, (o) => readRight(o, field));
  const confirmed = rateOf(outcomes, (o) => matched(o, field));
  const falseCount = count(outcomes, (o) => falseReading(o, 'plate') || falseReading(o, 'vin'));
  const flags = outcomes.reduce((sum, o) => sum + o.told.value.flags.length, 0);
  const vehicles = `${count(outcomes, (o) => o.vehicles.present)}/${n}`;
  const times = outcomes.flatMap((o) => [o.blind.ms, o.told.ms]);
  return (
    `  ${label.padEnd(14)}${String(n).padStart(3)}  ${right.padEnd(15)}${confirmed.padEnd(15)}` +
    `${String(falseCount).padEnd(11)}${String(flags).padEnd(11)}${vehicles.padEnd(9)}${ms(median(times))}`
  );
}

/** Rows of `outcomes` grouped by one factor, in the factor's order; levels with no sample are left out. */
function rowsBy(
  outcomes: Outcome[],
  field: Field,
  levels: readonly number[],
  of: (p: Placement) => number,
  label: (level: number) => string,
) {
  for (const level of levels) {
    const group = outcomes.filter((o) => o.sample.placement && of(o.sample.placement) === level);
    if (group.length > 0) print(row(label(level), group, field));
  }
}

const widthLabel = (w: number) => `${Math.round(w * 100)} % wide`;
const angleLabel = (a: number) => `${a > 0 ? '+' : ''}${a}°`;
const blurLabel = (b: number) => `sigma ${b}`;
const levelsOf = (outcomes: Outcome[]) =>
  [...new Set(outcomes.map((o) => o.sample.placement?.widthFraction ?? 0))].sort((a, b) => a - b);

function printReal(outcomes: Outcome[]) {
  print('Real photos (none shows a legible plate or VIN: any reading is false)');
  print(
    `  ${'id'.padEnd(28)}${'vehicle'.padEnd(10)}${'plate (a)'.padEnd(14)}${'VIN (a)'.padEnd(20)}flags (b)`,
  );
  for (const o of outcomes) {
    const best = o.vehicles.detections[0];
    print(
      `  ${o.sample.id.padEnd(28)}${(best ? `${best.label} ${best.score.toFixed(2)}` : 'none').padEnd(10)}` +
        `${(o.blind.value.plate.read ?? '-').padEnd(14)}${(o.blind.value.vin.read ?? '-').padEnd(20)}` +
        `${o.told.value.flags.join(', ') || '-'}`,
    );
  }
  print();
}

function printPlates(outcomes: Outcome[]) {
  for (const [title, levels, of, label] of [
    [
      'Plates by size (plate width / image width)',
      levelsOf(outcomes),
      (p: Placement) => p.widthFraction,
      widthLabel,
    ],
    ['Plates by blur (Gaussian sigma, preview pixels)', BLURS, (p: Placement) => p.blur, blurLabel],
    ['Plates by angle', ANGLES, (p: Placement) => p.angle, angleLabel],
  ] as const) {
    print(title);
    print(HEADER);
    rowsBy(outcomes, 'plate', levels, of, label);
    print();
  }
}

function printVins(title: string, outcomes: Outcome[]) {
  print(title);
  print(HEADER);
  rowsBy(outcomes, 'vin', levelsOf(outcomes), (p) => p.widthFraction, widthLabel);
  rowsBy(outcomes, 'vin', ANGLES, (p) => p.angle, angleLabel);
  rowsBy(outcomes, 'vin', BLURS, (p) => p.blur, blurLabel);
  print(row('all', outcomes, 'vin'));
  print();
}

function printTotals(outcomes: Outcome[]) {
  const total = (field: Field, test: (o: Outcome, f: Field) => boolean) => {
    const showing = outcomes.filter((o) => shows(o, field));
    return rateOf(showing, (o) => test(o, field));
  };
  const falsePlates = count(outcomes, (o) => falseReading(o, 'plate'));
  const falseVins = count(outcomes, (o) => falseReading(o, 'vin'));
  const flags = outcomes.flatMap((o) => o.told.value.flags);
  const readMs = outcomes.flatMap((o) => [o.blind.ms, o.told.ms]);
  print('Totals');
  print(`  plate read rate: ${total('plate', readRight)}   (a) no inputMetaData`);
  print(`  VIN read rate: ${total('vin', readRight)}   (a)`);
  print(`  plate matched: ${total('plate', matched)}   (b) plate and VIN given`);
  print(`  VIN matched: ${total('vin', matched)}   (b)`);
  print(`  false readings (a): ${falsePlates + falseVins} (plates ${falsePlates}, VINs ${falseVins})`);
  print(
    `  mismatch flags (b, all false alarms): ${flags.length} ` +
      `(plate ${count(flags, (f) => f === 'plate_mismatch')}, VIN ${count(flags, (f) => f === 'vin_mismatch')})`,
  );
  print(
    `  readText: median ${ms(median(readMs))}, p95 ${ms(percentile(readMs, 95))} (${readMs.length} calls); ` +
      `vehicle detect: median ${ms(median(outcomes.map((o) => o.detectMs)))}; ` +
      `prepareImage: median ${ms(median(outcomes.map((o) => o.prepareMs)))}`,
  );
  print();
}

const CATEGORIES: readonly Category[] = ['real', 'plate', 'vin-close', 'vin-small'];

/** Category, then width, angle and blur: neighbouring lines differ in one setting. */
function bySetting(a: Outcome, b: Outcome): number {
  const key = (o: Outcome) => {
    const p = o.sample.placement;
    return [CATEGORIES.indexOf(o.sample.category), p?.widthFraction ?? 0, p?.angle ?? 0, p?.blur ?? 0];
  };
  const [ka, kb] = [key(a), key(b)];
  return ka.map((value, i) => value - kb[i]!).find((d) => d !== 0) ?? 0;
}

/** Why a sample counts against the analyzer, or [] when it does not. */
function failures(o: Outcome): string[] {
  const why: string[] = [];
  for (const field of ['plate', 'vin'] as const) {
    const name = field === 'plate' ? 'plate' : 'VIN';
    if (shows(o, field) && !readRight(o, field))
      why.push(o.blind.value[field].read === null ? `${name} not read` : `${name} misread`);
    else if (falseReading(o, field)) why.push(`false ${name}`);
    if (shows(o, field) && !matched(o, field)) why.push(`${name} not matched (b)`);
  }
  why.push(...o.told.value.flags.map((flag) => `${flag} (b)`));
  return why;
}

function printFailures(outcomes: Outcome[]) {
  const failed = outcomes.filter((o) => failures(o).length > 0).sort(bySetting);
  print(`Failed samples: ${failed.length} of ${outcomes.length} (truth; read (a); read (b); why)`);
  for (const o of failed) {
    const { truth } = o.sample;
    const shown = truth.plate ?? truth.vin ?? 'nothing';
    const reads = (part: TextPart) => `${part.plate.read ?? '-'} / ${part.vin.read ?? '-'}`;
    print(
      `  ${o.sample.id.padEnd(24)} ${shown.padEnd(18)} ${reads(o.blind.value).padEnd(30)} ` +
        `${reads(o.told.value).padEnd(30)} ${failures(o).join(', ')}  [${o.sample.photo}]`,
    );
  }
  print();
}

// ---------------------------------------------------------------------------------------------------
// The run

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-reading-'));
const loadAtStart = os.loadavg()[0]!;
let failedRuns = 0;

try {
  const samples = readingSet().slice(0, LIMIT);
  log(`rendering ${samples.length} samples into ${scratch}`);
  const rendered = await timed(() =>
    renderSet(samples, scratch, (done) => {
      if (done % 10 === 0) log(`rendered ${done}/${samples.length}`);
    }),
  );
  const files = rendered.value;
  log(`rendered in ${(rendered.ms / 1000).toFixed(1)} s`);

  log(`warm-up (${vehicleAnalyzer.name} model, OCR worker) on ${samples[0]!.id}`);
  const warm = await prepareImage(files[0]!, 'image/jpeg');
  const warmVehicles = await detectVehicles(warm.preview);
  await callReadText(warm, { inputMetaData: {}, vehicles: warmVehicles });

  const outcomes: Outcome[] = [];
  const started = performance.now();
  for (const [i, sample] of samples.entries()) {
    try {
      const outcome = await measure(sample, files[i]!);
      outcomes.push(outcome);
      const why = failures(outcome);
      log(
        `${String(i + 1).padStart(3)}/${samples.length} ${sample.id}: ` +
          `${why.length === 0 ? 'ok' : why.join(', ')} (${ms(outcome.blind.ms)} + ${ms(outcome.told.ms)})`,
      );
    } catch (error) {
      failedRuns++;
      log(`${sample.id}: ERROR ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const wallMs = performance.now() - started;

  const inCategory = (category: Category) => outcomes.filter((o) => o.sample.category === category);
  print(
    `Plate and VIN reading, src/analyzers/text.ts readText (${textAnalyzer.version}, search ${SEARCH}), ${outcomes.length} samples ` +
      `(${inCategory('real').length} real photos, ${inCategory('plate').length} plates, ` +
      `${inCategory('vin-close').length} VIN close-ups, ${inCategory('vin-small').length} small VINs) in ` +
      `${(wallMs / 1000).toFixed(0)} s`,
  );
  print(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
      `load average (1 min) at start ${loadAtStart.toFixed(2)}`,
  );
  print('(a) inputMetaData {}: read right = compact(read) equals the truth; false = a reading not shown');
  print("(b) the vehicle's plate and VIN given: matched = match true; flags are false alarms");
  print('vehicle = detectVehicles found one; readText median over (a) and (b)');
  print();
  printReal(inCategory('real'));
  printPlates(inCategory('plate'));
  printVins('VIN close-up (label 30-60 % of the image width)', inCategory('vin-close'));
  printVins('VIN small, on a vehicle photo (label 10-15 % of the image width)', inCategory('vin-small'));
  printTotals(outcomes);
  printFailures(outcomes);
  if (failedRuns > 0) print(`samples that failed with an error: ${failedRuns} (see the [bench] log)`);
  print(`load average (1 min) at end ${os.loadavg()[0]!.toFixed(2)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await closeTextReader();
  if (KEEP) log(`images kept in ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
if (failedRuns > 0) process.exitCode = 1;
