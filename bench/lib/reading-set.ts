// The reading set of bench/reading.ts: the real fixture photos, and synthetic licence plates and VIN
// labels (SVG text drawn by librsvg through sharp, DejaVu fonts) composited into the fixture photos that
// show a vehicle. Everything is derived from a fixed seed, so every run measures the same images.
// Generated images are 4000x3000 JPEGs of quality 90, like the 12 MP phone photos the service gets.
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { normalisePlate, vinCheckDigit } from '../../src/analyzers/text.js';
import { PHOTOS } from '../../test/helpers/media.js';

const WIDTH = 4000;
const HEIGHT = 3000;
/** The analyzers see a preview of this long side (src/analyzers/prepare.ts, PREVIEW_MAX_SIDE). */
const PREVIEW_SIDE = 1024;
const JPEG_QUALITY = 90;
const SEED = 0x5eed_2024;

export type Category = 'real' | 'plate' | 'vin-close' | 'vin-small';

export interface Truth {
  /** The plate shown, normalised as text.ts writes it (AB-123-CD); null when none is legible. */
  plate: string | null;
  /** The VIN shown; null when none is. */
  vin: string | null;
}

export interface Placement {
  /** Width of the plate or label (before foreshortening), as a fraction of the image width. */
  widthFraction: number;
  /** Rotation in degrees, clockwise. */
  angle: number;
  /** Gaussian blur sigma of the whole image, in preview pixels (1024 px long side). */
  blur: number;
  /** Its width is scaled by this, its height kept: foreshortened, seen from the side (1: square on). */
  squeeze: number;
  /** Where its centre lies, as fractions of the image. */
  centre: { x: number; y: number };
  /** Plates: the country band and the text as printed ('F|AB-123-CD'); VIN labels: 'white' or 'grey'. */
  style: string;
}

export interface Sample {
  id: string;
  category: Category;
  /** The fixture photo it is made from. */
  photo: string;
  /** What the image legibly shows. */
  truth: Truth;
  /**
   * The inspection's inputMetaData: the vehicle's plate and VIN, whether the photo shows them or not
   * (an inspection's metadata applies to every photo of it).
   */
  identity: { licensePlate: string; vin: string };
  /** How a synthetic plate or label is drawn into the photo; absent for the real photos. */
  placement?: Placement;
}

// ---------------------------------------------------------------------------------------------------
// Determinism: one xorshift32 stream, drawn from in a fixed order.

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}
type Rng = () => number;
const pickOne = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
/** A seeded Fisher-Yates shuffle (a copy). */
function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}
const draw = (rng: Rng, alphabet: string, length: number): string =>
  Array.from({ length }, () => pickOne(rng, alphabet.split(''))).join('');

// I, O, Q and U are left out: most EU registrations avoid them, as they are read for 1, 0 and V.
const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTVWXYZ';
const DIGITS = '0123456789';

interface PlateFormat {
  /** Country letters of the blue EU band. */
  country: string;
  yellow: boolean;
  make: (rng: Rng) => string;
}

/** What plates look like in a few EU countries, as printed (separators included). */
const PLATE_FORMATS: readonly PlateFormat[] = [
  {
    country: 'F',
    yellow: false,
    make: (r) => `${draw(r, PLATE_LETTERS, 2)}-${draw(r, DIGITS, 3)}-${draw(r, PLATE_LETTERS, 2)}`,
  },
  {
    country: 'I',
    yellow: false,
    make: (r) => `${draw(r, PLATE_LETTERS, 2)} ${draw(r, DIGITS, 3)} ${draw(r, PLATE_LETTERS, 2)}`,
  },
  {
    country: 'D',
    yellow: false,
    make: (r) =>
      `${draw(r, PLATE_LETTERS, 1 + Math.floor(r() * 2))}-${draw(r, PLATE_LETTERS, 2)} ${draw(r, DIGITS, 4)}`,
  },
  { country: 'E', yellow: false, make: (r) => `${draw(r, DIGITS, 4)}-${draw(r, PLATE_LETTERS, 3)}` },
  {
    country: 'NL',
    yellow: true,
    make: (r) => `${draw(r, DIGITS, 2)}-${draw(r, PLATE_LETTERS, 3)}-${draw(r, DIGITS, 1)}`,
  },
];

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const VIN_YEARS = 'ABCDEFGHJKLMNPRSTVWXY123456789';
const WMIS = ['1HG', '2T1', '3VW', 'WVW', 'JHM', '5YJ', 'KMH', 'VF1', 'WBA', 'ZFA', 'SAL', 'YV1'];

