// A text region cut out of the grey preview as OCR wants it: enlarged, levelled and, on request,
// contrast-stretched. Plain synchronous arithmetic on a few thousand pixels (well under a millisecond
// a tile), on purpose: the text analyzer hands its mosaic to the OCR thread before the vehicle
// detector takes this thread's CPU, so the two run at the same time. Asynchronous image calls (sharp)
// would only finish after the detector.
import type { PixelBox } from './text-regions.js';

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface TileOptions {
  /** Enlargement, ≥ 1. */
  scale: number;
  /** Clockwise rotation in degrees that levels the text (skewOf). */
  angle: number;
  /** Stretch the tile's levels so its darkest and lightest 1 % become black and white. */
  stretch: boolean;
}

/** The grey value at a fractional position, by bilinear interpolation; white outside `box`. */
function sample(image: GreyImage, box: PixelBox, x: number, y: number): number {
  if (x < box.x || y < box.y || x > box.x + box.width - 1 || y > box.y + box.height - 1) return 255;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, image.width - 1);
  const y1 = Math.min(y0 + 1, image.height - 1);
  const fx = x - x0;
  const fy = y - y0;
  const { data, width } = image;
  const top = data[y0 * width + x0]! * (1 - fx) + data[y0 * width + x1]! * fx;
  const bottom = data[y1 * width + x0]! * (1 - fx) + data[y1 * width + x1]! * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * The levels that become black and white when stretched: the region's 1st and 99th percentiles
 * (of the region's own pixels, not of the white canvas around a turned tile).
 */
function levelsOf(image: GreyImage, box: PixelBox): { low: number; high: number } {
  const histogram = new Uint32Array(256);
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) histogram[image.data[y * image.width + x]!]!++;
  }
  const cut = Math.floor(box.width * box.height * 0.01);
  let low = 0;
  for (let seen = 0; low < 255 && seen + histogram[low]! <= cut; low++) seen += histogram[low]!;
  let high = 255;
  for (let seen = 0; high > 0 && seen + histogram[high]! <= cut; high--) seen += histogram[high]!;
  return { low, high };
}

/**
 * The region enlarged by `scale` and turned by `angle` on a white canvas just large enough to hold it,
 * and where its top left corner went (`margin`, in tile pixels), to put OCR boxes back.
 */
export function cutTile(
  image: GreyImage,
  region: PixelBox,
  { scale, angle, stretch }: TileOptions,
): GreyImage & { margin: { x: number; y: number } } {
  const scaledWidth = Math.max(1, Math.round(region.width * scale));
  const scaledHeight = Math.max(1, Math.round(region.height * scale));
  const radians = (angle * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const width = Math.ceil(Math.abs(scaledWidth * cos) + Math.abs(scaledHeight * sin));
  const height = Math.ceil(Math.abs(scaledWidth * sin) + Math.abs(scaledHeight * cos));
  const data = new Uint8Array(width * height);
  for (let v = 0; v < height; v++) {
    const dv = v + 0.5 - height / 2;
    for (let u = 0; u < width; u++) {
      const du = u + 0.5 - width / 2;
      // Back through the clockwise turn (y points down), then the enlargement, to the preview.
      const sx = du * cos + dv * sin + scaledWidth / 2;
      const sy = -du * sin + dv * cos + scaledHeight / 2;
      data[v * width + u] = Math.round(
        sample(image, region, region.x + sx / scale - 0.5, region.y + sy / scale - 0.5),
      );
    }
  }
  if (stretch) {
    const { low, high } = levelsOf(image, region);
    if (high > low) {
      const factor = 255 / (high - low);
      for (let i = 0; i < data.length; i++)
        data[i] = Math.min(255, Math.max(0, Math.round((data[i]! - low) * factor)));
    }
  }
  return { data, width, height, margin: { x: (width - scaledWidth) / 2, y: (height - scaledHeight) / 2 } };
}
