// The pool on real worker threads: an abort or a close while a thread is inside a model run must leave
// the process alive (piscina's termination of such a thread aborts the whole process).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { MediaTask } from '../ports/analysis-pool.js';
import { createAnalysisPool } from './analysis-pool.js';

const PHOTO = fileURLToPath(new URL('../../test/fixtures/photos/scenetext01.jpg', import.meta.url));
const config = loadConfig({});
const workDirs: string[] = [];

async function task(): Promise<MediaTask> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'pool-'));
  workDirs.push(workDir);
  return { path: PHOTO, mime: 'image/jpeg', kind: 'image', inputMetaData: {}, workDir };
}

afterAll(async () => {
  await Promise.all(workDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('analysis pool', () => {
  it('stops waiting on an abort, lets the thread finish its model run, and closes after it', async () => {
    const pool = createAnalysisPool(
      { damageModel: config.damageModel, outbound: config.outbound },
      { threads: 1 },
    );
    // The first task loads the models; the second is caught inside them.
    await pool.analyseMedia(await task());
    const controller = new AbortController();
    const aborted = pool.analyseMedia(await task(), controller.signal);
    const next = pool.analyseMedia(await task());
    setTimeout(() => controller.abort(new Error('stopped')), 50);
    await expect(aborted).rejects.toThrow('stopped');
    const closing = pool.close();
    await expect(next).resolves.toMatchObject({ kind: 'image' });
    await closing;
  }, 60_000);
});