/** A 17-character VIN whose position 9 is the North American check digit of the rest. */
function makeVin(rng: Rng): string {
  const draft = `${pickOne(rng, WMIS)}${draw(rng, VIN_ALPHABET, 5)}0${draw(rng, VIN_YEARS, 1)}${draw(rng, VIN_ALPHABET, 1)}${draw(rng, DIGITS, 6)}`;
  // Position 9 weighs 0 in the sum, so the placeholder does not change the digit computed.
  const check = vinCheckDigit(draft);
  if (check === null) throw new Error(`not a VIN: ${draft}`);
  return `${draft.slice(0, 8)}${check}${draft.slice(9)}`;
}

// ---------------------------------------------------------------------------------------------------
// The photos: where a plate or a VIN label would be on each vehicle, as fractions of the 4000x3000
// frame (after the cover resize). home.jpg shows no vehicle and stays a real-photo control only.

interface VehiclePhoto {
  file: string;
  plate: { x: number; y: number };
  vin: { x: number; y: number };
  /** Part of the photo (fractions of the original) scaled up as the background of a VIN close-up. */
  closeUp: { left: number; top: number; width: number; height: number };
}

const VEHICLE_PHOTOS: readonly VehiclePhoto[] = [
  {
    // Rear of a silver car, motion-blurred (its own plate is illegible, the synthetic one covers it).
    file: 'licenseplate_motion.jpg',
    plate: { x: 0.49, y: 0.57 },
    vin: { x: 0.3, y: 0.3 },
    closeUp: { left: 0.2, top: 0.55, width: 0.6, height: 0.35 },
  },
  {
    // Street scene: a silver estate car parked at the lower right.
    file: 'scenetext01.jpg',
    plate: { x: 0.69, y: 0.86 },
    vin: { x: 0.66, y: 0.76 },
    closeUp: { left: 0.52, top: 0.74, width: 0.3, height: 0.16 },
  },
  {
    // Synthetic drawing of a red car, side view.
    file: 'exif.jpg',
    plate: { x: 0.5, y: 0.56 },
    vin: { x: 0.5, y: 0.4 },
    closeUp: { left: 0.3, top: 0.42, width: 0.4, height: 0.18 },
  },
];

/** What the real photos legibly show: none shows a plate or VIN one could read. */
const REAL_PHOTOS: readonly { file: string; truth: Truth }[] = [
  { file: 'exif.jpg', truth: { plate: null, vin: null } }, // drawn car, "INSPECTION 42" caption
  { file: 'home.jpg', truth: { plate: null, vin: null } }, // building, no vehicle
  { file: 'licenseplate_motion.jpg', truth: { plate: null, vin: null } }, // plate smeared by motion
  { file: 'scenetext01.jpg', truth: { plate: null, vin: null } }, // parking sign, car without plate in view
];

const PLATE_WIDTHS = [0.08, 0.12, 0.18, 0.25];
const VIN_CLOSE_WIDTHS = [0.3, 0.45, 0.6];
const VIN_SMALL_WIDTHS = [0.1, 0.15];
export const ANGLES = [-8, 0, 6];
export const BLURS = [0, 1, 2.5];
/** Half the range of the random shift of a generated label from its anchor, as a fraction of the image. */
const JITTER = 0.02;

const pct = (fraction: number) => `${Math.round(fraction * 100)}`;
const sign = (angle: number) => (angle > 0 ? `+${angle}` : `${angle}`);

/** Every width x angle x blur, each photo used equally often at every level of each factor. */
function grid(widths: readonly number[]) {
  return BLURS.flatMap((blur, b) =>
    ANGLES.flatMap((angle, a) =>
      widths.map((widthFraction, w) => ({
        widthFraction,
        angle,
        blur,
        photo: VEHICLE_PHOTOS[(w + a + b) % 3]!,
      })),
    ),
  );
}

/**
 * The whole set, in a fixed order: each category's grid shuffled (seeded), and the categories
 * interleaved, so that the first N samples (BENCH_READING_LIMIT) mix every category, size, angle
 * and blur.
 */
