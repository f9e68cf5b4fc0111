// Vehicle presence: COCO object detection (CenterNet, 4 MB of weights shipped inside @vladmandic/human)
// on the tfjs WebAssembly backend. Everything is read from node_modules; nothing is fetched.
//
// Human's node-wasm build is loaded by path: the package's default Node entry needs tfjs-node, which
// cannot be installed offline. That build require()s @tensorflow/tfjs-core, -converter and
// -backend-wasm (4.22), so all three must be installed.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  VEHICLE_LABELS,
  VehiclesPart,
  type VehicleDetection,
  type VehicleLabel,
} from '../domain/result/detection-parts.js';
import type { ImageAnalyzer, PreparedImage } from './analyzer.js';

/**
 * Detections scoring below this are dropped. On the real photos here the blurred rear of a car scores
 * 0.43 and a parked car 0.62, while spurious car boxes on the same photos score 0.20–0.21 and the
 * no-vehicle control has no vehicle-class box at all; 0.3 keeps the first and drops the second.
 */
export const MIN_VEHICLE_SCORE = 0.3;

/** Boxes the detector keeps before the class filter (people, signs… compete for these slots). */
const MAX_DETECTED = 50;

// The subset of Human's and tfjs' API used here (the module is loaded by path, so it is untyped).
interface Tensor {
  readonly shape: number[];
}
interface Tf {
  tensor4d(values: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): Tensor;
  dispose(tensors: Tensor | Tensor[]): void;
  getBackend(): string;
  memory(): { numTensors: number; numBytes: number };
}
interface HumanObject {
  score: number;
  label: string;
  boxRaw: [number, number, number, number];
}
interface HumanInstance {
  tf: Tf;
  load(): Promise<void>;
  detect(input: Tensor): Promise<{ object: HumanObject[]; error: string | null }>;
  models: {
    stats(): { modelStats: { name: string; loaded: boolean; sizeLoadedWeights: number }[] };
  };
}
interface HumanModule {
  Human: new (config: Record<string, unknown>) => HumanInstance;
}

const requireHere = createRequire(import.meta.url);

function packagePaths() {
  // The package's exports map hides dist/human.node-wasm.js and package.json; its default Node entry
  // (dist/human.node.js) sits beside the file we want.
  const humanDist = path.dirname(requireHere.resolve('@vladmandic/human'));
  const humanFile = path.join(humanDist, 'human.node-wasm.js');
  // Resolved from Human's own location so the backend is the copy Human require()s.
  const wasmDist = path.dirname(createRequire(humanFile).resolve('@tensorflow/tfjs-backend-wasm'));
  const models = path.join(path.dirname(humanDist), 'models');
  return { humanFile, wasmDist, models };
}

/**
 * Human loads model files with the global fetch, and Node's fetch has no file://. While loading,
 * file:// URLs are answered from the disk; everything else goes to the original fetch unchanged.
 */
async function withFileFetch<T>(run: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return original(input, init);
    const body = await readFile(fileURLToPath(url));
    return new Response(body, { status: 200, headers: { 'content-type': 'application/octet-stream' } });
  };
  try {
    return await run();
  } finally {
    globalThis.fetch = original;
  }
}

/**
 * The wasm backend's Emscripten runtime, when it starts, adds process-wide `uncaughtException` and
 * `unhandledRejection` listeners that rethrow, which would pre-empt the service's own handlers
 * (graceful shutdown). tfjs removes them only when the backend is disposed; here they go at once.
 */
