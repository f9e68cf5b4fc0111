// The small grey pictures the live hints judge (see live-hints.ts), and their measures. The pixel loops
// run in WebAssembly (hint-kernels.wat), compiled before the first frame: in JavaScript the first
// frames of a visit ran in V8's interpreter, several times slower than once compiled
// (docs/adr/0020-live-hints-in-webassembly.md). A camera frame's bytes are copied straight into
// the module's memory, and the pictures are sampled from its own luma plane: no colour conversion and
// no scaling of the whole frame, only the few thousand pixels the checks look at.
import {
  EXPOSURE_BRIGHT_LEVEL,
  EXPOSURE_DARK_LEVEL,
  exposureFromCounts,
  varianceOf,
} from '../../../src/domain/photo-quality.js';
import type { QualityPart } from '../../../src/domain/result/image-parts.js';
import kernelsModule from './hint-kernels.wat';

/**
 * The whole picture's width: its height keeps the frame's shape. Exposure and movement are shares and
 * means over the picture, which 80 × 60 pixels tell as well as more.
 */
export const WHOLE_WIDTH = 80;
/** The centre picture's size: sharpness needs the detail. */
export const CENTRE_WIDTH = 160;
export const CENTRE_HEIGHT = 120;
/** The long side of the server's quality preview (images.ts QUALITY_PREVIEW_SIDE). */
const PREVIEW_SIDE = 1024;

/** Where a frame's luma (Y) plane lies in the bytes copied out of it: row `r` at `offset + r * stride`. */
export interface LumaLayout {
  offset: number;
  stride: number;
  width: number;
  height: number;
  /** Y spans 0–255; else the video range 16–235 (what cameras give), stretched here to 0–255. */
  fullRange: boolean;
}

/** What the hints judge a frame by. */
export interface PictureMeasures {
  /** Of the whole picture. */
  exposure: QualityPart['exposure'];
  /** Mean change of grey level (0–255) of the whole picture since the last frame measured; 0 for the first. */
  moved: number;
  /** Standard deviation of the centre's grey levels: how much there is to judge focus by. */
  centreDeviation: number;
  /** Variance of the centre's Laplacian, on the server's scale (BLUR_MIN_VARIANCE). */
  sharpness: number;
}

/** The height of the whole picture for a frame of `width` × `height`. */
export const wholeHeightOf = (width: number, height: number) =>
  Math.max(1, Math.round((WHOLE_WIDTH * height) / width));

/** The part of a `width` × `height` frame the centre picture shows: x, y, width, height. */
export function centreCrop(width: number, height: number): [number, number, number, number] {
  const scale = Math.max(width, height) / PREVIEW_SIDE;
  const cropWidth = Math.min(width, CENTRE_WIDTH * scale);
  const cropHeight = Math.min(height, CENTRE_HEIGHT * scale);
  return [(width - cropWidth) / 2, (height - cropHeight) / 2, cropWidth, cropHeight];
}

/** The module's exports: plain functions over its memory, no `this`. */
interface Kernels {
  memory: WebAssembly.Memory;
  sample: (out: number, width: number, height: number, columns: number, rows: number, lut: number) => void;
  differenceSum: (a: number, b: number, n: number) => number;
  exposureCounts: (p: number, n: number, dark: number, bright: number, out: number) => void;
  moments: (p: number, n: number, out: number) => void;
  laplacianMoments: (p: number, width: number, height: number, out: number) => void;
}

const identity = Uint8Array.from({ length: 256 }, (_, y) => y);
/** Video-range luma (black 16, white 235) to 0–255, as a canvas draws it. */
const VIDEO_RANGE = Uint8Array.from({ length: 256 }, (_, y) =>
  Math.min(255, Math.max(0, Math.round(((y - 16) * 255) / 219))),
);

/** Fixed places in the module's memory; the pictures and the frame follow (see `Places`). */
const FULL_RANGE_LUT = 0;
const VIDEO_RANGE_LUT = 256;
const RESULTS = 512;
const FIRST_FREE = 576;

