// The worker role (D1): claims jobs from the queue and runs their tasks; analysis itself runs on the
// analysis pool's threads. Started by `walkaround serve --role worker|all`.
import crypto from 'node:crypto';
import type { Deps } from '../deps.js';
import type { AnalysisPool } from '../ports/analysis-pool.js';
import { analyseInspection, markFailed } from '../services/analysis/analyse-inspection.js';
import { ANALYSE_TASK } from '../services/record-inspection.js';
import { EXPIRE_LINK_TASK, expireLink } from '../services/links/expire-link.js';
import { startHeartbeat } from '../services/worker-heartbeat.js';
import { deliverMessage, type DeliveryJob } from '../services/webhooks/deliver.js';
import { DELIVER_TASK } from '../services/webhooks/events.js';
import { SEND_MESSAGE_TASK } from '../services/outbox/queue-messages.js';
import { sendMessage, sendMessageJob } from '../services/outbox/send-message.js';
import { hammingDistance, REUSE_MAX_DISTANCE } from '../analyzers/fingerprint.js';
import { createAnalysisPool } from './analysis-pool.js';

export interface RunningWorker {
  id: string;
  /** Stops claiming, lets running jobs finish for `graceMs`, then hands the rest back. */
  stop(graceMs?: number): Promise<void>;
}

export async function startWorker(deps: Deps, opts: { pool?: AnalysisPool } = {}): Promise<RunningWorker> {
  const id = crypto.randomUUID();
  const { config } = deps;
  const pool =
    opts.pool ?? createAnalysisPool({ damageModel: config.damageModel, outbound: config.outbound });
  const analysisDeps = {
    db: deps.db,
    storage: deps.storage,
    pool,
    now: deps.now,
    fingerprint: { distance: hammingDistance, maxDistance: REUSE_MAX_DISTANCE },
    mediaConcurrency: 2,
    events: { queue: deps.queue, now: deps.now, publicBaseUrl: config.publicBaseUrl },
  };
  const deliverDeps = { ...deps, retrySchedule: config.webhookRetrySchedule };
  const sendDeps = { ...deps, retrySchedule: config.messages.retrySchedule };
  const linkDeps = { ...deps, publicBaseUrl: config.publicBaseUrl };
  // Beat before claiming: a runner without a live heartbeat would look dead to the others.
  const stopHeartbeat = await startHeartbeat(deps, id, { deadAfterMs: config.jobLeaseMs });
  const runner = deps.queue.run(
    {
      [ANALYSE_TASK]: async (payload, job) => {
        const inspectionId = String(payload.inspectionId);
        try {
          const outcome = await analyseInspection(analysisDeps, inspectionId, job.signal);
          deps.logger.info(
            { inspection: inspectionId, outcome, attempt: job.attempt },
            'inspection analysed',
          );
        } catch (error) {
          if (job.isLastAttempt && !job.signal.aborted)
            await markFailed(
              analysisDeps,
              inspectionId,
              error instanceof Error ? error.message : String(error),
            );
          throw error;
        }
      },
      [DELIVER_TASK]: async (payload) => deliverMessage(deliverDeps, payload as unknown as DeliveryJob),
      [SEND_MESSAGE_TASK]: async (payload, job) => sendMessage(sendDeps, sendMessageJob(payload), job),
      [EXPIRE_LINK_TASK]: async (payload) => expireLink(linkDeps, String(payload.linkId)),
    },
    { concurrency: config.workerConcurrency, workerId: id },
  );
  return {
    id,
    async stop(graceMs = 10_000) {
      await runner.stop(graceMs);
      await stopHeartbeat();
      if (!opts.pool) await pool.close();
    },
  };
}
