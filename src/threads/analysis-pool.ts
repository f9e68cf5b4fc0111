// The analysis pool on worker threads (piscina): analysis runs off the event loop that serves HTTP,
// at most `threads` media at a time; each thread loads the analyzers and models once.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { DamageModelSettings, OutboundSettings } from '../config.js';
import type { PhotoComparison } from '../domain/result/changes-part.js';
import type { AnalysisPool, MediaAnalysis, MediaTask } from '../ports/analysis-pool.js';
import type { ThreadTask } from './analysis-thread.js';

export interface ThreadSettings {
  damageModel: DamageModelSettings;
  outbound: OutboundSettings;
}

/**
 * One thread per core, at most 4: the analysis is the service's main work, and the HTTP thread needs
 * little CPU beside it (bench/analysis.ts measures its latency while every thread is busy).
 */
const defaultAnalysisThreads = (): number => Math.max(1, Math.min(4, os.availableParallelism()));

export function createAnalysisPool(settings: ThreadSettings, opts: { threads?: number } = {}): AnalysisPool {
  const threads = opts.threads ?? defaultAnalysisThreads();
  // Compiled: the .js beside this file. Under the test runner (TypeScript sources): the .ts through tsx.
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina({
    filename: fileURLToPath(new URL(`./analysis-thread.${fromSource ? 'ts' : 'js'}`, import.meta.url)),
    ...(fromSource && { execArgv: ['--import', 'tsx'] }),
    workerData: settings,
    minThreads: 0,
    maxThreads: threads,
    // A thread that has loaded its models keeps them: retired after a quiet minute, as it was, it made
    // the next inspection wait for the models again (10 photos on two threads in 6.7 s, not 3.7).
    // Threads start on first use, so a worker that analyses nothing loads nothing.
    idleTimeout: Infinity,
    // Models (tfjs, OCR) are large: a thread's heap needs room.
    resourceLimits: { maxOldGenerationSizeMb: 2048 },
  });
  // An abort stops the wait, not the thread: piscina would terminate a thread that is inside a native
  // model run (onnxruntime), and that aborts the whole process. The task's work is bounded; its result
  // is dropped.
  const run = <T>(task: ThreadTask, signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted();
    const running = pool.run(task) as Promise<T>;
    if (!signal) return running;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      running.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  };
  return {
    analyseMedia: (task: MediaTask, signal?: AbortSignal) =>
      run<MediaAnalysis>({ type: 'media', task }, signal),
    comparePair: (a, b, signal) => run<unknown>({ type: 'pair', a, b }, signal),
    compareChanges: (task, signal) => run<PhotoComparison>({ type: 'changes', task }, signal),
    // Gracefully: the threads finish the tasks they run (destroy() would terminate them mid-model).
    close: () => pool.close(),
  };
}
