// How well the text analyzer (src/analyzers/text.ts) reads licence plates, VINs and odometers, on a
// fixed reading set (bench/lib/reading-set.ts, drawn by bench/lib/*-render.ts), every image a 4000x3000
// JPEG like a 12 MP phone photo, all derived from a fixed seed (every run renders identical images):
//   plate-FR … plate-AE  28 plates of each of FR, DE, GB, NL, BE, IT, ES, PL, US, IN and AE, drawn as the
//                        country's plates look, on a drawn car on a road before a fixture photo or on the
//                        car of licenseplate_motion.jpg; plate width 6–25 % of the image;
//   vin-sticker          50 maker's labels on a door pillar (VIN, barcode, maker, weights, dates, a tyre
//                        placard), close up (35–60 % of the width) and at mid distance (18–26 %);
//   vin-windshield       40 dark VIN plates with light embossed characters under a tinted, reflecting
//                        windshield, seen from above;
//   odometer-digital     50 instrument clusters: a seven-segment, dot-matrix or TFT display with the total
//                        (3–6 digits, a thousands separator on some, km/mi/miles on most, ODO on some) and
//                        always a trip meter, the time and the outside temperature (a second trip, the
//                        range or the consumption on some), gauges with their numbers around;
//   odometer-analogue    50 speedometers (numbers around the dial) with a drum counter for the total (its
//                        last drum the tenths on some: the truth leaves them out) and a trip counter with
//                        red tenths, km or MILES beside on some;
//   no-text              40 photos without legible text: the fixture car with a blank plate, drawn cars with
//                        blank plates, parts of the fixture photos without text, clusters without figures;
//   real                 the 4 fixture photos as they are (none shows a legible plate, VIN or odometer).
// Every synthetic photo is seen through a projective warp (yaw up to 45°, pitch up to 40° or 55° for
// windshields, roll up to 10°), blurred, lit (dark, bright, a shadow, a colour cast, glare) and JPEG-coded
// (quality 60–92), these factors balanced within each group rather than crossed in a full grid; a text
// too small or too blurred to read at 1024 px is taken closer or sharper. The set is made in two batches
// of the same make, each from its own seed (the second, added at stop 40, numbers its ids on after the
// first's: plate-FR-15 to -28). A fifth of each group of each batch (the first fifth of its ids in a
// seeded order) is held out: figures are given for the tuning and held-out parts.
//
// Every image goes the service's way: prepareImage() (the 1024 px preview), detectVehicles() on the
// preview (timed; the analysis thread runs it beside the text analyzer), then readText() twice:
//   (a) blind, inputMetaData {}: "read right" when the reading equals the truth (plate and VIN through
//       compact(); odometer: the value, and the unit when both give one); any other reading is wrong,
//       a reading of a field the image does not show included;
//   (b) told, the vehicle's licensePlate, vin and odometer as inputMetaData (as an inspection gives them
//       for every photo, shown or not): "matched" when match === true; any flag is a false alarm, as the
//       data given is right.
// A warm-up image (not counted) loads the vehicle model and starts the text reader first.
//
//   npm run bench:reading
//     BENCH_READING_LIMIT=N        the first N samples only (the groups interleaved: a mix of every group)
//     BENCH_READING_GROUPS=a,b     only these groups (plate-FR, …, vin-sticker, odometer-digital, real)
//     BENCH_READING_PART=p         only the tuning or the held-out part
//     BENCH_READING_BATCHES=1      only these batches (1, 2): batch 1 alone is the set before stop 40
//     BENCH_READING_IMAGES=dir     render into dir and reuse the images already there (named by a digest
//                                  of what they show); kept
//     BENCH_READING_KEEP=1         keep the images of a run without BENCH_READING_IMAGES, and say where
// Rendering takes about 0.6 s an image on 2 cores (two render threads); reuse them with
// BENCH_READING_IMAGES when comparing readers. The digest printed last covers every reading of (a) and (b):
// two runs that print the same one read the same.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PreparedImage } from '../src/analyzers/analyzer.js';
import { prepareImage } from '../src/analyzers/prepare.js';
import { closeTextReader, compact, readText, textAnalyzer } from '../src/analyzers/text.js';
import { detectVehicles, vehicleAnalyzer } from '../src/analyzers/vehicle.js';
import type { TextPart } from '../src/domain/result/detection-parts.js';
import { median, percentile } from './lib/stats.js';
import {
  GROUPS,
  BATCHES,
  PLATE_GROUPS,
  readingSet,
  type BatchNumber,
  renderSet,
  type Group,
  type Part,
  type Sample,
} from './lib/reading-set.js';

