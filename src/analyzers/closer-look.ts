// A VIN seen steeply (a windshield plate from above and aside) is small and slanted on the preview, and
// the detector cuts it into pieces that do not line up: `KNAZWT` and `7R2778351550` for
// KNAZW7R2778351550, its 7 read twice; or it cuts off a character at an end. Where the lines hold such
// pieces, or a line of 15 or 16 letters and digits, the region around them is read again at twice the
// scale, and what that closer look reads is taken for the VIN only: a VIN's check digit guards it,
// which a plate or an odometer does not have (a closer look read plates and odometers wrong as often
// as right: docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md). Fewer pieces down a steep slant,
// too few for a closer look, are read along their line instead: a band reaching past them, sheared
// level and read as one line (`slantedVinBand`).
import { cropLine, type FractionBox, type RgbImage } from './ocr/index.js';
import type { Reading, ReadLine } from './text-lines.js';

const VIN_LENGTH = 17;
/** The pieces hold this many letters and digits together: a VIN's 17, one or three read twice or missed. */
const PIECES_MIN = 15;
const PIECES_MAX = 20;
/** Each piece is a run of letters and digits this long, without words around it. */
const PIECE = /^[A-Z0-9]{2,16}$/;
/** The region is read again this many times larger, its long side at most ZOOM_MAX_SIDE pixels. */
const ZOOM = 2;
const ZOOM_MAX_SIDE = 1280;
/** The margin around the pieces, as shares of their region's width and height. */
const MARGIN_X = 0.15;
const MARGIN_Y = 0.3;

/** A line's text without the spaces and the stray points or dashes at its ends (`KMHW1VEM97H2.`). */
const bare = (text: string) => text.trim().replace(/^[.,:;'’-]+|[.,:;'’-]+$/g, '');

const centreY = (box: FractionBox) => box.y + box.height / 2;

/**
 * Whether `next` continues `last` along a slanted line: it starts right of `last`'s middle and within
 * twice its height of its end, and their middles lie within twice the taller one's height.
 */
function continues(last: FractionBox, next: FractionBox, aspect: number): boolean {
  const height = Math.max(last.height, next.height);
  const gap = (next.x - (last.x + last.width)) * aspect;
  return (
    next.x > last.x + last.width / 2 &&
    gap < 2 * last.height &&
    Math.abs(centreY(next) - centreY(last)) < 2 * height
  );
}

/**
 * The region (fractions of the image) around two or three lines that look like the pieces of one VIN,
 * the first such run from the left; undefined when there is none. `aspect` is the image's width over
 * its height (boxes are fractions of each).
 */
export function vinPiecesRegion(lines: readonly ReadLine[], aspect: number): FractionBox | undefined {
  const pieces = lines
    .filter((line) => PIECE.test(bare(line.text)))
    .sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y);
  for (const [start, first] of pieces.entries()) {
    // A VIN read whole but for a character or two its box cut off at an end.
    const alone = bare(first.text).length;
    if (alone >= PIECES_MIN && alone < VIN_LENGTH) return region([first.box], aspect);
    const run = [first];
    for (const next of pieces.slice(start + 1)) {
      if (run.length === 3) break;
      if (!continues(run.at(-1)!.box, next.box, aspect)) continue;
      run.push(next);
      const count = run.reduce((sum, line) => sum + bare(line.text).length, 0);
      if (count < PIECES_MIN || count > PIECES_MAX) continue;
      return region(
        run.map((line) => line.box),
        aspect,
      );
    }
  }
  return undefined;
}

/** The region around `boxes`, unless taller than wide. */
function region(boxes: readonly FractionBox[], aspect: number): FractionBox | undefined {
  const found = around(boxes);
  // A region taller than wide would be cut out turned (cropLine's vertical text): no VIN runs so.
  return found.width * aspect > found.height ? found : undefined;
}

function around(boxes: readonly FractionBox[]): FractionBox {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  const [mx, my] = [(right - left) * MARGIN_X, (bottom - top) * MARGIN_Y];
  const x = Math.max(0, left - mx);
  const y = Math.max(0, top - my);
  return { x, y, width: Math.min(1, right + mx) - x, height: Math.min(1, bottom + my) - y };
}

/** `region` of the image, ZOOM times larger (its long side at most ZOOM_MAX_SIDE). */
export function closerLook(image: RgbImage, region: FractionBox): RgbImage {
  const [left, top] = [region.x * image.width, region.y * image.height];
  const [width, height] = [region.width * image.width, region.height * image.height];
  const scale = Math.min(ZOOM, ZOOM_MAX_SIDE / Math.max(width, height));
  return cropLine(
    image,
    [
      [left, top],
      [left + width, top],
      [left + width, top + height],
      [left, top + height],
    ],
    { height: Math.max(1, Math.round(height * scale)), maxWidth: Math.max(1, Math.round(width * scale)) },
  );
}

