// The OCR engine: one tesseract.js worker per process (an analysis thread), with the English LSTM
// model from @tesseract.js-data/eng read from node_modules (nothing is downloaded). Pages are grey
// PGM images; each recognition is bounded in time and a stuck worker is replaced.
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import type { OcrLine } from './text.js';

/** One recognition taking longer than this is abandoned and the worker replaced. */
const PASS_HARD_LIMIT_MS = 5_000;

const requireHere = createRequire(import.meta.url);

let worker: Promise<Tesseract.Worker> | undefined;

/** tesseract.js never settles createWorker() when the model cannot be read; this bounds the wait. */
const WORKER_START_LIMIT_MS = 20_000;

async function createOcrWorker(): Promise<Tesseract.Worker> {
  // The LSTM-only model (2.9 MB) that tesseract.js would otherwise download from a CDN; a local
  // langPath is read from the disk, and cacheMethod 'none' stops it writing a copy into the cwd.
  const langPath = path.join(path.dirname(requireHere.resolve('@tesseract.js-data/eng')), '4.0.0_best_int');
  const model = path.join(langPath, 'eng.traineddata.gz');
  await access(model).catch((error: unknown) => {
    throw new Error(`OCR model not found at ${model}`, { cause: error });
  });
  const starting = Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    logger: () => undefined,
    // Without a handler, a failed job also throws inside the message listener (an uncaught exception).
    errorHandler: () => undefined,
  });
  let timer: NodeJS.Timeout | undefined;
  const created = await Promise.race([
    starting,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Should it start after all, end it: nobody holds it.
        void starting.then((late) => late.terminate()).catch(() => undefined);
        reject(new Error(`OCR worker did not start within ${WORKER_START_LIMIT_MS} ms`));
      }, WORKER_START_LIMIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  await created.setParameters({
    // Sparse text: scene photos hold scattered words, not paragraphs.
    tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT,
    // A fixed resolution: Tesseract's estimate drops large plate characters (and logs to stderr).
    user_defined_dpi: '300',
    debug_file: '/dev/null',
  });
  return created;
}

/** The OCR worker, created once per process (a worker thread); a failed start is retried next call. */
function getWorker(): Promise<Tesseract.Worker> {
  worker ??= createOcrWorker().catch((error: unknown) => {
    worker = undefined;
    throw error;
  });
  return worker;
}

/** Ends the OCR worker thread (graceful shutdown, tests); the next analysis starts a new one. */
export async function closeTextReader(): Promise<void> {
  const current = worker;
  worker = undefined;
  if (current) await (await current.catch(() => null))?.terminate();
}

// One recognition at a time: the worker runs jobs in turn anyway, and a time limit must time only
// its own job, not a queue.
let queue: Promise<unknown> = Promise.resolve();
function serialised<T>(run: () => Promise<T>): Promise<T> {
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/** An image for OCR, and its size to turn Tesseract's pixel boxes into fractions. */
export interface Page {
  image: Buffer;
  size: { width: number; height: number };
}

/**
 * The lines of each page. All pages go to the OCR thread at once: it reads them in turn without
 * waiting for this thread, which may be busy with the vehicle detector meanwhile.
 */
export async function recognise(pages: Page[], signal: AbortSignal): Promise<OcrLine[][]> {
  return serialised(async () => {
    signal.throwIfAborted();
    const ocr = await getWorker();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const limit = PASS_HARD_LIMIT_MS * pages.length;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`OCR took over ${limit} ms`)), limit);
      onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('OCR aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const jobs = pages.map((page) => ocr.recognize(page.image, {}, { text: false, blocks: true }));
      for (const job of jobs) job.catch(() => undefined); // settled after a lost race: nobody awaits it
      const results = await Promise.race([Promise.all(jobs), stop]);
      return results.map((result, index) => {
        const { size } = pages[index]!;
        return (result.data.blocks ?? []).flatMap((block) =>
          block.paragraphs.flatMap((paragraph) =>
            paragraph.lines.map((line) =>
              line.words.map(({ text, confidence, bbox }) => ({
                text,
                confidence,
                box: {
                  x: bbox.x0 / size.width,
                  y: bbox.y0 / size.height,
                  width: (bbox.x1 - bbox.x0) / size.width,
                  height: (bbox.y1 - bbox.y0) / size.height,
                },
              })),
            ),
          ),
        );
      });
    } catch (error) {
      // An abandoned job may still be running: replace the worker rather than wait for it.
      if (worker) await closeTextReader();
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  });
}

/** A grey image as a binary PGM: Leptonica reads it without decoding work. */
export function pgm(grey: Buffer, width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), grey]);
}