const LIMIT = positiveInteger('BENCH_READING_LIMIT');
const KEEP = process.env.BENCH_READING_KEEP === '1';
const IMAGES = process.env.BENCH_READING_IMAGES || undefined;
const ONLY_GROUPS = groupsOf(process.env.BENCH_READING_GROUPS);
const ONLY_PART = partOf(process.env.BENCH_READING_PART);
const ONLY_BATCHES = batchesOf(process.env.BENCH_READING_BATCHES);

function positiveInteger(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`${name} must be a positive integer, not '${value}'`);
  return Number(value);
}

function groupsOf(value: string | undefined): Set<Group> | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(GROUPS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_READING_GROUPS: unknown ${unknown.join(', ')} (groups: ${GROUPS.join(', ')})`);
  return new Set(names as Group[]);
}

function batchesOf(value: string | undefined): BatchNumber[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const numbers = value.split(',').map((n) => n.trim());
  const unknown = numbers.filter((n) => !BATCHES.some((batch) => String(batch) === n));
  if (unknown.length > 0)
    throw new Error(`BENCH_READING_BATCHES: unknown ${unknown.join(', ')} (batches: ${BATCHES.join(', ')})`);
  return BATCHES.filter((batch) => numbers.includes(String(batch)));
}

function partOf(value: string | undefined): Part | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'tuning' || value === 'held-out') return value;
  throw new Error(`BENCH_READING_PART must be tuning or held-out, not '${value}'`);
}

// ---------------------------------------------------------------------------------------------------
// One sample, the service's way

interface Timed<T> {
  value: T;
  ms: number;
}

async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

/** readText as the analysis service calls it, under the analyzer's own time limit. */
function callReadText(image: PreparedImage, inputMetaData: Record<string, unknown>): Promise<TextPart> {
  return readText(image, { inputMetaData, signal: AbortSignal.timeout(textAnalyzer.timeoutMs) });
}

interface Outcome {
  sample: Sample;
  prepareMs: number;
  detectMs: number;
  /** (a): no inputMetaData. */
  blind: Timed<TextPart>;
  /** (b): the vehicle's plate, VIN and odometer as inputMetaData. */
  told: Timed<TextPart>;
}

async function measure(sample: Sample, file: string): Promise<Outcome> {
  const prepared = await timed(() => prepareImage(file, 'image/jpeg'));
  const image = prepared.value;
  const detected = await timed(() => detectVehicles(image.preview));
  const blind = await timed(() => callReadText(image, {}));
  const told = await timed(() => callReadText(image, { ...sample.identity }));
  return { sample, prepareMs: prepared.ms, detectMs: detected.ms, blind, told };
}

// ---------------------------------------------------------------------------------------------------
// Scoring

type Field = 'plate' | 'vin' | 'odometer';
const FIELDS: readonly Field[] = ['plate', 'vin', 'odometer'];

/** The field a group's photos show (none for the photos without text and the real ones). */
function fieldOf(group: Group): Field | null {
  if ((PLATE_GROUPS as readonly string[]).includes(group)) return 'plate';
  if (group === 'vin-sticker' || group === 'vin-windshield') return 'vin';
  if (group === 'odometer-digital' || group === 'odometer-analogue') return 'odometer';
  return null;
}

/** What a text part read for a field, or null: the odometer part is absent from older readers. */
function reading(part: TextPart, field: Field): string | null {
  if (field !== 'odometer') return part[field].read;
  const value = part.odometer?.read ?? null;
  return value === null ? null : `${value}${part.odometer?.unit ? ` ${part.odometer.unit}` : ''}`;
}

/** (a) read the text the image shows. */
function readRight(o: Outcome, field: Field): boolean {
  const part = o.blind.value;
  const { truth } = o.sample;
  if (field === 'odometer') {
    const read = part.odometer?.read ?? null;
    const unit = part.odometer?.unit ?? null;
    if (truth.odometer === null || read === null || read !== truth.odometer.value) return false;
    return unit === null || truth.odometer.unit === null || unit === truth.odometer.unit;
  }
  const read = part[field].read;
  const expected = truth[field];
  return read !== null && expected !== null && compact(read) === compact(expected);
}

/** (a) read something for the field that is not what the image shows (or where it shows none). */
const wrongReading = (o: Outcome, field: Field) =>
  reading(o.blind.value, field) !== null && !readRight(o, field);
const wrongReadings = (o: Outcome) => FIELDS.filter((field) => wrongReading(o, field)).length;
const anyReading = (o: Outcome) => FIELDS.some((field) => reading(o.blind.value, field) !== null);
/** (b) confirmed the expected value. */
function matched(o: Outcome, field: Field): boolean {
  const part = o.told.value;
  return field === 'odometer' ? part.odometer?.match === true : part[field].match === true;
}

const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;
const rate = (hits: number, total: number) =>
  `${hits}/${total} (${total === 0 ? '-' : ((hits / total) * 100).toFixed(0)} %)`;
const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(0)} ms`);

