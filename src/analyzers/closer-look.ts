// A VIN seen steeply (a windshield plate from above and aside) is small and slanted on the preview, and
// the detector cuts it into pieces that do not line up: `KNAZWT` and `7R2778351550` for
// KNAZW7R2778351550, its 7 read twice; or it cuts off a character at an end. Where the lines hold such
// pieces, or a line of 15 or 16 letters and digits, the region around them is read again at twice the
// scale, and what that closer look reads is taken for the VIN only: a VIN's check digit guards it,
// which a plate or an odometer does not have (a closer look read plates and odometers wrong as often
// as right: docs/adr/0015-pp-ocr-for-plates-vins-and-odometers.md).
import { cropLine, type FractionBox, type RgbImage } from './ocr/index.js';
import type { ReadLine } from './text-lines.js';

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
    .filter((line) => PIECE.test(line.text.trim()))
    .sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y);
  for (const [start, first] of pieces.entries()) {
    // A VIN read whole but for a character or two its box cut off at an end.
    const alone = first.text.trim().length;
    if (alone >= PIECES_MIN && alone < VIN_LENGTH) return region([first.box], aspect);
    const run = [first];
    for (const next of pieces.slice(start + 1)) {
      if (run.length === 3) break;
      if (!continues(run.at(-1)!.box, next.box, aspect)) continue;
      run.push(next);
      const count = run.reduce((sum, line) => sum + line.text.trim().length, 0);
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
