// The reading set of bench/reading.ts: photos of licence plates of 11 countries, VIN labels on door
// pillars and VIN plates under windshields, digital and analogue odometers, photos without any text,
// and the real fixture photos. Everything is derived from a fixed seed: every sample draws from its own
// stream (reading-random.ts), so every run renders identical images. Generated images are 4000x3000
// JPEGs like a 12 MP phone's (reading-render.ts). A fifth of every group is held out, for checking that
// what a reader was tuned on carries over.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, rename } from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { PHOTOS } from '../../test/helpers/media.js';
import {
  analogueCluster,
  blankCluster,
  digitalCluster,
  withSeparator,
  type Cluster,
  type DigitalOdometer,
} from './cluster-render.js';
import {
  blankPlateDrawing,
  carDrawing,
  roadUnder,
  PLATE_COUNTRIES,
  plateDrawing,
  randomPlate,
  type PlateCountry,
} from './plate-render.js';
import { balanced, between, integer, pickOne, shuffled, streamOf, type Rng } from './reading-random.js';
import {
  cameraOf,
  FRAME_HEIGHT,
  FRAME_WIDTH,
  invert,
  previewScale,
  project,
  type Backdrop,
  type Layer,
  type Light,
  type Scene,
  type Shot,
  type View,
} from './reading-render.js';
import type { Box, Drawing, Glyphs } from './svg-draw.js';
import type { RenderJob } from './render-worker.js';
import { MAKERS, randomVin, stickerScene, windshieldScene, type Maker } from './vin-render.js';

const SEED = 0x5eed_2025;

/**
 * The set is made in batches, each drawn from its own seed, its ids numbered on after the batch before,
 * and a fifth of each group of each batch held out. A batch added later leaves the earlier ones' images
 * and parts as they were, and brings photos no reader was tuned on.
 */
interface Batch {
  seed: number;
  /** The batch's place, from 0: in a group of `count` samples a batch, its ids number from index × count + 1. */
  index: number;
}

/** The id of the `i`th sample (from 0) of a group's batch. */
const sampleId = (group: string, batch: Batch, count: number, i: number) =>
  `${group}-${String(batch.index * count + i + 1).padStart(2, '0')}`;

/** Bumped whenever the drawing or rendering code changes what an image looks like (cached images). */
const RENDER_VERSION = 1;

export const PLATE_GROUPS = PLATE_COUNTRIES.map((country) => `plate-${country}` as const);
export const GROUPS = [
  ...PLATE_GROUPS,
  'vin-sticker',
  'vin-windshield',
  'odometer-digital',
  'odometer-analogue',
  'no-text',
  'real',
] as const;
export type Group = (typeof GROUPS)[number];
export type Part = 'tuning' | 'held-out';

/** Samples of each plate group, and of the other groups (the real photos are as many as the fixtures). */
const PER_COUNTRY = 14;
const SIZES = {
  'vin-sticker': 25,
  'vin-windshield': 20,
  'odometer-digital': 25,
  'odometer-analogue': 25,
  'no-text': 20,
} as const;
/** The share of each group held out. */
const HELD_OUT = 0.2;

export type Unit = 'km' | 'mi';

/** What the image legibly shows, each null when it shows none (or none a person could read). */
export interface Truth {
  /** The plate as an inspection writes it (`AB-123-CD`, `M-AB 1234`); compared without separators. */
  plate: string | null;
  vin: string | null;
  /** The total distance (an odometer's tenths left out) and the unit written beside it, if any. */
  odometer: { value: number; unit: Unit | null } | null;
}

/**
 * The inspection's inputMetaData: the vehicle's plate, VIN and odometer, whether the photo shows them
 * or not (an inspection's metadata applies to every photo of it); on an odometer photo, the value shown.
 */
export interface Identity {
  licensePlate: string;
  vin: string;
  odometer: number;
}

export interface Sample {
  id: string;
  group: Group;
  part: Part;
  truth: Truth;
  identity: Identity;
  /** What the image is and how it was taken, for the failure list. */
  about: string;
  /** A fixture photo as it is, or a scene to render. */
  source: { photo: string } | { scene: Scene };
}

// ---------------------------------------------------------------------------------------------------
// The factors a photo varies in

const VIEWS = ['front', 'left', 'right', 'above', 'above-side'] as const;
type ViewKind = (typeof VIEWS)[number];

