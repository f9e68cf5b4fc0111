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
  const run = async (analyzer: ImageAnalyzer): Promise<{ part?: unknown; run: AnalyzerRun }> => {
    const started = performance.now();
    const limit = AbortSignal.timeout(analyzer.timeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, limit]) : limit;
    const { name, version } = analyzer;
    try {
      const part = await untilAborted(analyzer.analyse(image, { ...context, signal }), signal);
      return { part, run: { name, version, status: 'ok', ms: elapsed(started) } };
    } catch (error) {
      if (context.signal?.aborted) throw error; // the job is stopping: not the analyzer's fault
      const timedOut = limit.aborted;
      const status = timedOut ? 'timeout' : 'error';
      const reason = timedOut ? `no answer within ${analyzer.timeoutMs} ms` : describe(error);
      return { run: { name, version, status, ms: elapsed(started), error: reason } };
    }
  };
  // Those working on threads of their own start first and run beside the rest; the rest go one at a
  // time, as they share this thread's CPU anyway and a time-out must stay the analyzer's own.
  const beside = Promise.allSettled(analyzers.filter((a) => a.ownThread).map(run));
  const inTurn: Awaited<ReturnType<typeof run>>[] = [];
  let stopped: Error | undefined;
  try {
    for (const analyzer of analyzers.filter((a) => !a.ownThread)) inTurn.push(await run(analyzer));
  } catch (error) {
    stopped = error instanceof Error ? error : new Error(String(error));
  }
  // Settled before returning, even when stopping: nothing runs on behind the caller's back.
  const besideOutcomes = await beside;
  if (stopped) throw stopped;
  const outcomes = [...inTurn];
  for (const outcome of besideOutcomes) {
    if (outcome.status === 'rejected')
      throw outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
    outcomes.push(outcome.value);
  }
  // In the analyzers' order, whatever order they finished in.
  const parts: Record<string, unknown> = {};
  const runs: AnalyzerRun[] = [];
  for (const analyzer of analyzers) {
    const outcome = outcomes.find((o) => o.run.name === analyzer.name);
    if (!outcome) continue;
    if (outcome.part !== undefined) parts[analyzer.name] = outcome.part;
    runs.push(outcome.run);
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
