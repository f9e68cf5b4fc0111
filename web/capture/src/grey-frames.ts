// The small grey pictures the live hints judge (see live-hints.ts), sampled from a camera frame's own
// luma plane: no colour conversion and no scaling of the whole frame, only the few thousand pixels the
// checks look at. Pure functions over bytes, so they are tested without a browser.

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

export interface GreyFrames {
  /** The whole picture, WHOLE_WIDTH wide, `wholeHeight` high (exposure and movement). */
  whole: Uint8Array;
  wholeHeight: number;
  /**
   * CENTRE_WIDTH × CENTRE_HEIGHT pixels of the picture's centre at the scale of the server's preview, so
   * the server's sharpness threshold holds (on the whole picture at 160 px every photo looks sharp).
   */
  centre: Uint8Array;
}

/** A frame's luma (Y) plane as copied out of it: row `r` starts at `offset + r * stride`. */
export interface LumaPlane {
  data: Uint8Array;
  offset: number;
  stride: number;
  width: number;
  height: number;
  /** Y spans 0–255; else the video range 16–235 (what cameras give), stretched here to 0–255. */
  fullRange: boolean;
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

/** Both pictures from a luma plane. */
export function greyFramesOf(plane: LumaPlane): GreyFrames {
  const wholeHeight = wholeHeightOf(plane.width, plane.height);
  return {
    whole: sample(plane, [0, 0, plane.width, plane.height], WHOLE_WIDTH, wholeHeight),
    wholeHeight,
    centre: sample(plane, centreCrop(plane.width, plane.height), CENTRE_WIDTH, CENTRE_HEIGHT),
  };
}

/**
 * `crop` of the plane as `width` × `height` pixels: each the mean of the 2 × 2 plane pixels at the
 * middle of its cell, as a bilinear scaler would draw it. Reads 4 bytes per pixel made, whatever the
 * frame's size.
 */
export function sample(
  plane: LumaPlane,
  crop: readonly [number, number, number, number],
  width: number,
  height: number,
): Uint8Array {
  const [left, top, cropWidth, cropHeight] = crop;
  const out = new Uint8Array(width * height);
  const lastColumn = Math.max(0, plane.width - 2);
  const lastRow = Math.max(0, plane.height - 2);
  const columns = new Int32Array(width);
  for (let x = 0; x < width; x++)
    columns[x] = Math.min(lastColumn, Math.max(0, Math.floor(left + ((x + 0.5) * cropWidth) / width - 0.5)));
  const { data, stride } = plane;
  const stretch = plane.fullRange ? identity : VIDEO_RANGE;
  for (let y = 0; y < height; y++) {
    const row = Math.min(lastRow, Math.max(0, Math.floor(top + ((y + 0.5) * cropHeight) / height - 0.5)));
    const above = plane.offset + row * stride;
    const below = row + 1 < plane.height ? above + stride : above;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const column = columns[x]!;
      const next = column + 1 < plane.width ? column + 1 : column;
      const sum = data[above + column]! + data[above + next]! + data[below + column]! + data[below + next]!;
      out[i] = stretch[(sum + 2) >> 2]!;
    }
  }
  return out;
}

const identity = Uint8Array.from({ length: 256 }, (_, y) => y);
/** Video-range luma (black 16, white 235) to 0–255, as a canvas draws it. */
const VIDEO_RANGE = Uint8Array.from({ length: 256 }, (_, y) =>
  Math.min(255, Math.max(0, Math.round(((y - 16) * 255) / 219))),
);