/** A camera direction of a kind: square on, from 20–45° to one side, from 20–40° above, or both. */
function viewOf(kind: ViewKind, roll: number, rng: Rng): View {
  const side = rng() < 0.5 ? -1 : 1;
  switch (kind) {
    case 'front':
      return { yaw: between(rng, -8, 8), pitch: between(rng, -4, 8), roll };
    case 'left':
      return { yaw: -between(rng, 20, 45), pitch: between(rng, 0, 10), roll };
    case 'right':
      return { yaw: between(rng, 20, 45), pitch: between(rng, 0, 10), roll };
    case 'above':
      return { yaw: between(rng, -10, 10), pitch: between(rng, 20, 40), roll };
    case 'above-side':
      return { yaw: side * between(rng, 20, 35), pitch: between(rng, 15, 30), roll };
  }
}

export const LIGHTS = ['plain', 'dark', 'bright', 'shadow', 'cast'] as const;
export type LightKind = (typeof LIGHTS)[number] | 'glare';

export function lightOf(kind: LightKind, rng: Rng): Light {
  const none = [1, 1, 1] as const;
  switch (kind) {
    case 'plain':
      return { exposure: between(rng, 0.92, 1.05), cast: none };
    case 'dark':
      return { exposure: between(rng, 0.42, 0.6), cast: none };
    case 'bright':
      return { exposure: between(rng, 1.2, 1.4), cast: none };
    case 'shadow':
      return {
        exposure: between(rng, 0.95, 1.1),
        cast: none,
        shadow: {
          angle: between(rng, 0, 360),
          edge: between(rng, 0.35, 0.65),
          depth: between(rng, 0.45, 0.65),
        },
      };
    case 'cast':
      return {
        exposure: between(rng, 0.85, 1.05),
        cast: pickOne(rng, [
          [1.12, 1.0, 0.78],
          [0.84, 0.95, 1.14],
          [0.92, 1.07, 0.88],
        ] as const),
      };
    case 'glare':
      return {
        exposure: between(rng, 0.8, 1.0),
        cast: none,
        glare: {
          x: between(rng, 0.2, 0.8),
          y: between(rng, 0.2, 0.8),
          radius: between(rng, 0.06, 0.14),
          strength: between(rng, 0.5, 0.9),
        },
      };
  }
}

const BLURS = [0, 0.5, 1, 1.6];
const QUALITIES = [60, 70, 80, 92];
const ROLLS = [-10, -5, 0, 5, 10];

/** The factor levels of one sample of a group: each level about equally often in the group. */
interface Levels {
  view: ViewKind;
  roll: number;
  blur: number;
  light: LightKind;
  quality: number;
}

function levelsOf(
  batch: Batch,
  group: string,
  count: number,
  lights: readonly LightKind[] = LIGHTS,
): Levels[] {
  const of = <T>(factor: string, levels: readonly T[]) =>
    balanced(streamOf(batch.seed, `${group}:${factor}`), levels, count);
  const [view, roll, blur, light, quality] = [
    of('view', VIEWS),
    of('roll', ROLLS),
    of('blur', BLURS),
    of('light', lights),
    of('quality', QUALITIES),
  ];
  return Array.from({ length: count }, (_, i) => ({
    view: view[i]!,
    roll: roll[i]!,
    blur: blur[i]!,
    light: light[i]!,
    quality: quality[i]!,
  }));
}

function shotOf(levels: Levels, size: number, centre: { x: number; y: number }, rng: Rng): Shot {
  const roll = Math.max(-10, Math.min(10, levels.roll + between(rng, -1.5, 1.5)));
  return {
    size,
    centre,
    view: viewOf(levels.view, roll, rng),
    blur: levels.blur,
    light: lightOf(levels.light, rng),
    noise: between(rng, 1.5, 4.5),
    quality: levels.quality,
  };
}

/** The smallest capital height a reading's truth may have in the preview, in pixels. */
const MIN_CAP_PIXELS = 11;
/** The most blur (preview pixels) per preview pixel of capital height that leaves text legible. */
const MAX_BLUR_PER_CAP = 0.1;

/**
 * How large the text is in the preview, in pixels of capital height: its capitals' height, or less when
 * its characters are crowded (foreshortened from the side, or a long plate's narrowed row): a pitch
 * below 2/3 of the capital height reads as small as that.
 */
