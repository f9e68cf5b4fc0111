// Abu Dhabi's plates print their code (one or two digits) in white on a red box left of the number,
// under the emirate's name. The text detector often misses that code, small and white on red, or cuts it
// out with the name above it; so beside a number that may be a plate's, a red box is looked for, and the
// largest white in it (the code) is turned dark on light and read together with the number, which
// gives the recogniser the context it reads a lone digit badly without.
import { blobs } from './blobs.js';
import type { FractionBox, Point, Quad, RgbImage } from './ocr/index.js';
import { onRed } from './red.js';
import type { Ink } from './text-lines.js';

/** Where the box is looked for, left of the number, in the number's heights. */
const SEARCH_LEFT = 3;
const SEARCH_ABOVE = 0.8;
const SEARCH_BELOW = 0.6;
/** The box's right edge is at most this far left of the number (its heights): the plate's own gap. */
const MAX_GAP = 1.5;
/**
 * The box is at least this high, and this much of it is red (the code's white left out), in the number's
 * heights; it overlaps the number's height by MIN_OVERLAP of it at least (a plate seen rolled).
 */
const MIN_BOX_HEIGHT = 0.5;
const MIN_BOX_AREA = 0.2;
const MIN_OVERLAP = 0.3;
/** The code is at least this share of the box's height (the name above it is smaller). */
const MIN_CODE_SHARE = 0.25;
/** The ground left around the code in its cut, a share of its height. */
const CODE_MARGIN = 0.4;
/** A second digit of the code is at least this share of the first's height. */
const SECOND_DIGIT_HEIGHT = 0.8;
/** White on the box: the darkest channel at least this light, and the channels this close. */
const WHITE_MIN = 120;
const WHITE_SPREAD = 70;

export interface CodeBox {
  /** The code and the number cut out together, the code dark on light like the number, for the recogniser. */
  crop: RgbImage;
  /** The code and the number in `crop`, along the number's slope: the quad to cut upright. */
  quad: Quad;
  /** Where the code is, as fractions of the image. */
  box: FractionBox;
  /** The whole red box, as fractions of the image. */
  redBox: FractionBox;
  /** The red box's colour (its median), the code's cells' ground. */
  ink: Ink;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const pixel = (image: RgbImage, x: number, y: number): Ink => {
  const at = (y * image.width + x) * 3;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
};

const isWhite = ([r, g, b]: Ink) =>
  Math.min(r, g, b) >= WHITE_MIN && Math.max(r, g, b) - Math.min(r, g, b) <= WHITE_SPREAD;

interface Region {
  bounds: Rect;
  /** Its pixels, as `y * image.width + x`. */
  members: number[];
}

/**
 * The 4-connected regions of pixels passing `test` inside `area`. `area` is a few of the number's heights
 * across, so the work is bounded by the number's size.
 */
function regionsWhere(image: RgbImage, area: Rect, test: (ink: Ink) => boolean): Region[] {
  const width = area.right - area.left;
  const height = area.bottom - area.top;
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      mask[y * width + x] = test(pixel(image, area.left + x, area.top + y)) ? 1 : 0;
  return [...blobs(mask, width, height, 4)].map((blob) => ({
    members: blob.members.map((at) => {
      const x = at % width;
      return (area.top + (at - x) / width) * image.width + area.left + x;
    }),
    bounds: {
      left: area.left + blob.left,
      top: area.top + blob.top,
      right: area.left + blob.right,
      bottom: area.top + blob.bottom,
    },
  }));
}

/**
 * The code's characters in the red `box`: its largest white region not touching the box's edge (the
 * plate's white around it does), with the regions level with it (a second digit). The emirate's name
 * and crest above it are smaller.
 */
function codeIn(image: RgbImage, box: Rect): { rect: Rect; members: Set<number> } | undefined {
  const inside = regionsWhere(image, box, isWhite).filter(
    ({ bounds }) =>
      bounds.left > box.left &&
      bounds.top > box.top &&
      bounds.right < box.right &&
      bounds.bottom < box.bottom,
  );
  const largest = inside.sort((a, b) => b.members.length - a.members.length)[0];
  if (!largest) return undefined;
  const { top, bottom } = largest.bounds;
  // A second digit is as high as the first and level with it; a sliver of the plate's white inside the
  // box's bounds (a plate seen rolled) is lower.
  const level = inside.filter(
    ({ bounds }) =>
      bounds.bottom - bounds.top >= SECOND_DIGIT_HEIGHT * (bottom - top) &&
      Math.min(bounds.bottom, bottom) - Math.max(bounds.top, top) >= 0.5 * (bottom - top),
  );
  return {
    rect: {
      left: Math.min(...level.map(({ bounds }) => bounds.left)),
      top: Math.min(...level.map(({ bounds }) => bounds.top)),
      right: Math.max(...level.map(({ bounds }) => bounds.right)),
      bottom: Math.max(...level.map(({ bounds }) => bounds.bottom)),
    },
    members: new Set(level.flatMap((region) => region.members)),
  };
}

/** The median of each channel over the red pixels of `box`. */
function medianRed(image: RgbImage, box: Rect): Ink {
  const channels: [number[], number[], number[]] = [[], [], []];
  for (let y = box.top; y < box.bottom; y++)
    for (let x = box.left; x < box.right; x++) {
      const ink = pixel(image, x, y);
      if (onRed(ink)) ink.forEach((value, c) => channels[c]!.push(value));
    }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? 0;
  return [median(channels[0]), median(channels[1]), median(channels[2])];
}

/**
 * `rect` of the image as its own image, with the red box made like the rest of the plate: its code dark
 * (each pixel of the code, or next to it, 255 minus its darkest channel) on light (every other pixel of
 * the box the red ground's value so turned, so that no other white shows as a stroke). Outside the box,
 * the image as it is: the number beside the code.
 */
function codeDarkOnLight(image: RgbImage, rect: Rect, box: Rect, code: Set<number>, ground: Ink): RgbImage {
  const width = rect.right - rect.left;
  const height = rect.bottom - rect.top;
  const data = new Uint8Array(width * height * 3);
  const near = (at: number) =>
    code.has(at) ||
    code.has(at - 1) ||
    code.has(at + 1) ||
    code.has(at - image.width) ||
    code.has(at + image.width);
  const light = 255 - Math.min(...ground);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [column, row] = [rect.left + x, rect.top + y];
      const at = (y * width + x) * 3;
      if (column < 0 || row < 0 || column >= image.width || row >= image.height) data.fill(light, at, at + 3);
      else if (column < box.left || column >= box.right || row < box.top || row >= box.bottom)
        data.set(pixel(image, column, row), at);
      else {
        const own = row * image.width + column;
        data.fill(near(own) ? 255 - Math.min(...pixel(image, column, row)) : light, at, at + 3);
      }
    }
  return { data, width, height };
}

