// Text detection with PP-OCRv4's DB model: the image scaled (never enlarged) so that its long side is
// at most `maxSide`, padded to multiples of 32, normalised as PaddleOCR's NormalizeImage, run, and the
// probability map turned into oriented boxes (./db-postprocess.ts).
import { Tensor } from 'onnxruntime-node';
import { textRegions, type DbOptions } from './db-postprocess.js';
import { mapQuad, rectCorners, topEdgeAngle } from './geometry.js';
import { getDetector } from './models.js';
import { assertRgb, resampleRows } from './sampling.js';
import type { Point, Quad, RgbImage, TextBoxFound } from './types.js';

export interface DetectTextOptions {
  /** The long side the detector sees, in pixels (rounded up to a multiple of 32 by padding). */
  maxSide: number;
  /** Probability above which a pixel is text (DB's thresh). Default 0.3. */
  threshold?: number;
  /** Boxes whose mean probability is below this are dropped (DB's box_thresh). Default 0.6. */
  boxThreshold?: number;
  /** Boxes whose short side is below this many detector pixels are dropped. Default 3. */
  minSize?: number;
  /** How far boxes grow past the shrunk text the model marks (DB's unclip_ratio). Default 1.5. */
  unclipRatio?: number;
}

/** ImageNet's per-channel statistics, as PaddleOCR's det config normalises with. */
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;
/** The padding's colour: mid grey, on 0..1. */
const PAD = 0.5;
const STRIDE = 32;
const MIN_SIDE = 32;
const OUTPUT = 'sigmoid_0.tmp_0';

/** The detector's input: the scaled image in normalised planes, padded with grey. */
export function detectorInput(image: RgbImage, maxSide: number) {
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  const content = {
    width: Math.max(1, Math.round(image.width * scale)),
    height: Math.max(1, Math.round(image.height * scale)),
  };
  const width = Math.ceil(content.width / STRIDE) * STRIDE;
  const height = Math.ceil(content.height / STRIDE) * STRIDE;
  const area = width * height;
  const planes = new Float32Array(3 * area);
  // (v / 255 − mean) / std as v × gain + offset, per channel.
  const gain = STD.map((std) => 1 / (255 * std));
  const offset = MEAN.map((mean, c) => -mean / STD[c]!);
  for (let c = 0; c < 3; c++) planes.fill(PAD * 255 * gain[c]! + offset[c]!, c * area, (c + 1) * area);
  resampleRows(image, scale, content.width, content.height, (y, row) => {
    for (let c = 0; c < 3; c++) {
      const [g, o, start] = [gain[c]!, offset[c]!, c * area + y * width];
      for (let x = 0; x < content.width; x++) planes[start + x] = row[x * 3 + c]! * g + o;
    }
  });
  return { planes, width, height, content, scale };
}

/**
 * The text boxes of the image, sorted top to bottom, then left to right. The oriented box is DB's: the
 * minimum-area rectangle of each region of the binarised map (exact, over its convex hull), grown by the
 * unclip distance, then mapped back to the image's pixels.
 */
export async function detectText(image: RgbImage, options: DetectTextOptions): Promise<TextBoxFound[]> {
  assertRgb(image, 'detectText');
  if (!(options.maxSide >= MIN_SIDE)) throw new RangeError(`detectText: maxSide must be ≥ ${MIN_SIDE}`);
  const db: DbOptions = {
    threshold: options.threshold ?? 0.3,
    boxThreshold: options.boxThreshold ?? 0.6,
    minSize: options.minSize ?? 3,
    unclipRatio: options.unclipRatio ?? 1.5,
  };
  const input = detectorInput(image, options.maxSide);
  const session = await getDetector();
  const outputs = await session.run({
    x: new Tensor('float32', input.planes, [1, 3, input.height, input.width]),
  });
  const output = outputs[OUTPUT];
  try {
    if (!output || !(output.data instanceof Float32Array))
      throw new Error(`OCR detector: no ${OUTPUT} output`);
    const [, , mapHeight, mapWidth] = output.dims;
    if (mapWidth !== input.width || mapHeight !== input.height) {
      throw new Error(
        `OCR detector: a ${output.dims.join('×')} map for a ${input.width}×${input.height} input`,
      );
    }
    const regions = textRegions({ data: output.data, width: mapWidth, height: mapHeight }, input.content, db);
    const found = regions.map(({ rect, score }): TextBoxFound => {
      const quad = mapQuad(rectCorners(rect), ([x, y]): Point => [x / input.scale, y / input.scale]);
      return { box: boundsOf(quad, image), quad, angle: topEdgeAngle(quad), score };
    });
    return readingOrder(found);
  } finally {
    for (const tensor of Object.values(outputs)) tensor.dispose();
  }
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** The quad's axis-aligned bounds as fractions of the image, clamped to it. */
function boundsOf(quad: Quad, { width, height }: RgbImage) {
  const xs = quad.map(([x]) => x);
  const ys = quad.map(([, y]) => y);
  const x = clamp01(Math.min(...xs) / width);
  const y = clamp01(Math.min(...ys) / height);
  return {
    x,
    y,
    width: clamp01(Math.max(...xs) / width) - x,
    height: clamp01(Math.max(...ys) / height) - y,
  };
}

/**
 * Top to bottom, then left to right: boxes sorted by their centre's height; a box whose centre lies
 * within the upper half-height of the first box of the current row joins that row; rows are read left
 * to right. Ties fall back to the exact coordinates, so the order is total.
 */
export function readingOrder(boxes: TextBoxFound[]): TextBoxFound[] {
  const centre = (b: TextBoxFound) => ({ x: b.box.x + b.box.width / 2, y: b.box.y + b.box.height / 2 });
  const byHeight = [...boxes].sort((a, b) => centre(a).y - centre(b).y || centre(a).x - centre(b).x);
  const rows: TextBoxFound[][] = [];
  for (const box of byHeight) {
    const row = rows.at(-1);
    const first = row?.[0];
    if (row && first && centre(box).y - centre(first).y <= first.box.height / 2) row.push(box);
    else rows.push([box]);
  }
  return rows.flatMap((row) => row.sort((a, b) => centre(a).x - centre(b).x || centre(a).y - centre(b).y));
}