function legibleSize(
  scene: Omit<Scene, 'shot'>,
  shot: Shot,
  glyphs: Glyphs,
  at: { x: number; y: number },
): number {
  const scale = previewScale(cameraOf(scene.focus, shot), at.x, at.y);
  return Math.min(scale.up * glyphs.capHeight, scale.across * glyphs.pitch * 1.5);
}

/**
 * The shot made legible: a text smaller than MIN_CAP_PIXELS in the preview (legibleSize) is taken
 * closer, and one too blurred for its size is taken sharper, so that a person can read every truth at
 * 1024 px.
 */
function legible(scene: Omit<Scene, 'shot'>, shot: Shot, glyphs: Glyphs, at: { x: number; y: number }): Shot {
  let fitted = shot;
  const size = legibleSize(scene, shot, glyphs, at);
  if (size < MIN_CAP_PIXELS) fitted = { ...fitted, size: (fitted.size * MIN_CAP_PIXELS) / size };
  const maxBlur = Math.floor(MAX_BLUR_PER_CAP * legibleSize(scene, fitted, glyphs, at) * 10) / 10;
  if (fitted.blur > maxBlur) fitted = { ...fitted, blur: maxBlur };
  return fitted;
}

const pct = (fraction: number) => `${Math.round(fraction * 100)} %`;
const signed = (value: number) => `${value > 0 ? '+' : ''}${Math.round(value)}°`;

function aboutShot(shot: Shot, light: LightKind, what: string): string {
  const { yaw, pitch, roll } = shot.view;
  return (
    `${what}, ${pct(shot.size)} wide, yaw ${signed(yaw)} pitch ${signed(pitch)} roll ${signed(roll)}, ` +
    `blur ${shot.blur}, ${light}, q${shot.quality}`
  );
}

const box = (drawing: Drawing): Box => ({ x: 0, y: 0, width: drawing.width, height: drawing.height });
export const drawingLayer = (drawing: Drawing, extend: boolean): Layer => ({
  box: box(drawing),
  extend,
  svg: drawing.body,
  width: drawing.width,
  height: drawing.height,
});
const centreOf = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
/** The road under a drawn car, on the ground. */
export function roadLayer(car: Drawing, rng: Rng): Layer {
  const road = roadUnder(car, rng);
  return { ...drawingLayer(road.drawing, false), box: road.box, ground: road.ground };
}

// ---------------------------------------------------------------------------------------------------
// The vehicles' identities

function identityOf(rng: Rng): Identity {
  const plate = randomPlate(pickOne(rng, PLATE_COUNTRIES), rng);
  return {
    licensePlate: plate.written,
    vin: randomVin(rng, pickOne(rng, MAKERS)),
    odometer: odometerValue(rng, integer(rng, 4, 6)),
  };
}

/** An odometer value of `digits` digits. */
function odometerValue(rng: Rng, digits: number): number {
  return integer(rng, 10 ** (digits - 1), 10 ** digits - 1);
}

// ---------------------------------------------------------------------------------------------------
// Plates

/**
 * The photos a plate is drawn into. licenseplate_motion.jpg shows a car's rear square on: the plate
 * goes on its plate (as a fraction of the photo: centre and width), the photo on the plate's plane.
 * Other plates are on a drawn car (carDrawing) before a street or a building (fixture photos, unwarped).
 */
const MOTION = {
  photo: 'licenseplate_motion.jpg',
  width: 600,
  height: 482,
  plate: { x: 0.491, y: 0.537, width: 0.22 },
};
export const STREETS: readonly Backdrop[] = [
  // All of it: its parking sign as text that is no plate.
  { photo: 'scenetext01.jpg', flip: false },
  { photo: 'scenetext01.jpg', crop: { x: 0.56, y: 0.3, width: 0.44, height: 0.6 }, flip: false },
  { photo: 'scenetext01.jpg', crop: { x: 0.56, y: 0.3, width: 0.44, height: 0.6 }, flip: true },
  { photo: 'home.jpg', crop: { x: 0.2, y: 0.45, width: 0.8, height: 0.55 }, flip: false },
  { photo: 'home.jpg', crop: { x: 0.1, y: 0.35, width: 0.9, height: 0.65 }, flip: true },
];
const PLATE_SIZES = [0.06, 0.09, 0.13, 0.18, 0.25];

/**
 * The motion photo's layer on the plate's plane, its plate under `plate` (plane units), scaled up
 * about the plate (from 1) until it covers the whole frame, so that no edge of it shows.
 */