/**
 * A number's box slanted more than this (degrees) is taken as level: its upright bounds then tell too
 * little of its characters' height.
 */
const MAX_SLOPE = 30;

/**
 * The height of a line's characters, from the upright bounds (`width` × `height` pixels) of its box
 * turned by `angle` degrees: a slanted line's bounds are higher than its characters.
 */
function textHeight(width: number, height: number, angle: number): number {
  const turn = (Math.abs(angle) * Math.PI) / 180;
  if (turn === 0) return height;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  const own = (height * cos - width * sin) / (cos * cos - sin * sin);
  return Math.min(height, Math.max(own, height / 2));
}

/**
 * The code box left of a number read at `number` (fractions of `image`; the detector's box turned
 * `slope` degrees, positive descending to the right), when there is one: a red region at least
 * MIN_BOX_HEIGHT of the number's characters high, ending at most MAX_GAP of their height left of it,
 * with a code in it; and the cut of the code and the number together along the number's slope, to read.
 */
export function findCodeBox(image: RgbImage, number: FractionBox, slope = 0): CodeBox | undefined {
  const angle = Math.abs(slope) <= MAX_SLOPE ? slope : 0;
  const height = textHeight(number.width * image.width, number.height * image.height, angle);
  const left = number.x * image.width;
  const top = number.y * image.height;
  const bottom = top + number.height * image.height;
  // A slanted number's upright bounds reach left of its first character by up to its slanted side's
  // run, and the code box may be that far into them.
  const slantedSide = height * Math.abs(Math.sin((angle * Math.PI) / 180));
  const area = {
    left: Math.max(0, Math.floor(left - SEARCH_LEFT * height)),
    top: Math.max(0, Math.floor(top - SEARCH_ABOVE * height)),
    right: Math.min(image.width, Math.ceil(left + slantedSide)),
    bottom: Math.min(image.height, Math.ceil(bottom + SEARCH_BELOW * height)),
  };
  if (area.right - area.left < 2 || area.bottom - area.top < 2) return undefined;
  // The nearest red region of a code box's size, level with the number.
  const bounds = regionsWhere(image, area, onRed)
    .filter(
      ({ bounds: box, members }) =>
        members.length >= MIN_BOX_AREA * height * height &&
        box.bottom - box.top >= MIN_BOX_HEIGHT * height &&
        left - box.right <= MAX_GAP * height &&
        Math.min(box.bottom, bottom) - Math.max(box.top, top) >= MIN_OVERLAP * height,
    )
    .map((region) => region.bounds)
    .sort((a, b) => b.right - a.right)[0];
  if (!bounds) return undefined;
  const found = codeIn(image, bounds);
  if (!found) return undefined;
  const { rect: code, members } = found;
  if (code.bottom - code.top < MIN_CODE_SHARE * (bounds.bottom - bounds.top)) return undefined;
  // A margin of ground around the code, as the detector's boxes leave one around text.
  const margin = Math.round(CODE_MARGIN * (code.bottom - code.top));
  const line = alongNumber(number, image, height, angle, code, margin);
  const cut = {
    left: Math.floor(Math.min(...line.map(([x]) => x))),
    top: Math.floor(Math.min(...line.map(([, y]) => y))),
    right: Math.ceil(Math.max(...line.map(([x]) => x))),
    bottom: Math.ceil(Math.max(...line.map(([, y]) => y))),
  };
  const shift = ([x, y]: Point): Point => [x - cut.left, y - cut.top];
  const ink = medianRed(image, bounds);
  return {
    crop: codeDarkOnLight(image, cut, bounds, members, ink),
    quad: [shift(line[0]), shift(line[1]), shift(line[2]), shift(line[3])],
    box: fractionsOf(image, {
      left: code.left - margin,
      top: code.top - margin,
      right: code.right + margin,
      bottom: code.bottom + margin,
    }),
    redBox: fractionsOf(image, bounds),
    ink,
  };
}