/** Where one frame shape's pictures, sampling tables and copied frame lie in memory. */
interface Places {
  width: number;
  height: number;
  wholeHeight: number;
  /** Two slots for the whole picture: this frame's and the last one's, for movement. */
  wholes: [number, number];
  centre: number;
  /** The sampling tables of the luma plane's layout they were made for (`tablesFor`). */
  tablesFor: string;
  wholeColumns: number;
  wholeRows: number;
  centreColumns: number;
  centreRows: number;
  frame: number;
}

let compiled: Promise<WebAssembly.Module> | undefined;

/** The grey pictures of the viewfinder, one frame at a time, in a WebAssembly module's memory. */
export class GreyPictures {
  private places: Places | undefined;
  /** Which slot holds the current whole picture; the other holds the last frame's, if `hasPrevious`. */
  private current = 0;
  private hasPrevious = false;

  private constructor(private readonly kernels: Kernels) {
    this.bytes().set(identity, FULL_RANGE_LUT);
    this.bytes().set(VIDEO_RANGE, VIDEO_RANGE_LUT);
  }

  /** A new set of pictures, with its own memory. The kernels are compiled once (a few hundred bytes). */
  static async create(): Promise<GreyPictures> {
    compiled ??= WebAssembly.compile(kernelsModule);
    const instance = await WebAssembly.instantiate(await compiled);
    return new GreyPictures(instance.exports as unknown as Kernels);
  }

  get wholeHeight(): number {
    return this.places?.wholeHeight ?? 0;
  }

  /** Copies of the current pictures (for tests and for looking at them). */
  pictures(): { whole: Uint8Array; centre: Uint8Array } {
    const places = this.placed();
    const whole = places.wholes[this.current]!;
    return {
      whole: this.bytes().slice(whole, whole + WHOLE_WIDTH * places.wholeHeight),
      centre: this.bytes().slice(places.centre, places.centre + CENTRE_WIDTH * CENTRE_HEIGHT),
    };
  }

  /**
   * Room for the bytes of a `width` × `height` frame, `size` long: copy the frame there, then sample it
   * with `sampleLuma`. The view holds until the next call.
   */
  frameBuffer(width: number, height: number, size: number): Uint8Array {
    const places = this.placeFor(width, height);
    const needed = places.frame + size;
    const { memory } = this.kernels;
    if (memory.buffer.byteLength < needed)
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
    return new Uint8Array(memory.buffer, places.frame, size);
  }

  /** Samples both pictures from the luma plane of the frame copied into `frameBuffer`. */
  sampleLuma(layout: LumaLayout): void {
    const places = this.placeFor(layout.width, layout.height);
    this.writeTables(places, layout);
    this.nextSlot();
    const lut = layout.fullRange ? FULL_RANGE_LUT : VIDEO_RANGE_LUT;
    const { sample } = this.kernels;
    sample(
      places.wholes[this.current]!,
      WHOLE_WIDTH,
      places.wholeHeight,
      places.wholeColumns,
      places.wholeRows,
      lut,
    );
    sample(places.centre, CENTRE_WIDTH, CENTRE_HEIGHT, places.centreColumns, places.centreRows, lut);
  }

  /** Takes pictures drawn elsewhere (by a canvas) for a frame of `width` × `height`. */
  setPictures(width: number, height: number, whole: Uint8Array, centre: Uint8Array): void {
    const places = this.placeFor(width, height);
    this.nextSlot();
    this.bytes().set(whole, places.wholes[this.current]);
    this.bytes().set(centre, places.centre);
  }

