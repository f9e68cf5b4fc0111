// Task `analyse-inspection`: the inspection's media through the analysis pool, then its result. On the
// last attempt a failure marks the inspection failed (and `inspection.failed` goes out).
import { hammingDistance, REUSE_MAX_DISTANCE } from '../../analyzers/fingerprint.js';
import type { Deps } from '../../deps.js';
import type { JobPayloads } from '../../domain/jobs.js';
import type { AnalysisPool } from '../../ports/analysis-pool.js';
import type { TaskHandler } from '../../ports/job-queue.js';
import { analyseInspection, markFailed } from '../../services/analysis/analyse-inspection.js';

/** Media items of one inspection analysed at the same time. */
const MEDIA_CONCURRENCY = 2;

export function analyseInspectionTask(
  deps: Deps,
  pool: AnalysisPool,
  scratchDir: string,
): TaskHandler<JobPayloads['analyse-inspection']> {
  const analysisDeps = {
    db: deps.db,
    scratchDir,
    storage: deps.storage,
    pool,
    now: deps.now,
    fingerprint: { distance: hammingDistance, maxDistance: REUSE_MAX_DISTANCE },
    mediaConcurrency: MEDIA_CONCURRENCY,
    events: { queue: deps.queue, now: deps.now, publicBaseUrl: deps.config.publicBaseUrl },
    metrics: deps.metrics,
  };
  return async ({ inspectionId }, job) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const outcome = await analyseInspection(analysisDeps, inspectionId, job.signal);
      deps.metrics.analysisFinished(outcome, seconds());
      deps.logger.info({ inspection: inspectionId, outcome, attempt: job.attempt }, 'inspection analysed');
    } catch (error) {
      // A run handed back because the worker stops is neither a failure nor a retry of the analysis.
      if (!job.signal.aborted)
        deps.metrics.analysisFinished(job.isLastAttempt ? 'failed' : 'retry', seconds());
      if (job.isLastAttempt && !job.signal.aborted)
        await markFailed(analysisDeps, inspectionId, error instanceof Error ? error.message : String(error));
      throw error;
    }
  };
}