/**
 * The corners (clockwise from the top-left, in pixels of `image`) of the code and the number together,
 * along the number's slope: from `margin` left of the code to the number's end, across the number's
 * characters (`height`) and the code with its margin.
 */
function alongNumber(
  number: FractionBox,
  image: RgbImage,
  height: number,
  angle: number,
  code: Rect,
  margin: number,
): Quad {
  const turn = (angle * Math.PI) / 180;
  const along = [Math.cos(turn), Math.sin(turn)] as const;
  const across = [-along[1], along[0]] as const;
  const [width, bounds] = [number.width * image.width, number.height * image.height];
  const centre = [number.x * image.width + width / 2, number.y * image.height + bounds / 2] as const;
  // The number's length along its slope, from its upright bounds' width.
  const length = (width - height * Math.abs(along[1])) / along[0];
  // The code's corners along the slope and across it: the cut takes them in with their margin, as the
  // code may stand lower than the number (Abu Dhabi's, under the emirate's name).
  const corners = [code.left, code.right].flatMap((x) => [code.top, code.bottom].map((y) => [x, y] as const));
  const alongOf = ([x, y]: readonly [number, number]) =>
    (x - centre[0]) * along[0] + (y - centre[1]) * along[1];
  const acrossOf = ([x, y]: readonly [number, number]) =>
    (x - centre[0]) * across[0] + (y - centre[1]) * across[1];
  const start = Math.min(Math.min(...corners.map(alongOf)) - margin, -length / 2);
  const end = length / 2;
  const top = Math.min(Math.min(...corners.map(acrossOf)) - margin, -height / 2);
  const bottom = Math.max(Math.max(...corners.map(acrossOf)) + margin, height / 2);
  const at = (s: number, t: number): Point => [
    centre[0] + s * along[0] + t * across[0],
    centre[1] + s * along[1] + t * across[1],
  ];
  return [at(start, top), at(end, top), at(end, bottom), at(start, bottom)];
}

const fractionsOf = (image: RgbImage, rect: Rect): FractionBox => ({
  x: rect.left / image.width,
  y: rect.top / image.height,
  width: (rect.right - rect.left) / image.width,
  height: (rect.bottom - rect.top) / image.height,
});