function motionLayer(plate: Drawing, focusShot: Shot, flip: boolean): Layer {
  const anchorX = flip ? 1 - MOTION.plate.x : MOTION.plate.x;
  const camera = cameraOf(box(plate), focusShot);
  const inverse = invert(camera);
  const corners = [
    [0, 0],
    [FRAME_WIDTH, 0],
    [0, FRAME_HEIGHT],
    [FRAME_WIDTH, FRAME_HEIGHT],
  ].map(([x, y]) => project(inverse, x!, y!));
  let scale = 1;
  let layerBox: Box = { x: 0, y: 0, width: 0, height: 0 };
  for (; scale <= 4; scale += 0.05) {
    const unit = (plate.width / (MOTION.plate.width * MOTION.width)) * scale;
    layerBox = {
      x: plate.width / 2 - anchorX * MOTION.width * unit,
      y: plate.height / 2 - MOTION.plate.y * MOTION.height * unit,
      width: MOTION.width * unit,
      height: MOTION.height * unit,
    };
    const inside = corners.every(
      ([x, y]) =>
        x >= layerBox.x &&
        y >= layerBox.y &&
        x <= layerBox.x + layerBox.width &&
        y <= layerBox.y + layerBox.height,
    );
    if (inside) break;
  }
  return { box: layerBox, extend: true, photo: MOTION.photo, flip };
}

