// COCO object detection with the CenterNet (MobileNetV3) model that ships inside @vladmandic/human
// (MIT, 4 MB of weights), run by onnxruntime-node: the tfjs graph is converted to ONNX in memory at
// load (./tfjs-to-onnx.ts), and the decoding Human's graph and JavaScript did after the network
// (peaks, top 100, boxes, non-maximum suppression) is done here, the same way, so the detections are
// Human's (docs/adr/0011-vehicle-detector-on-onnxruntime.md).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { convertGraph, readWeights, type TfjsGraphModel } from './tfjs-to-onnx.js';

/** The model's input side: images are resized to SIZE × SIZE. */
const SIZE = 512;
/** Output cells are STRIDE input pixels apart (a 128 × 128 grid). */
const STRIDE = 4;
const GRID = SIZE / STRIDE;
const CLASSES = 80;
/** Candidates the graph keeps (its TopK) before non-maximum suppression. */
const TOP_K = 100;

/** COCO class index → label, for the classes we report (Human's numbering, 0-based). */
export const COCO_LABELS: Readonly<Record<number, string>> = {
  0: 'person',
  2: 'car',
  3: 'motorcycle',
  5: 'bus',
  7: 'truck',
};

export interface DetectedObject {
  classIndex: number;
  /** Truncated to two decimals, as Human reports it. */
  score: number;
  /** Fractions of the image: x, y, width, height (may reach past the edges). */
  box: [number, number, number, number];
}

export interface DetectOptions {
  minScore: number;
  iouThreshold: number;
  maxDetected: number;
}

export interface CenterNet {
  detect(
    image: { data: Uint8Array; width: number; height: number },
    options: DetectOptions,
  ): Promise<DetectedObject[]>;
  weightBytes: number;
  release(): Promise<void>;
}

const requireHere = createRequire(import.meta.url);

/** Human's models folder (its exports map hides it; its default entry sits in dist/ beside it). */
const modelsFolder = () =>
  path.join(path.dirname(path.dirname(requireHere.resolve('@vladmandic/human'))), 'models');