  /** The measures of the current pictures. */
  measure(): PictureMeasures {
    const places = this.placed();
    const { differenceSum, exposureCounts, moments, laplacianMoments } = this.kernels;
    const wholePixels = WHOLE_WIDTH * places.wholeHeight;
    const whole = places.wholes[this.current]!;
    const moved = this.hasPrevious
      ? differenceSum(whole, places.wholes[1 - this.current]!, wholePixels) / wholePixels
      : 0;
    exposureCounts(whole, wholePixels, EXPOSURE_DARK_LEVEL, EXPOSURE_BRIGHT_LEVEL, RESULTS);
    const counts = new Int32Array(this.kernels.memory.buffer, RESULTS, 3);
    const exposure = exposureFromCounts({
      sum: counts[0]!,
      dark: counts[1]!,
      bright: counts[2]!,
      pixels: wholePixels,
    });
    const sums = new Float64Array(this.kernels.memory.buffer, RESULTS, 2);
    const centrePixels = CENTRE_WIDTH * CENTRE_HEIGHT;
    moments(places.centre, centrePixels, RESULTS);
    const centreDeviation = Math.sqrt(varianceOf(sums[0]!, sums[1]!, centrePixels));
    laplacianMoments(places.centre, CENTRE_WIDTH, CENTRE_HEIGHT, RESULTS);
    const sharpness = varianceOf(sums[0]!, sums[1]!, (CENTRE_WIDTH - 2) * (CENTRE_HEIGHT - 2));
    this.hasPrevious = true;
    return { exposure, moved, centreDeviation, sharpness };
  }

  private bytes(): Uint8Array {
    return new Uint8Array(this.kernels.memory.buffer);
  }

  private placed(): Places {
    if (!this.places) throw new Error('no frame has been sampled yet');
    return this.places;
  }

  private nextSlot(): void {
    this.current = 1 - this.current;
  }

  /** The places for frames of `width` × `height`; a new shape forgets the last frame (no movement). */
  private placeFor(width: number, height: number): Places {
    if (this.places?.width === width && this.places.height === height) return this.places;
    const wholeHeight = wholeHeightOf(width, height);
    let next = FIRST_FREE;
    const take = (bytes: number) => {
      const at = next;
      next += Math.ceil(bytes / 8) * 8;
      return at;
    };
    const wholeSize = WHOLE_WIDTH * wholeHeight;
    this.places = {
      width,
      height,
      wholeHeight,
      wholes: [take(wholeSize), take(wholeSize)],
      centre: take(CENTRE_WIDTH * CENTRE_HEIGHT),
      tablesFor: '',
      // Each table holds two i32 per column or row: the two plane pixels a picture pixel averages.
      wholeColumns: take(WHOLE_WIDTH * 8),
      wholeRows: take(wholeHeight * 8),
      centreColumns: take(CENTRE_WIDTH * 8),
      centreRows: take(CENTRE_HEIGHT * 8),
      frame: take(0),
    };
    this.hasPrevious = false;
    return this.places;
  }

  /**
   * Which plane pixels each picture pixel averages: the 2 × 2 at the middle of its cell, as a bilinear
   * scaler would draw it. Made once per layout: a camera's frames all share one.
   */
  private writeTables(places: Places, layout: LumaLayout): void {
    const key = `${layout.offset}/${layout.stride}`;
    if (places.tablesFor === key) return;
    const tables = new Int32Array(this.kernels.memory.buffer);
    const whole: [number, number, number, number] = [0, 0, layout.width, layout.height];
    const centre = centreCrop(layout.width, layout.height);
    const lastColumn = Math.max(0, layout.width - 2);
    const lastRow = Math.max(0, layout.height - 2);
    const columns = (at: number, [left, , width]: readonly number[], count: number) => {
      for (let x = 0; x < count; x++) {
        const column = Math.min(
          lastColumn,
          Math.max(0, Math.floor(left! + ((x + 0.5) * width!) / count - 0.5)),
        );
        tables[at / 4 + 2 * x] = column;
        tables[at / 4 + 2 * x + 1] = column + 1 < layout.width ? column + 1 : column;
      }
    };
    const rows = (at: number, [, top, , height]: readonly number[], count: number) => {
      for (let y = 0; y < count; y++) {
        const row = Math.min(lastRow, Math.max(0, Math.floor(top! + ((y + 0.5) * height!) / count - 0.5)));
        const above = places.frame + layout.offset + row * layout.stride;
        tables[at / 4 + 2 * y] = above;
        tables[at / 4 + 2 * y + 1] = row + 1 < layout.height ? above + layout.stride : above;
      }
    };
    columns(places.wholeColumns, whole, WHOLE_WIDTH);
    rows(places.wholeRows, whole, places.wholeHeight);
    columns(places.centreColumns, centre, CENTRE_WIDTH);
    rows(places.centreRows, centre, CENTRE_HEIGHT);
    places.tablesFor = key;
  }
}