export function readingSet(): Sample[] {
  const rng = random(SEED);
  const anyPlate = () => normalisePlate(pickOne(rng, PLATE_FORMATS).make(rng));
  const shifted = (anchor: { x: number; y: number }) => ({
    x: anchor.x + (rng() * 2 - 1) * JITTER,
    y: anchor.y + (rng() * 2 - 1) * JITTER,
  });
  // Labels seen from the side look narrower: about half of them are.
  const squeeze = () => (rng() < 0.5 ? 1 : 0.85);

  const real: Sample[] = REAL_PHOTOS.map(({ file, truth }) => ({
    id: `real-${path.parse(file).name}`,
    category: 'real',
    photo: file,
    truth,
    identity: { licensePlate: anyPlate(), vin: makeVin(rng) },
  }));

  const plates: Sample[] = shuffled(rng, grid(PLATE_WIDTHS)).map((cell) => {
    const format = pickOne(rng, PLATE_FORMATS);
    const printed = format.make(rng);
    return {
      id: `plate-w${pct(cell.widthFraction)}-a${sign(cell.angle)}-b${cell.blur}`,
      category: 'plate',
      photo: cell.photo.file,
      truth: { plate: normalisePlate(printed), vin: null },
      identity: { licensePlate: normalisePlate(printed), vin: makeVin(rng) },
      placement: {
        widthFraction: cell.widthFraction,
        angle: cell.angle,
        blur: cell.blur,
        squeeze: squeeze(),
        centre: shifted(cell.photo.plate),
        style: `${format.country}|${printed}`,
      },
    };
  });

  const vins = (category: 'vin-close' | 'vin-small', widths: readonly number[]): Sample[] =>
    shuffled(rng, grid(widths)).map((cell) => {
      const vin = makeVin(rng);
      return {
        id: `${category}-w${pct(cell.widthFraction)}-a${sign(cell.angle)}-b${cell.blur}`,
        category,
        photo: cell.photo.file,
        truth: { plate: null, vin },
        identity: { licensePlate: anyPlate(), vin },
        placement: {
          widthFraction: cell.widthFraction,
          angle: cell.angle,
          blur: cell.blur,
          squeeze: squeeze(),
          centre: category === 'vin-close' ? shifted({ x: 0.5, y: 0.5 }) : shifted(cell.photo.vin),
          style: rng() < 0.5 ? 'white' : 'grey',
        },
      };
    });
  const vinClose = vins('vin-close', VIN_CLOSE_WIDTHS);
  const vinSmall = vins('vin-small', VIN_SMALL_WIDTHS);

  const groups = [real, plates, vinClose, vinSmall];
  const longest = Math.max(...groups.map((group) => group.length));
  return Array.from({ length: longest }, (_, i) => groups.flatMap((group) => group[i] ?? [])).flat();
}

// ---------------------------------------------------------------------------------------------------
// Drawing

