// The capture app's quality pre-check (D8) on one worker thread, started on first use and stopped when
// idle: the API role has no analysis pool, and one photo at a time is enough for a hint before upload.
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { QualityPart } from '../domain/result/image-parts.js';

export interface QualityPool {
  /** The photo's quality, or 'undecodable'; rejects with QualityPoolBusyError when the queue is full. */
  check(path: string, mime: string): Promise<QualityPart | 'undecodable'>;
  close(): Promise<void>;
}

export class QualityPoolBusyError extends Error {
  override name = 'QualityPoolBusyError';
}

const MAX_WAITING = 32;

export function createQualityPool(opts: { threads?: number } = {}): QualityPool {
  // Compiled: the .js beside this file. Under the test runner (TypeScript sources): the .ts through tsx.
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina({
    filename: fileURLToPath(new URL(`./quality-thread.${fromSource ? 'ts' : 'js'}`, import.meta.url)),
    ...(fromSource && { execArgv: ['--import', 'tsx'] }),
    minThreads: 0,
    maxThreads: opts.threads ?? 1,
    idleTimeout: 30_000,
    maxQueue: MAX_WAITING,
  });
  return {
    check(path, mime) {
      // Waiting checks beyond the bound are refused rather than queued without end.
      if (pool.queueSize >= MAX_WAITING)
        return Promise.reject(new QualityPoolBusyError('quality checks are busy'));
      return pool.run({ path, mime }) as Promise<QualityPart | 'undecodable'>;
    },
    close: () => pool.destroy(),
  };
}