async function withoutEmscriptenProcessListeners<T>(run: () => Promise<T>): Promise<T> {
  const emitter: NodeJS.EventEmitter = process;
  const events = ['uncaughtException', 'unhandledRejection'];
  const before = new Set(events.flatMap((event) => emitter.listeners(event)));
  const isEmscripten = (listener: unknown) => {
    const source = String(listener);
    return source.includes('ExitStatus') || /^function\s*\(reason\)\s*\{\s*throw reason;?\s*\}$/.test(source);
  };
  try {
    return await run();
  } finally {
    for (const event of events) {
      for (const listener of emitter.listeners(event)) {
        if (before.has(listener) || !isEmscripten(listener)) continue;
        emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
}

export interface VehicleModelInfo {
  loadMs: number;
  weightBytes: number;
  backend: string;
}

interface Detector {
  human: HumanInstance;
  info: VehicleModelInfo;
}

async function loadDetector(): Promise<Detector> {
  const started = performance.now();
  const { humanFile, wasmDist, models } = packagePaths();
  let module: HumanModule;
  try {
    module = requireHere(humanFile) as HumanModule;
  } catch (error) {
    throw new Error(
      `vehicle detector: cannot load ${humanFile} (it needs @tensorflow/tfjs-core, @tensorflow/tfjs-converter ` +
        `and @tensorflow/tfjs-backend-wasm 4.22 installed): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const human = new module.Human({
    backend: 'wasm',
    wasmPath: `${wasmDist}${path.sep}`,
    modelBasePath: `${pathToFileURL(models).href}/`,
    debug: false,
    warmup: 'none',
    cacheModels: false,
    // Human skips or reuses work when consecutive inputs look alike (a video feature); every photo
    // here is judged on its own.
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: {
      enabled: true,
      modelPath: 'centernet.json',
      minConfidence: MIN_VEHICLE_SCORE,
      iouThreshold: 0.4,
      maxDetected: MAX_DETECTED,
      skipFrames: 0,
      skipTime: 0,
    },
  });
  await withoutEmscriptenProcessListeners(() => withFileFetch(() => human.load()));
  // Human logs a failed load and carries on; detect() would then silently find nothing.
  const backend = human.tf.getBackend();
  if (backend !== 'wasm') throw new Error(`vehicle detector: tfjs backend is '${backend}', expected 'wasm'`);
  const stats = human.models.stats().modelStats.find((model) => model.name === 'centernet');
  if (!stats?.loaded || stats.sizeLoadedWeights <= 0) {
    throw new Error(`vehicle detector: CenterNet model did not load from ${models}`);
  }
  return {
    human,
    info: { loadMs: performance.now() - started, weightBytes: stats.sizeLoadedWeights, backend },
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

/** Tensors and bytes held by the tfjs engine (the model's weights once loaded); for leak checks. */
export async function vehicleModelMemory(): Promise<{ numTensors: number; numBytes: number }> {
  return (await getDetector()).human.tf.memory();
}

// One image at a time: the wasm backend is single-threaded and Human keeps per-call state.
let queue: Promise<unknown> = Promise.resolve();
function serialised<T>(run: () => Promise<T>): Promise<T> {
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

const isVehicleLabel = (label: string): label is VehicleLabel =>
  (VEHICLE_LABELS as readonly string[]).includes(label);
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The object's score and box, as fractions of the image clamped to it. */
function located(object: HumanObject): Pick<VehicleDetection, 'score' | 'box'> {
  const [x0, y0, w, h] = object.boxRaw;
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
  const { human } = await getDetector();
  const result = await serialised(async () => {
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
    const input = human.tf.tensor4d(pixels, [1, height, width, 3], 'int32');
    try {
      return await human.detect(input);
    } finally {
      human.tf.dispose(input);
    }
  });
  if (result.error) throw new Error(`vehicle detector: ${result.error}`);
  const detections = result.object
    .filter((object): object is HumanObject & { label: VehicleLabel } => isVehicleLabel(object.label))
    .filter((object) => object.score >= MIN_VEHICLE_SCORE)
    .map((object): VehicleDetection => ({ label: object.label, ...located(object) }))
    .sort((a, b) => b.score - a.score);
  // People come free with the same pass (at the detector's own minimum score); shared reports blur them.
  const people = result.object
    .filter((object) => object.label === 'person')
    .map(located)
    .sort((a, b) => b.score - a.score);
  return { present: detections.length > 0, detections, people };
}

export const vehicleAnalyzer: ImageAnalyzer<typeof VehiclesPart> = {
  name: 'vehicles',
  version: 'human-3.3.6-centernet-2',
  schema: VehiclesPart,
  // The first call loads the model (0.2–0.5 s); a detection takes 0.2–0.5 s on 2 cores.
  timeoutMs: 20_000,
  analyse: (image) => detectVehicles(image.preview),
};