const escapeXml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Width in pixels of `text` drawn by librsvg with these SVG text attributes (measured, not guessed). */
async function textWidth(text: string, attributes: string, fontSize: number): Promise<number> {
  const width = Math.ceil(fontSize * text.length);
  const height = Math.ceil(fontSize * 1.5);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<text x="0" y="${fontSize}" font-size="${fontSize}" ${attributes} fill="#000">${escapeXml(text)}</text></svg>`;
  const { info } = await sharp(Buffer.from(svg)).trim().toBuffer({ resolveWithObject: true });
  return info.width;
}

/**
 * An EU plate (520x110 mm) at 2 px/mm: blue band with the country, black border, black text in a
 * narrow bold face about 75 mm high (two thirds of the plate, as the plate typefaces are).
 */
async function plateSvg(country: string, printed: string, yellow: boolean): Promise<Buffer> {
  const [w, h, band] = [1040, 220, 84];
  const font = `font-family="DejaVu Sans Condensed" font-weight="bold"`;
  const fontSize = 200;
  // Fitted between the band and the right edge with a margin, as plate makers narrow long registrations.
  const room = w - band - 6 - 80;
  const natural = await textWidth(printed, font, fontSize);
  const scaleX = Math.min(1, room / natural);
  const stars = Array.from({ length: 12 }, (_, i) => {
    const t = (i / 12) * 2 * Math.PI;
    return `<circle cx="${(band / 2 + 6 + 22 * Math.cos(t)).toFixed(1)}" cy="${(62 + 22 * Math.sin(t)).toFixed(1)}" r="3.5" fill="#ffcc00"/>`;
  }).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<rect x="3" y="3" width="${w - 6}" height="${h - 6}" rx="16" fill="${yellow ? '#f4c20d' : '#f6f6f2'}" stroke="#111" stroke-width="6"/>` +
    `<rect x="6" y="6" width="${band}" height="${h - 12}" rx="10" fill="#0a3d9c"/>${stars}` +
    `<text x="${band / 2 + 6}" y="${h - 30}" font-family="DejaVu Sans" font-weight="bold" font-size="48" fill="#fff" text-anchor="middle">${country}</text>` +
    `<g transform="translate(${band + 6 + (w - band - 6 - natural * scaleX) / 2} ${h / 2 + fontSize * 0.36}) scale(${scaleX.toFixed(4)} 1)">` +
    `<text x="0" y="0" font-size="${fontSize}" ${font} fill="#111">${escapeXml(printed)}</text></g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A VIN sticker: a small caption above the VIN in a monospaced font, on white or light grey. */
async function vinLabelSvg(vin: string, grey: boolean): Promise<Buffer> {
  const mono = `font-family="DejaVu Sans Mono" font-weight="bold"`;
  const fontSize = 100;
  const natural = await textWidth(vin, mono, fontSize);
  const [w, h] = [natural + 90, 250];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="12" fill="${grey ? '#d9d9d6' : '#fbfbf8'}" stroke="#888" stroke-width="4"/>` +
    `<text x="45" y="70" font-family="DejaVu Sans" font-size="38" fill="#222">VEHICLE IDENTIFICATION NUMBER</text>` +
    `<line x1="45" y1="92" x2="${w - 45}" y2="92" stroke="#444" stroke-width="3"/>` +
    `<text x="45" y="200" font-size="${fontSize}" ${mono} fill="#111">${escapeXml(vin)}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * The label drawn at its width in the frame, foreshortened (narrowed, as seen from the side: the
 * height stays) and rotated, transparent around it.
 */
async function placedLabel(sample: Sample, placement: Placement): Promise<Buffer> {
  const drawn =
    sample.category === 'plate'
      ? await plateSvg(...plateStyle(placement.style))
      : await vinLabelSvg(sample.truth.vin ?? '', placement.style === 'grey');
  const meta = await sharp(drawn).metadata();
  const fullWidth = placement.widthFraction * WIDTH;
  const height = Math.round((fullWidth * meta.height) / meta.width);
  const sized = await sharp(drawn)
    .resize(Math.round(fullWidth * placement.squeeze), height, { fit: 'fill' })
    .png()
    .toBuffer();
  if (placement.angle === 0) return sized;
  return sharp(sized)
    .rotate(placement.angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

function plateStyle(style: string): [string, string, boolean] {
  const [country = '', printed = ''] = style.split('|');
  return [country, printed, PLATE_FORMATS.find((f) => f.country === country)?.yellow ?? false];
}

type Backgrounds = Map<string, Buffer>;

/**
 * The photo the label goes on, oriented and scaled (cover) to 4000x3000, as raw RGB; for a close-up,
 * a part of the vehicle scaled up. Kept in `cache`: scaling a photo up costs more than the rest.
 */
async function background(sample: Sample, cache: Backgrounds): Promise<Buffer> {
  const key = `${sample.photo}|${sample.category === 'vin-close' ? 'close' : 'whole'}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const file = path.join(PHOTOS, sample.photo);
  let image = sharp(file).rotate();
  if (sample.category === 'vin-close') {
    const region = VEHICLE_PHOTOS.find((p) => p.file === sample.photo)!.closeUp;
    const { autoOrient } = await sharp(file).metadata();
    const part = await image
      .extract({
        left: Math.round(region.left * autoOrient.width),
        top: Math.round(region.top * autoOrient.height),
        width: Math.round(region.width * autoOrient.width),
        height: Math.round(region.height * autoOrient.height),
      })
      .toBuffer();
    image = sharp(part);
  }
  const scaled = await image
    .resize(WIDTH, HEIGHT, { fit: 'cover', kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer();
  cache.set(key, scaled);
  return scaled;
}

/** Writes the sample's image into `dir` and gives its path. */
async function renderSample(sample: Sample, dir: string, cache: Backgrounds): Promise<string> {
  const file = path.join(dir, `${sample.id}.jpg`);
  const { placement } = sample;
  if (!placement) {
    // A real photo: the fixture's own bytes, as the service gets a photo uploaded.
    await copyFile(path.join(PHOTOS, sample.photo), file);
    return file;
  }
  const label = await placedLabel(sample, placement);
  const { width, height } = await sharp(label).metadata();
  const left = clamp(Math.round(placement.centre.x * WIDTH - width / 2), 0, WIDTH - width);
  const top = clamp(Math.round(placement.centre.y * HEIGHT - height / 2), 0, HEIGHT - height);
  const raw = { width: WIDTH, height: HEIGHT, channels: 3 } as const;
  let composed = await sharp(await background(sample, cache), { raw })
    .composite([{ input: label, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer();
  // The blur is given in preview pixels (what the OCR sees); the full-size photo needs it scaled up.
  if (placement.blur > 0) {
    composed = await sharp(composed, { raw })
      .blur((placement.blur * WIDTH) / PREVIEW_SIDE)
      .raw()
      .toBuffer();
  }
  await sharp(composed, { raw }).jpeg({ quality: JPEG_QUALITY }).toFile(file);
  return file;
}

/** Writes every sample's image into `dir`; gives their paths, in the samples' order. */
export async function renderSet(
  samples: readonly Sample[],
  dir: string,
  onProgress: (done: number) => void = () => undefined,
): Promise<string[]> {
  const cache: Backgrounds = new Map();
  const files: string[] = [];
  for (const sample of samples) {
    files.push(await renderSample(sample, dir, cache));
    onProgress(files.length);
  }
  return files;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