/** A line read on the closer look at `region`, its box brought back to the whole image's fractions. */
export function fromCloserLook(line: ReadLine, region: FractionBox): ReadLine {
  const { box } = line;
  return {
    ...line,
    box: {
      x: region.x + box.x * region.width,
      y: region.y + box.y * region.height,
      width: box.width * region.width,
      height: box.height * region.height,
    },
    vinOnly: true,
  };
}

/**
 * A band along a slanted line, in the image's pixels: the line `y = y0 + slope * (x - x0)` from `left`
 * to `right`, `half` pixels either side of it.
 */
export interface SlantedBand {
  left: number;
  right: number;
  x0: number;
  y0: number;
  slope: number;
  half: number;
}

/** A VIN's pieces run this steeply at least (rise over run) to be read along their line. */
const SLANT_MIN = 0.15;
/**
 * The pieces hold this many letters and digits together at least: part of a VIN, not a word. A piece
 * alone needs SLANTED_ALONE, and its own slope: the detector's box follows its line.
 */
const SLANTED_MIN = 6;
const SLANTED_ALONE = 3;
/**
 * A piece alone this long is read along its line however level it lies: more letters and digits run
 * together than a plate's, the rest of a VIN the detector missed (`5NPMMR2E1B622` of 5NPMMR2E1B6222034).
 */
const LEVEL_ALONE = 9;
/** A single character the detector boxed alone may be a piece too (`8` at a VIN's end). */
const SLANTED_PIECE = /^[A-Z0-9]{1,16}$/;
/**
 * The band reaches this many characters' pitch past the pieces, and is this many heights high. Seen
 * steeply, the characters further off are further apart than the pieces' own pitch: with 2 to spare
 * the band ended before a VIN's last character (`3VWFGMAF1VT98545`).
 */
const REACH_PAST = 4;
const BAND_HEIGHTS = 2.2;