function plateSamples(country: PlateCountry, batch: Batch): Omit<Sample, 'part'>[] {
  const group = `plate-${country}` as const;
  const count = PER_COUNTRY;
  const levels = levelsOf(batch, group, count);
  const sizes = balanced(streamOf(batch.seed, `${group}:size`), PLATE_SIZES, count);
  return levels.map((level, i) => {
    const id = sampleId(group, batch, count, i);
    const rng = streamOf(batch.seed, id);
    const plate = randomPlate(country, rng);
    const drawing = plateDrawing(plate, rng);
    const identity = { ...identityOf(rng), licensePlate: plate.written };
    const flip = rng() < 0.5;
    // Large plates on the motion photo three times in five; the others on a drawn car before a street.
    const onMotion = sizes[i]! >= 0.18 && rng() < 0.6;
    let scene: Omit<Scene, 'shot'>;
    let shot: Shot;
    let what: string;
    if (onMotion) {
      shot = shotOf(level, sizes[i]!, { x: between(rng, 0.42, 0.58), y: between(rng, 0.45, 0.6) }, rng);
      scene = { layers: [], focus: box(drawing) };
      shot = legible(scene, shot, drawing.glyphs!, centreOf(drawing.focus));
      scene = {
        layers: [motionLayer(drawing, shot, flip), drawingLayer(drawing, false)],
        focus: box(drawing),
      };
      what = `${country} plate on ${MOTION.photo}${flip ? ' (mirrored)' : ''}`;
    } else {
      const side = rng() < 0.7 ? 'rear' : 'front';
      const car = carDrawing(drawing, rng, side);
      const backdrop = pickOne(rng, STREETS);
      shot = shotOf(level, sizes[i]!, { x: between(rng, 0.3, 0.7), y: between(rng, 0.45, 0.72) }, rng);
      scene = { backdrop, layers: [roadLayer(car, rng), drawingLayer(car, false)], focus: car.focus };
      shot = legible(scene, shot, drawing.glyphs!, centreOf(car.focus));
      what = `${country} plate on a drawn car's ${side} before ${backdrop.photo}${backdrop.crop ? ' (part)' : ''}${backdrop.flip ? ' (mirrored)' : ''}`;
    }
    return {
      id,
      group,
      truth: { plate: plate.written, vin: null, odometer: null },
      identity,
      about: `${aboutShot(shot, level.light, what)}; printed ${plate.printed}`,
      source: { scene: { ...scene, shot } },
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// VINs

/** A maker: a European one on about one VIN in five, a North American or Asian one otherwise. */
function makerOf(rng: Rng): Maker {
  const european = rng() < 0.2;
  return pickOne(
    rng,
    MAKERS.filter((maker) => maker.european === european),
  );
}

function vinStickerSamples(batch: Batch): Omit<Sample, 'part'>[] {
  const group = 'vin-sticker';
  const count = SIZES[group];
  const levels = levelsOf(batch, group, count);
  const distances = balanced(
    streamOf(batch.seed, `${group}:distance`),
    ['close', 'close', 'mid'] as const,
    count,
  );
  return levels.map((level, i) => {
    const id = sampleId(group, batch, count, i);
    const rng = streamOf(batch.seed, id);
    const maker = makerOf(rng);
    const vin = randomVin(rng, maker);
    const sticker = stickerScene(vin, maker, rng);
    const size = distances[i] === 'close' ? between(rng, 0.35, 0.6) : between(rng, 0.18, 0.26);
    const scene = { layers: [drawingLayer(sticker.drawing, true)], focus: sticker.label };
    const shot = legible(
      scene,
      shotOf(level, size, { x: between(rng, 0.35, 0.65), y: between(rng, 0.35, 0.65) }, rng),
      sticker.glyphs,
      centreOf(sticker.label),
    );
    return {
      id,
      group,
      truth: { plate: null, vin, odometer: null },
      identity: { ...identityOf(rng), vin },
      about: aboutShot(shot, level.light, `${distances[i]} ${maker.name} label`),
      source: { scene: { ...scene, shot } },
    };
  });
}

function vinWindshieldSamples(batch: Batch): Omit<Sample, 'part'>[] {
  const group = 'vin-windshield';
  const count = SIZES[group];
  const levels = levelsOf(batch, group, count, [...LIGHTS, 'glare']);
  return levels.map((level, i) => {
    const id = sampleId(group, batch, count, i);
    const rng = streamOf(batch.seed, id);
    const vin = randomVin(rng, makerOf(rng));
    const plate = windshieldScene(vin, rng);
    const scene = { layers: [drawingLayer(plate.drawing, true)], focus: plate.label };
    let shot = shotOf(
      level,
      between(rng, 0.38, 0.7),
      { x: between(rng, 0.38, 0.62), y: between(rng, 0.4, 0.6) },
      rng,
    );
    // Seen through the windshield: looking down at it, the glass tinted and reflecting.
    const tint = pickOne(rng, [
      [0.9, 1.0, 0.94],
      [0.9, 0.97, 1.04],
      [0.95, 0.95, 0.95],
    ] as const);
    shot = {
      ...shot,
      view: {
        ...shot.view,
        pitch: between(rng, 30, 55),
        yaw: Math.sign(shot.view.yaw || 1) * between(rng, 0, 30),
      },
      light: {
        ...shot.light,
        cast: [shot.light.cast[0] * tint[0], shot.light.cast[1] * tint[1], shot.light.cast[2] * tint[2]],
        veil: {
          strength: between(rng, 0.04, 0.16),
          angle: between(rng, 20, 70),
          period: between(rng, 0.4, 0.9),
        },
      },
    };
    shot = legible(scene, shot, plate.glyphs, centreOf(plate.label));
    return {
      id,
      group,
      truth: { plate: null, vin, odometer: null },
      identity: { ...identityOf(rng), vin },
      about: aboutShot(shot, level.light, 'windshield VIN plate'),
      source: { scene: { ...scene, shot } },
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Odometers

/** A view of a cluster from the driver's seat: a little from above and to a side, never square on. */
function dashboardView(kind: ViewKind, roll: number, rng: Rng): View {
  const view = viewOf(kind, roll * 0.8, rng);
  return { ...view, pitch: Math.max(view.pitch, between(rng, 4, 12)) };
}

/**
 * A cluster photographed from the driver's seat: `size` the range of its width in the frame, `centre`
 * the range of where its centre falls (both ways), taken closer where its text would not be legible.
 */
function clusterShot(
  level: Levels,
  cluster: Cluster,
  rng: Rng,
  size: readonly [number, number],
  centre: readonly [number, number],
): { scene: Omit<Scene, 'shot'>; shot: Shot } {
  const scene = { layers: [drawingLayer(cluster.drawing, true)], focus: cluster.drawing.focus };
  const framed = shotOf(
    level,
    between(rng, ...size),
    { x: between(rng, ...centre), y: between(rng, ...centre) },
    rng,
  );
  const seated = { ...framed, view: dashboardView(level.view, framed.view.roll, rng) };
  return { scene, shot: legible(scene, seated, cluster.glyphs, cluster.textAt) };
}

/** The odometer's line as the display shows it (seven segments have no separator). */
function shownText(odometer: DigitalOdometer): string {
  const value =
    odometer.style === 'segment' ? String(odometer.value) : withSeparator(odometer.value, odometer.separator);
  return [odometer.label ? 'ODO' : '', value, odometer.unitLabel ?? '(no unit)'].filter(Boolean).join(' ');
}

function digitalSamples(batch: Batch): Omit<Sample, 'part'>[] {
  const group = 'odometer-digital';
  const count = SIZES[group];
  const levels = levelsOf(batch, group, count, [...LIGHTS, 'glare']);
  const styles = balanced(streamOf(batch.seed, `${group}:style`), ['segment', 'dot', 'tft'] as const, count);
  const digits = balanced(streamOf(batch.seed, `${group}:digits`), [3, 4, 5, 5, 6, 6], count);
  return levels.map((level, i) => {
    const id = sampleId(group, batch, count, i);
    const rng = streamOf(batch.seed, id);
    const unit: Unit = rng() < 0.7 ? 'km' : 'mi';
    // The unit beside the total on most displays ('mi' or 'miles' for miles), none on some.
    const unitLabel = rng() < 0.8 ? (unit === 'km' ? 'km' : pickOne(rng, ['mi', 'miles'])) : null;
    const odometer = {
      value: odometerValue(rng, digits[i]!),
      unit,
      unitLabel,
      separator: pickOne(rng, ['', '', ',', ' '] as const),
      label: rng() < 0.5,
      style: styles[i]!,
    };
    const cluster = digitalCluster(odometer, rng);
    // The odometer's row is in the display's lower half or its top: judged at the display's centre.
    const { scene, shot } = clusterShot(level, cluster, rng, [0.78, 1.02], [0.45, 0.55]);
    const shown = odometer.unitLabel === null ? null : unit;
    return {
      id,
      group,
      truth: { plate: null, vin: null, odometer: { value: odometer.value, unit: shown } },
      identity: { ...identityOf(rng), odometer: odometer.value },
      about: aboutShot(shot, level.light, `${odometer.style} display showing ${shownText(odometer)}`),
      source: { scene: { ...scene, shot } },
    };
  });
}

function analogueSamples(batch: Batch): Omit<Sample, 'part'>[] {
  const group = 'odometer-analogue';
  const count = SIZES[group];
  const levels = levelsOf(batch, group, count, [...LIGHTS, 'glare']);
  const tenths = balanced(streamOf(batch.seed, `${group}:tenths`), [true, false], count);
  return levels.map((level, i) => {
    const id = sampleId(group, batch, count, i);
    const rng = streamOf(batch.seed, id);
    const unit: Unit = rng() < 0.65 ? 'km' : 'mi';
    const drums = pickOne(rng, [5, 6, 6, 7] as const);
    // With a tenths drum, the total is what the other drums show: its value has at most that many digits.
    const integerDrums = drums - (tenths[i] ? 1 : 0);
    const value = odometerValue(rng, integer(rng, Math.min(3, integerDrums), integerDrums));
    const unitLabel = rng() < 0.6 ? (unit === 'km' ? 'km' : 'MILES') : null;
    const odometer = {
      value,
      unit,
      drums,
      tenths: tenths[i]!,
      unitLabel,
      trip: pickOne(rng, ['beside', 'below'] as const),
    };
    const cluster = analogueCluster(odometer, rng);
    const { scene, shot } = clusterShot(level, cluster, rng, [0.5, 0.8], [0.42, 0.58]);
    return {
      id,
      group,
      // The truth is the total without its tenths drum: the drums before it, leading zeros dropped.
      truth: { plate: null, vin: null, odometer: { value, unit: unitLabel === null ? null : unit } },
      identity: { ...identityOf(rng), odometer: value },
      about: aboutShot(
        shot,
        level.light,
        `${drums} drums${tenths[i] ? ' (last: tenths)' : ''} showing ${value} ${unitLabel ?? '(no unit)'}`,
      ),
      source: { scene: { ...scene, shot } },
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Photos without text, and the real photos

const NO_TEXT = [
  'motion-blank',
  'motion-blank',
  'motion-blank',
  'motion-blank',
  'car-blank',
  'car-blank',
  'car-blank',
  'car-blank',
  'street',
  'street',
  'street',
  'drawn-car',
  'drawn-car',
  'home',
  'home',
  'home',
  'home',
  'dashboard',
  'dashboard',
  'dashboard',
] as const;
/** Backdrops without legible text: scenetext01.jpg only right of its sign and newspaper box. */
const TEXTLESS: readonly Backdrop[] = [
  { photo: 'scenetext01.jpg', crop: { x: 0.56, y: 0.3, width: 0.44, height: 0.6 }, flip: false },
  { photo: 'scenetext01.jpg', crop: { x: 0.56, y: 0.3, width: 0.44, height: 0.6 }, flip: true },
  { photo: 'home.jpg', crop: { x: 0.2, y: 0.45, width: 0.8, height: 0.55 }, flip: false },
  { photo: 'home.jpg', crop: { x: 0.1, y: 0.35, width: 0.9, height: 0.65 }, flip: true },
];

function noTextSamples(batch: Batch): Omit<Sample, 'part'>[] {
  const group = 'no-text';
  const levels = levelsOf(batch, group, NO_TEXT.length);
  return NO_TEXT.map((kind, i) => {
    const id = sampleId(group, batch, NO_TEXT.length, i);
    const rng = streamOf(batch.seed, id);
    const level = levels[i]!;
    const flip = rng() < 0.5;
    let scene: Omit<Scene, 'shot'>;
    let shot = shotOf(
      level,
      between(rng, 0.12, 0.25),
      { x: between(rng, 0.4, 0.6), y: between(rng, 0.45, 0.6) },
      rng,
    );
    let what: string;
    switch (kind) {
      case 'motion-blank': {
        // As tall as the smeared plate of the photo, so that it covers all of it.
        const blank = blankPlateDrawing(540, 330);
        shot = { ...shot, size: between(rng, 0.18, 0.26) };
        scene = { layers: [motionLayer(blank, shot, flip), drawingLayer(blank, false)], focus: box(blank) };
        what = `${MOTION.photo}, its plate covered by a blank`;
        break;
      }
      case 'car-blank': {
        const plated = rng() < 0.75;
        const car = carDrawing(plated ? blankPlateDrawing() : null, rng, rng() < 0.6 ? 'rear' : 'front');
        const backdrop = pickOne(rng, TEXTLESS);
        scene = { backdrop, layers: [roadLayer(car, rng), drawingLayer(car, false)], focus: car.focus };
        what = `a drawn car ${plated ? 'with a blank plate' : 'without a plate'} before ${backdrop.photo}`;
        break;
      }
      case 'street':
      case 'drawn-car':
      case 'home': {
        // The photo alone, a part of it or all of it, mirrored or not, without the camera's warp.
        const backdrop: Backdrop =
          kind === 'street'
            ? {
                photo: 'scenetext01.jpg',
                crop: { x: 0.56, y: between(rng, 0.5, 0.56), width: 0.44, height: 0.44 },
                flip,
              }
            : kind === 'drawn-car'
              ? {
                  photo: 'exif.jpg',
                  crop: { x: between(rng, 0.05, 0.15), y: 0.22, width: 0.78, height: 0.78 },
                  flip,
                }
              : {
                  photo: 'home.jpg',
                  crop: { x: between(rng, 0, 0.3), y: between(rng, 0, 0.3), width: 0.7, height: 0.7 },
                  flip,
                };
        scene = { backdrop, layers: [], focus: { x: 0, y: 0, width: 100, height: 100 } };
        shot = { ...shot, view: { yaw: 0, pitch: 0, roll: 0 } };
        what = `${backdrop.photo}, a part${flip ? ', mirrored' : ''}`;
        break;
      }
      case 'dashboard': {
        const cluster = blankCluster(rng);
        scene = { layers: [drawingLayer(cluster, true)], focus: cluster.focus };
        shot = { ...shot, size: between(rng, 0.8, 1), view: dashboardView(level.view, shot.view.roll, rng) };
        what = 'a cluster without figures';
        break;
      }
    }
    return {
      id,
      group,
      truth: { plate: null, vin: null, odometer: null },
      identity: identityOf(rng),
      about: aboutShot(shot, level.light, what),
      source: { scene: { ...scene, shot } },
    };
  });
}

/** What the real photos legibly show: no plate, VIN or odometer one could read. */
const REAL_PHOTOS: readonly { file: string; why: string }[] = [
  { file: 'exif.jpg', why: 'a drawn car, "INSPECTION 42" caption' },
  { file: 'home.jpg', why: 'a building, no vehicle' },
  { file: 'licenseplate_motion.jpg', why: 'a plate smeared by motion' },
  { file: 'scenetext01.jpg', why: 'a parking sign, a car without its plate in view' },
];

function realSamples(): Omit<Sample, 'part'>[] {
  return REAL_PHOTOS.map(({ file, why }) => {
    const id = `real-${path.parse(file).name}`;
    return {
      id,
      group: 'real',
      truth: { plate: null, vin: null, odometer: null },
      identity: identityOf(streamOf(SEED, id)),
      about: `${file} as it is: ${why}`,
      source: { photo: file },
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// The set

/** The ids held out of a group's batch: the first fifth of its ids in a seeded order. */
function heldOut(group: Group, ids: readonly string[], seed: number): Set<string> {
  const order = shuffled(streamOf(seed, `held-out:${group}`), ids);
  return new Set(order.slice(0, Math.round(ids.length * HELD_OUT)));
}

/** Each group's samples of one batch (the real photos are in the first only). */
function batchOf(batch: Batch): Omit<Sample, 'part'>[][] {
  return [
    ...PLATE_COUNTRIES.map((country) => plateSamples(country, batch)),
    vinStickerSamples(batch),
    vinWindshieldSamples(batch),
    digitalSamples(batch),
    analogueSamples(batch),
    noTextSamples(batch),
    ...(batch.index === 0 ? [realSamples()] : []),
  ];
}

/**
 * The set's batches: the first (stops 30–39), and a second, added at stop 40 so that the held-out part
 * holds twice as many photos, half of them never measured before.
 */
export const BATCHES = [1, 2] as const;
export type BatchNumber = (typeof BATCHES)[number];

const batchNumbered = (n: BatchNumber): Batch => ({ seed: SEED + n - 1, index: n - 1 });

/**
 * The whole set (or the batches asked for), in a fixed order: the groups interleaved (one sample of
 * each in turn), so that the first N samples (BENCH_READING_LIMIT) mix every group.
 */
export function readingSet(batches: readonly BatchNumber[] = BATCHES): Sample[] {
  const groups = new Map<Group, Sample[]>();
  for (const n of batches)
    for (const samples of batchOf(batchNumbered(n))) {
      const held = heldOut(
        samples[0]!.group,
        samples.map((s) => s.id),
        batchNumbered(n).seed,
      );
      const group = groups.get(samples[0]!.group) ?? [];
      group.push(...samples.map((s): Sample => ({ ...s, part: held.has(s.id) ? 'held-out' : 'tuning' })));
      groups.set(samples[0]!.group, group);
    }
  const parted = [...groups.values()];
  const longest = Math.max(...parted.map((group) => group.length));
  return Array.from({ length: longest }, (_, i) => parted.flatMap((group) => group[i] ?? [])).flat();
}

// ---------------------------------------------------------------------------------------------------
// Rendering

/** The file name of a sample's image: its id and a digest of what it is made of. */
export function imageName(sample: Pick<Sample, 'id' | 'source'>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify({ version: RENDER_VERSION, source: sample.source }))
    .digest('hex')
    .slice(0, 12);
  return `${sample.id}-${digest}.jpg`;
}

/**
 * Writes every sample's image into `dir` (those already there, by name, are kept); gives their paths,
 * in the samples' order. Two threads render (the warp and the light are JavaScript), two images at a
 * time; the images are written as JPEG whatever their temporary name.
 */
export async function renderSet(
  samples: readonly (Pick<Sample, 'id' | 'source'> & { seed?: string })[],
  dir: string,
  onProgress: (done: number, rendered: number) => void = () => undefined,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = samples.map((sample) => path.join(dir, imageName(sample)));
  const missing = samples.some((sample, i) => 'scene' in sample.source && !fs.existsSync(files[i]!));
  const pool = missing
    ? new Piscina({
        filename: fileURLToPath(new URL('./render-worker.ts', import.meta.url)),
        execArgv: ['--import', 'tsx'],
        minThreads: 2,
        maxThreads: 2,
      })
    : undefined;
  let next = 0;
  let done = 0;
  let rendered = 0;
  const work = async () => {
    while (next < samples.length) {
      const i = next++;
      const [sample, file] = [samples[i]!, files[i]!];
      if (!fs.existsSync(file)) {
        // Written under a temporary name and renamed: an interrupted run leaves no half image.
        const partial = `${file}.partial`;
        if ('photo' in sample.source) await copyFile(path.join(PHOTOS, sample.source.photo), partial);
        else
          await pool!.run({
            scene: sample.source.scene,
            file: partial,
            seed: sample.seed ?? sample.id,
          } satisfies RenderJob);
        await rename(partial, file);
        rendered++;
      }
      onProgress(++done, rendered);
    }
  };
  try {
    await Promise.all([work(), work()]);
  } finally {
    await pool?.destroy();
  }
  return files;
}