export async function loadCenterNet(): Promise<CenterNet> {
  const folder = modelsFolder();
  const model = JSON.parse(await readFile(path.join(folder, 'centernet.json'), 'utf8')) as TfjsGraphModel;
  const files = await Promise.all(
    model.weightsManifest.flatMap((group) => group.paths).map((file) => readFile(path.join(folder, file))),
  );
  const weights = readWeights(model, files);
  const onnxModel = convertGraph(model, weights, {
    input: { tfName: 'tower_0/images', name: 'images', shape: [1, 3, SIZE, SIZE] },
    outputs: { 'tower_0/keypoints': 'heatmap', 'tower_0/wh': 'sizes' },
  });
  // One thread: the analysis pool runs one image per thread, and a photo's other work runs beside it.
  const session = await InferenceSession.create(onnxModel, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return {
    weightBytes: files.reduce((sum, file) => sum + file.byteLength, 0),
    release: () => session.release(),
    async detect(image, options) {
      const input = new Tensor('float32', resizedPlanes(image), [1, 3, SIZE, SIZE]);
      const outputs = await session.run({ images: input });
      const heatmap = outputs.heatmap!.data as Float32Array;
      const sizes = outputs.sizes!.data as Float32Array;
      for (const output of Object.values(outputs)) output.dispose();
      return suppressed(candidates(heatmap, sizes, options.minScore), options);
    },
  };
}

/**
 * The image resized to SIZE × SIZE as tf.image.resizeBilinear does it (align_corners and
 * half_pixel_centers false: source = destination × scale), in planar float RGB.
 */
function resizedPlanes({ data, width, height }: { data: Uint8Array; width: number; height: number }) {
  const planes = new Float32Array(3 * SIZE * SIZE);
  const scaleY = height / SIZE;
  const scaleX = width / SIZE;
  const x0s = new Int32Array(SIZE);
  const x1s = new Int32Array(SIZE);
  const dxs = new Float32Array(SIZE);
  for (let x = 0; x < SIZE; x++) {
    const source = x * scaleX;
    x0s[x] = Math.floor(source);
    x1s[x] = Math.min(x0s[x]! + 1, width - 1);
    dxs[x] = source - x0s[x]!;
  }
  for (let y = 0; y < SIZE; y++) {
    const source = y * scaleY;
    const y0 = Math.floor(source);
    const y1 = Math.min(y0 + 1, height - 1);
    const dy = source - y0;
    const top = y0 * width * 3;
    const bottom = y1 * width * 3;
    for (let x = 0; x < SIZE; x++) {
      const left = x0s[x]! * 3;
      const right = x1s[x]! * 3;
      const dx = dxs[x]!;
      for (let c = 0; c < 3; c++) {
        const upper = data[top + left + c]! + (data[top + right + c]! - data[top + left + c]!) * dx;
        const lower = data[bottom + left + c]! + (data[bottom + right + c]! - data[bottom + left + c]!) * dx;
        planes[c * SIZE * SIZE + y * SIZE + x] = upper + (lower - upper) * dy;
      }
    }
  }
  return planes;
}

interface Candidate extends DetectedObject {
  /** Corners in input pixels, for the overlap test. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * What the graph's decoding kept: the cells that are the maximum of their 3 × 3 neighbourhood in their
 * class's heatmap, the TOP_K best, each with its box from the size map (left, top, right, bottom
 * distances from the cell's centre). Below `minScore` they would be dropped anyway.
 */
function candidates(heatmap: Float32Array, sizes: Float32Array, minScore: number): Candidate[] {
  const cells = GRID * GRID;
  const peaks: { score: number; classIndex: number; cell: number }[] = [];
  for (let c = 0; c < CLASSES; c++) {
    const plane = c * cells;
    for (let cell = 0; cell < cells; cell++) {
      const score = heatmap[plane + cell]!;
      if (score <= minScore) continue; // tf.image.nonMaxSuppression keeps scores above its threshold
      const y = Math.floor(cell / GRID);
      const x = cell % GRID;
      let peak = true;
      for (let ny = Math.max(0, y - 1); peak && ny <= Math.min(GRID - 1, y + 1); ny++)
        for (let nx = Math.max(0, x - 1); nx <= Math.min(GRID - 1, x + 1); nx++)
          if (heatmap[plane + ny * GRID + nx]! > score) {
            peak = false;
            break;
          }
      if (peak) peaks.push({ score, classIndex: c, cell });
    }
  }
  // TopK's order: by score, then by position in the graph's NHWC layout (cell, then class).
  peaks.sort((p, q) => q.score - p.score || p.cell - q.cell || p.classIndex - q.classIndex);
  return peaks.slice(0, TOP_K).map(({ score, classIndex, cell }) => {
    const cx = (cell % GRID) * STRIDE;
    const cy = Math.floor(cell / GRID) * STRIDE;
    const [left, top, right, bottom] = [0, 1, 2, 3].map((k) => sizes[k * cells + cell]!) as [
      number,
      number,
      number,
      number,
    ];
    const [x1, y1, x2, y2] = [cx - left, cy - top, cx + right, cy + bottom];
    return {
      classIndex,
      score: Math.trunc(100 * score) / 100,
      box: [x1 / SIZE, y1 / SIZE, (x2 - x1) / SIZE, (y2 - y1) / SIZE],
      x1,
      y1,
      x2,
      y2,
    };
  });
}

/** Greedy non-maximum suppression across classes, as tf.image.nonMaxSuppression (Human's choice). */
function suppressed(found: Candidate[], { iouThreshold, maxDetected }: DetectOptions): DetectedObject[] {
  const kept: Candidate[] = [];
  for (const candidate of found) {
    if (kept.length >= maxDetected) break;
    if (kept.some((other) => overlap(other, candidate) >= iouThreshold)) continue;
    kept.push(candidate);
  }
  return kept.map(({ classIndex, score, box }) => ({ classIndex, score, box }));
}

function overlap(p: Candidate, q: Candidate): number {
  const area = (c: Candidate) =>
    (Math.max(c.x1, c.x2) - Math.min(c.x1, c.x2)) * (Math.max(c.y1, c.y2) - Math.min(c.y1, c.y2));
  const w =
    Math.min(Math.max(p.x1, p.x2), Math.max(q.x1, q.x2)) -
    Math.max(Math.min(p.x1, p.x2), Math.min(q.x1, q.x2));
  const h =
    Math.min(Math.max(p.y1, p.y2), Math.max(q.y1, q.y2)) -
    Math.max(Math.min(p.y1, p.y2), Math.min(q.y1, q.y2));
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (area(p) + area(q) - inter);
}
