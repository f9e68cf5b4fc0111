// Runs every image analyzer on one prepared image, each under its own timeout. One analyzer failing
// (or timing out) never loses the others' work: its error is recorded beside their parts.
import type { AnalysisContext, ImageAnalyzer, PreparedImage } from '../../analyzers/analyzer.js';
import type { AnalyzerRun } from '../../ports/analysis-pool.js';

export interface ImageAnalysisParts {
  parts: Record<string, unknown>;
  runs: AnalyzerRun[];
}

export async function runImageAnalyzers(
  analyzers: readonly ImageAnalyzer[],
  image: PreparedImage,
  context: Omit<AnalysisContext, 'signal'> & { signal?: AbortSignal },
): Promise<ImageAnalysisParts> {
  const parts: Record<string, unknown> = {};
  const runs: AnalyzerRun[] = [];
  // One at a time: they share the CPU of this thread anyway, and a time-out stays the analyzer's own.
  for (const analyzer of analyzers) {
    const started = performance.now();
    const limit = AbortSignal.timeout(analyzer.timeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, limit]) : limit;
    try {
      parts[analyzer.name] = await untilAborted(analyzer.analyse(image, { ...context, signal }), signal);
      runs.push({ name: analyzer.name, version: analyzer.version, status: 'ok', ms: elapsed(started) });
    } catch (error) {
      if (context.signal?.aborted) throw error; // the job is stopping: not the analyzer's fault
      const timedOut = limit.aborted;
      runs.push({
        name: analyzer.name,
        version: analyzer.version,
        status: timedOut ? 'timeout' : 'error',
        ms: elapsed(started),
        error: timedOut ? `no answer within ${analyzer.timeoutMs} ms` : describe(error),
      });
    }
  }
  return { parts, runs };
}

/** Settles with `work`, or rejects as soon as `signal` aborts (an analyzer may not watch its signal). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const elapsed = (started: number) => Math.round(performance.now() - started);
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