/** A line that may be a piece of a VIN, in the image's pixels. */
interface Piece {
  box: FractionBox;
  angle: number | undefined;
  count: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A band along the line of two or three pieces of a VIN running down or up a slant, reaching past them
 * as far as the VIN's missing characters may lie: a windshield plate seen steeply from above and aside,
 * whose characters stand upright while their line slants, so that the detector boxes a few of them and
 * misses the rest (`K3`, `88801`, `8` of VF16P2W428K388018; `1DF` alone of 4T1DFPK89EP997635). Read
 * along the band, sheared level, the line is whole. Undefined unless such pieces are there, fewer than a
 * VIN's 17 characters together.
 */
export function slantedVinBand(
  lines: readonly ReadLine[],
  width: number,
  height: number,
): SlantedBand | undefined {
  const pieces = lines
    .filter((line) => SLANTED_PIECE.test(bare(line.text)))
    .map(({ text, box, angle }): Piece => ({
      box,
      angle,
      count: bare(text).length,
      x: box.x * width,
      y: box.y * height,
      w: box.width * width,
      h: box.height * height,
    }))
    .sort((a, b) => a.x - b.x);
  const aspect = width / height;
  for (const [start, first] of pieces.entries()) {
    const run = [first];
    for (const next of pieces.slice(start + 1)) {
      if (run.length === 3) break;
      if (continues(run.at(-1)!.box, next.box, aspect)) run.push(next);
    }
    // The piece alone too, when the run is too short to be laid along (`ZFA` and a `6` after it).
    const band = bandOf(run) ?? (run.length > 1 ? bandOf([first]) : undefined);
    if (band) return band;
  }
  return undefined;
}

/** The band along a run of pieces, if they may be part of a VIN slanting enough (or long enough alone). */
function bandOf(run: readonly Piece[]): SlantedBand | undefined {
  const count = run.reduce((sum, p) => sum + p.count, 0);
  // One piece alone is laid along its own box's slope; two or three along the line through them.
  const { angle } = run[0]!;
  const alone = run.length === 1 && angle !== undefined ? Math.tan((angle * Math.PI) / 180) : undefined;
  if (count >= VIN_LENGTH || count < (run.length === 1 ? SLANTED_ALONE : SLANTED_MIN)) return undefined;
  if (run.length === 1 && alone === undefined) return undefined;
  const band = bandAlong(run, count, alone);
  const slanted = band && Math.abs(band.slope) >= SLANT_MIN;
  return slanted || (band && run.length === 1 && count >= LEVEL_ALONE) ? band : undefined;
}

/**
 * The band along the line through the pieces' middles (or of slope `alone`, for a piece alone), reaching
 * past them by the missing characters.
 */
function bandAlong(
  run: readonly { count: number; x: number; y: number; w: number; h: number }[],
  count: number,
  alone?: number,
): SlantedBand | undefined {
  const middles = run.map((p) => [p.x + p.w / 2, p.y + p.h / 2] as const);
  const [first, last] = [middles[0]!, middles.at(-1)!];
  if (alone === undefined && last[0] - first[0] <= 0) return undefined;
  const slope = alone ?? (last[1] - first[1]) / (last[0] - first[0]);
  // A character's own height: its box's, less what the slant adds across its width. Of three pieces the
  // middle one's: a first character boxed tightly alone (a `3` 10 px high beside 20 px ones) made the
  // band too thin to hold the rest.
  const heights = run.map((p) => p.h - (Math.abs(slope) * p.w * (p.count - 1)) / p.count);
  const charHeight = Math.max(4, [...heights].sort((a, b) => a - b)[Math.floor((heights.length - 1) / 2)]!);
  const pitch = (run.at(-1)!.x + run.at(-1)!.w - run[0]!.x) / count;
  const reach = (VIN_LENGTH - count + REACH_PAST) * pitch;
  return {
    left: run[0]!.x - reach,
    right: run.at(-1)!.x + run.at(-1)!.w + reach,
    x0: first[0],
    y0: first[1],
    slope,
    half: (BAND_HEIGHTS * charHeight) / 2,
  };
}

/** The band cut out of the image and sheared level, ZOOM times larger (at most ZOOM_MAX_SIDE wide). */
export function alongBand(image: RgbImage, band: SlantedBand): RgbImage {
  const left = Math.max(0, band.left);
  const right = Math.min(image.width, band.right);
  const at = (x: number) => band.y0 + band.slope * (x - band.x0);
  const scale = Math.min(ZOOM, ZOOM_MAX_SIDE / Math.max(1, right - left));
  return cropLine(
    image,
    [
      [left, at(left) - band.half],
      [right, at(right) - band.half],
      [right, at(right) + band.half],
      [left, at(left) + band.half],
    ],
    {
      height: Math.max(1, Math.round(2 * band.half * scale)),
      maxWidth: Math.max(1, Math.round((right - left) * scale)),
    },
  );
}

/** Characters read less surely than this at the ends of a band's reading are left out (`endsTrimmed`). */
const END_DOUBT = 0.5;

/** What a rivet before a VIN is read as: round, and never a VIN's first character (ISO 3779's WMI). */
const RIVET = /^[O0Q]$/i;
/**
 * What a rivet after a VIN is read as: a round letter, never in a VIN (its last character may be a 0).
 * Left out only when a VIN's length is left, as it may be the VIN's own last 0 read as an O.
 */
const RIVET_AFTER = /^[OQ]$/i;

/**
 * `reading` without the characters read unsurely at either end, and the spaces then left there: the
 * band reaches past the VIN, over the plate's rivets and edges (`JTDRUFSV9EF968352O`, its last O a
 * rivet read at 0.38). A round character before it goes however surely it was read (`OWVWZZZ5L31F879321`,
 * the rivet read at 0.63): no VIN starts so. So does a round letter after more than a VIN's length
 * (`1FTWWBZS8F6440172O`, the rivet read at 0.65).
 */
export function endsTrimmed(reading: Reading): Reading {
  const { text } = reading;
  const sure = (i: number) => text[i] !== ' ' && (reading.chars?.[i] ?? reading.confidence) >= END_DOUBT;
  let [start, end] = [0, text.length];
  while (start < end && (!sure(start) || RIVET.test(text[start]!))) start++;
  while (end > start && !sure(end - 1)) end--;
  if (end - start > VIN_LENGTH && RIVET_AFTER.test(text[end - 1]!)) end--;
  if (start === 0 && end === text.length) return reading;
  return {
    ...reading,
    text: text.slice(start, end),
    ...(reading.chars && { chars: reading.chars.slice(start, end) }),
    ...(reading.rivals && { rivals: reading.rivals.slice(start, end) }),
    ...(reading.inks && { inks: reading.inks.slice(start, end) }),
    ...(reading.faces && { faces: reading.faces.slice(start, end) }),
    ...(reading.polarity && { polarity: reading.polarity.slice(start, end) }),
  };
}

/** A line read along `band`, its box brought back to the whole image's fractions (around its sheared corners). */
export function fromBand(line: ReadLine, band: SlantedBand, width: number, height: number): ReadLine {
  const left = Math.max(0, band.left);
  const right = Math.min(width, band.right);
  const x = (u: number) => left + u * (right - left);
  const y = (u: number, v: number) => band.y0 + band.slope * (x(u) - band.x0) - band.half + v * 2 * band.half;
  const { box } = line;
  const [u0, u1, v0, v1] = [box.x, box.x + box.width, box.y, box.y + box.height];
  const ys = [y(u0, v0), y(u1, v0), y(u0, v1), y(u1, v1)];
  const [top, bottom] = [Math.max(0, Math.min(...ys)), Math.min(height, Math.max(...ys))];
  return {
    ...line,
    box: {
      x: x(u0) / width,
      y: top / height,
      width: (x(u1) - x(u0)) / width,
      height: (bottom - top) / height,
    },
    vinOnly: true,
  };
}
