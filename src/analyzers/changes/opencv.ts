// OpenCV (the @techstark/opencv-js build of OpenCV 4.12, WebAssembly, Apache-2.0), loaded once per
// thread on first use (about 0.9 s). WebAssembly runs the same instructions on every machine, so its
// results do not depend on the CPU; its Mats live outside the JavaScript heap and must be deleted, which
// `withMats` does for every Mat a piece of work makes.
import { createRequire } from 'node:module';
import type * as OpenCv from '@techstark/opencv-js';

/** The constants used here; the typings give them as `any`. */
interface Codes {
  BORDER_CONSTANT: number;
  COLOR_RGB2GRAY: number;
  CV_8U: number;
  CV_8UC1: number;
  CV_8UC3: number;
  CV_32F: number;
  CV_32FC2: number;
  CV_32S: number;
  INTER_AREA: number;
  INTER_LINEAR: number;
  INTER_NEAREST: number;
  MORPH_OPEN: number;
  NORM_HAMMING: number;
  OPTFLOW_USE_INITIAL_FLOW: number;
  RANSAC: number;
  TermCriteria_COUNT: number;
  TermCriteria_EPS: number;
}

export type Cv = Omit<typeof OpenCv, keyof Codes> & Codes;
export type Mat = OpenCv.Mat;
/** Registers a Mat (or another OpenCV object) to be deleted when the work of `withMats` ends. */
export type Keep = <M extends { delete(): void }>(mat: M) => M;

/**
 * The module is an Emscripten Module: a thenable that calls back once its runtime has started, with
 * itself. Awaiting it (or a promise resolving to it) would chase that thenable for ever, so the
 * promise here holds it inside an object.
 */
let loading: Promise<{ cv: Cv }> | undefined;

/** OpenCV, once loaded (inside an object: see `loading`). */
export function opencv(): Promise<{ cv: Cv }> {
  loading ??= (async () => {
    // Emscripten's Node glue hooks the process: it rethrows uncaught exceptions (printing its whole
    // source) and aborts on an unhandled rejection. The service handles both itself: the hooks go.
    const events = ['uncaughtException', 'unhandledRejection'];
    const before = events.map((event) => process.listeners(event as 'uncaughtException'));
    // Required, not imported: a module namespace made from it would carry its `then`, and awaiting the
    // import would chase it too (as test runners' CommonJS interop does).
    const cv = createRequire(import.meta.url)('@techstark/opencv-js') as Cv & {
      then?: (ready: () => void) => void;
    };
    events.forEach((event, i) => {
      for (const listener of process.listeners(event as 'uncaughtException'))
        if (!before[i]!.includes(listener)) process.removeListener(event, listener);
    });
    if (typeof cv.Mat !== 'function')
      await new Promise<void>((resolve) => {
        if (typeof cv.then !== 'function') throw new Error('OpenCV: the module neither ready nor loading');
        cv.then(() => resolve());
      });
    return { cv };
  })();
  return loading;
}

/** Runs `work` with a `keep` that registers each Mat it makes; all are deleted when it ends. */
export async function withMats<T>(work: (cv: Cv, keep: Keep) => T): Promise<T> {
  const { cv } = await opencv();
  const made: { delete(): void }[] = [];
  try {
    return work(cv, (mat) => {
      made.push(mat);
      return mat;
    });
  } finally {
    for (const mat of made.reverse()) mat.delete();
  }
}
