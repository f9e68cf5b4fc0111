// The capture app's photo quality pre-check on one worker thread, started on first use and stopped when
// idle: the API role has no analysis pool, and one photo at a time is enough for a hint before upload.
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { QualityPart } from '../domain/result/image-parts.js';
import { PhotoQualityBusyError, type PhotoQuality } from '../ports/photo-quality.js';

const MAX_WAITING = 32;

export function createQualityPool(opts: { threads?: number } = {}): PhotoQuality {
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
        return Promise.reject(new PhotoQualityBusyError('quality checks are busy'));
      return pool.run({ path, mime }) as Promise<QualityPart | 'undecodable'>;
    },
    close: () => pool.destroy(),
  };
}