// ---------------------------------------------------------------------------------------------------
// Report

const lines: string[] = [];
const print = (line = '') => lines.push(line);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const PARTS: readonly Part[] = ['tuning', 'held-out'];

function printTable(outcomes: Outcome[]) {
  print(
    `${'group'.padEnd(19)}${'part'.padEnd(10)}${'n'.padStart(3)}  ${'read right (a)'.padEnd(16)}` +
      `${'wrong (a)'.padEnd(11)}${'matched (b)'.padEnd(16)}${'flags (b)'.padEnd(11)}readText median`,
  );
  for (const group of GROUPS) {
    const field = fieldOf(group);
    for (const part of PARTS) {
      const rows = outcomes.filter((o) => o.sample.group === group && o.sample.part === part);
      if (rows.length === 0) continue;
      const right = field
        ? rate(
            count(rows, (o) => readRight(o, field)),
            rows.length,
          )
        : '-';
      const confirmed = field
        ? rate(
            count(rows, (o) => matched(o, field)),
            rows.length,
          )
        : '-';
      const wrong = rows.reduce((sum, o) => sum + wrongReadings(o), 0);
      const flags = rows.reduce((sum, o) => sum + o.told.value.flags.length, 0);
      const times = rows.flatMap((o) => [o.blind.ms, o.told.ms]);
      print(
        `${group.padEnd(19)}${part.padEnd(10)}${String(rows.length).padStart(3)}  ${right.padEnd(16)}` +
          `${String(wrong).padEnd(11)}${confirmed.padEnd(16)}${String(flags).padEnd(11)}${ms(median(times))}`,
      );
    }
  }
  print();
}

function printAcceptance(outcomes: Outcome[], part: Part) {
  const rows = outcomes.filter((o) => o.sample.part === part);
  if (rows.length === 0) return;
  const ofField = (field: Field) => rows.filter((o) => fieldOf(o.sample.group) === field);
  const share = (field: Field) => {
    const showing = ofField(field);
    return rate(
      count(showing, (o) => readRight(o, field)),
      showing.length,
    );
  };
  const withWrong = count(rows, (o) => wrongReadings(o) > 0);
  const noText = rows.filter((o) => o.sample.group === 'no-text');
  print(`Acceptance, ${part} part (${rows.length} photos)`);
  print(`  plates read right:        ${share('plate')}`);
  print(`  VINs read right:          ${share('vin')}   (sticker and windshield)`);
  print(`  odometers read right:     ${share('odometer')}   (digital and analogue)`);
  print(
    `  photos with a wrong reading: ${rows.length === 0 ? '-' : ((withWrong / rows.length) * 100).toFixed(1)} per 100 ` +
      `(${withWrong} of ${rows.length})`,
  );
  print(`  readings on no-text photos: ${count(noText, anyReading)} (of ${noText.length} photos)`);
  print();
}

function printTimes(outcomes: Outcome[], loadBefore: number, loadAtStart: number) {
  const readMs = outcomes.flatMap((o) => [o.blind.ms, o.told.ms]);
  print(
    `readText: p50 ${ms(median(readMs))}, p95 ${ms(percentile(readMs, 95))} (${readMs.length} calls); ` +
      `detectVehicles: median ${ms(median(outcomes.map((o) => o.detectMs)))}; ` +
      `prepareImage: median ${ms(median(outcomes.map((o) => o.prepareMs)))}`,
  );
  print(
    `load average (1 min): ${loadBefore.toFixed(2)} before rendering, ${loadAtStart.toFixed(2)} at the first ` +
      `photo, ${os.loadavg()[0]!.toFixed(2)} at the end ` +
      `(${os.cpus().length} cores, ${os.cpus()[0]?.model.trim()}, node ${process.version})`,
  );
  print();
}

