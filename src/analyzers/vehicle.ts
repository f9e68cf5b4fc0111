// Vehicle presence: COCO object detection (CenterNet, 4 MB of weights shipped inside @vladmandic/human)
// run by onnxruntime-node (./centernet.ts). Everything is read from node_modules; nothing is fetched.
import {
  VEHICLE_LABELS,
  VehiclesPart,
  type VehicleDetection,
  type VehicleLabel,
} from '../domain/result/detection-parts.js';
import type { ImageAnalyzer, PreparedImage } from './analyzer.js';
import { COCO_LABELS, loadCenterNet, type CenterNet, type DetectedObject } from './centernet.js';

/**
 * Detections scoring below this are dropped. On the real photos here the blurred rear of a car scores
 * 0.43 and a parked car 0.62, while spurious car boxes on the same photos score 0.20–0.21 and the
 * no-vehicle control has no vehicle-class box at all; 0.3 keeps the first and drops the second.
 */
export const MIN_VEHICLE_SCORE = 0.3;

/** Boxes the detector keeps before the class filter (people, signs… compete for these slots). */
const MAX_DETECTED = 50;
const IOU_THRESHOLD = 0.4;

export interface VehicleModelInfo {
  loadMs: number;
  weightBytes: number;
  backend: string;
}

interface Detector {
  model: CenterNet;
  info: VehicleModelInfo;
}

async function loadDetector(): Promise<Detector> {
  const started = performance.now();
  const model = await loadCenterNet().catch((error: unknown) => {
    throw new Error(`vehicle detector: cannot load the CenterNet model: ${(error as Error).message}`, {
      cause: error,
    });
  });
  return {
    model,
    info: { loadMs: performance.now() - started, weightBytes: model.weightBytes, backend: 'onnxruntime' },
  };
}

let detector: Promise<Detector> | undefined;

/** The detector, loaded once per process; a failed load is retried by the next call. */
function getDetector(): Promise<Detector> {
  detector ??= loadDetector().catch((error: unknown) => {
    detector = undefined;
    throw error;
  });
  return detector;
}

/** Loads the model now (e.g. at worker start) and says how long it took. */
export async function loadVehicleModel(): Promise<VehicleModelInfo> {
  return (await getDetector()).info;
}

const isVehicleLabel = (label: string | undefined): label is VehicleLabel =>
  (VEHICLE_LABELS as readonly (string | undefined)[]).includes(label);
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The object's score and box, as fractions of the image clamped to it. */
function located(object: DetectedObject): Pick<VehicleDetection, 'score' | 'box'> {
  const [x0, y0, w, h] = object.box;
  const x = clamp01(x0);
  const y = clamp01(y0);
  return {
    score: round(clamp01(object.score)),
    box: {
      x: round(x),
      y: round(y),
      width: round(clamp01(x0 + w) - x),
      height: round(clamp01(y0 + h) - y),
    },
  };
}

/** Vehicle detections of a decoded RGB image (the preview). */
export async function detectVehicles(preview: PreparedImage['preview']): Promise<VehiclesPart> {
  const { data, width, height } = preview;
  if (data.length !== width * height * 3) {
    throw new Error(`vehicle detector: preview is ${data.length} bytes, expected ${width}×${height}×3 RGB`);
  }
  const { model } = await getDetector();
  const objects = await model.detect(preview, {
    minScore: MIN_VEHICLE_SCORE,
    iouThreshold: IOU_THRESHOLD,
    maxDetected: MAX_DETECTED,
  });
  const detections = objects
    .flatMap((object) => {
      const label = COCO_LABELS[object.classIndex];
      return isVehicleLabel(label) && object.score >= MIN_VEHICLE_SCORE
        ? [{ label, ...located(object) }]
        : [];
    })
    .sort((a, b) => b.score - a.score);
  // People come free with the same pass (at the detector's own minimum score); shared reports blur them.
  const people = objects
    .filter((object) => COCO_LABELS[object.classIndex] === 'person')
    .map(located)
    .sort((a, b) => b.score - a.score);
  return { present: detections.length > 0, detections, people };
}

export const vehicleAnalyzer: ImageAnalyzer<typeof VehiclesPart> = {
  name: 'vehicles',
  version: 'centernet-onnx-3',
  schema: VehiclesPart,
  // The first call loads the model (about 0.3 s); a detection takes about 70 ms.
  timeoutMs: 20_000,
  analyse: (image) => detectVehicles(image.preview),
};