function truthText(sample: Sample): string {
  const { plate, vin, odometer } = sample.truth;
  const shown = [
    plate && `plate ${plate}`,
    vin && `VIN ${vin}`,
    odometer && `odometer ${odometer.value}${odometer.unit ? ` ${odometer.unit}` : ''}`,
  ].filter(Boolean);
  return shown.length > 0 ? shown.join(', ') : 'nothing';
}

/** Why a sample counts against the reader, or [] when it does not. */
function failures(o: Outcome): string[] {
  const field = fieldOf(o.sample.group);
  const why: string[] = [];
  if (field && reading(o.blind.value, field) === null) why.push(`${field} not read`);
  for (const f of FIELDS) if (wrongReading(o, f)) why.push(f === field ? `${f} misread` : `wrong ${f}`);
  if (field && !matched(o, field)) why.push('not matched (b)');
  why.push(...o.told.value.flags.map((flag) => `${flag} (b)`));
  return why;
}

function printFailures(outcomes: Outcome[]) {
  const failed = outcomes.filter((o) => failures(o).length > 0);
  print(`Failures: ${failed.length} of ${outcomes.length} (id [part]: truth | read blind | why | the photo)`);
  for (const o of failed) {
    const read = FIELDS.map((field) => reading(o.blind.value, field))
      .map((value, i) => (value === null ? null : `${FIELDS[i]} ${value}`))
      .filter(Boolean);
    print(
      `  ${o.sample.id} [${o.sample.part}]: ${truthText(o.sample)} | ${read.join(', ') || 'nothing'} | ` +
        `${failures(o).join(', ')} | ${o.sample.about}`,
    );
  }
  print();
}

/** SHA-256 of every sample's readings, (a) and (b), in the samples' order. */
function digestOf(outcomes: Outcome[]): string {
  const readings = outcomes.map((o) => ({ id: o.sample.id, blind: o.blind.value, told: o.told.value }));
  return createHash('sha256').update(JSON.stringify(readings)).digest('hex');
}

// ---------------------------------------------------------------------------------------------------
// The run

const scratch = IMAGES ?? fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-reading-'));
/** Before rendering: what else loads the machine (the rendering itself raises the average after). */
const loadBefore = os.loadavg()[0]!;
let failedRuns = 0;

try {
  const samples = readingSet(ONLY_BATCHES)
    .filter((s) => !ONLY_GROUPS || ONLY_GROUPS.has(s.group))
    .filter((s) => !ONLY_PART || s.part === ONLY_PART)
    .slice(0, LIMIT);
  if (samples.length === 0) throw new Error('no sample left by BENCH_READING_GROUPS and BENCH_READING_PART');
  log(`${samples.length} samples; images in ${scratch}`);
  const rendered = await timed(() =>
    renderSet(samples, scratch, (done, made) => {
      if (done % 20 === 0 || done === samples.length)
        log(`images ${done}/${samples.length} (${made} rendered)`);
    }),
  );
  const files = rendered.value;
  log(`images ready in ${(rendered.ms / 1000).toFixed(1)} s`);

  const loadAtStart = os.loadavg()[0]!;
  log(`warm-up (${vehicleAnalyzer.name} model, text reader) on ${samples[0]!.id}`);
  const warm = await prepareImage(files[0]!, 'image/jpeg');
  await detectVehicles(warm.preview);
  await callReadText(warm, {});

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

  print(
    `Plate, VIN and odometer reading: src/analyzers/text.ts readText (${textAnalyzer.version}), ` +
      `${outcomes.length} photos in ${(wallMs / 1000).toFixed(0)} s (images: ${(rendered.ms / 1000).toFixed(0)} s)`,
  );
  print(
    "(a) blind, inputMetaData {}: read right = the group's field read as the truth; wrong = readings, any",
  );
  print('    field, that are not the truth (on a photo without that text too)');
  print(
    "(b) told the vehicle's licensePlate, vin and odometer: matched = match true; flags are false alarms",
  );
  print();
  printTable(outcomes);
  for (const part of ['held-out', 'tuning'] as const) printAcceptance(outcomes, part);
  printTimes(outcomes, loadBefore, loadAtStart);
  printFailures(outcomes);
  if (failedRuns > 0) print(`samples that failed with an error: ${failedRuns} (see the [bench] log)`);
  print(`readings digest (SHA-256 of (a) and (b), in sample order): ${digestOf(outcomes)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await closeTextReader();
  if (IMAGES) log(`images in ${scratch}`);
  else if (KEEP) log(`images kept in ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
if (failedRuns > 0) process.exitCode = 1;
