// The worker role: claims jobs from the queue and runs their tasks (one file each under tasks/);
// analysis itself runs on the analysis pool's threads. Started by `walkaround serve --role worker|all`.
import crypto from 'node:crypto';
import type { Deps } from '../deps.js';
import { TASK_LANES, type JobPayloads, type Lane, type TaskName } from '../domain/jobs.js';
import type { AnalysisPool } from '../ports/analysis-pool.js';
import type { TaskHandlers } from '../ports/job-queue.js';
import { startHeartbeat } from '../services/worker-heartbeat.js';
import { createAnalysisPool } from '../threads/analysis-pool.js';
import { analyseInspectionTask } from './tasks/analyse-inspection.js';
import { deliverWebhookTask } from './tasks/deliver-webhook.js';
import { expireLinkTask } from './tasks/expire-link.js';
import { openScratch } from './scratch.js';
import { sendMessageTask } from './tasks/send-message.js';

export interface RunningWorker {
  id: string;
  /** Stops claiming, lets running jobs finish for `graceMs`, then hands the rest back. */
  stop(graceMs?: number): Promise<void>;
}

export async function startWorker(deps: Deps, opts: { pool?: AnalysisPool } = {}): Promise<RunningWorker> {
  const id = crypto.randomUUID();
  const { config } = deps;
  const pool =
    opts.pool ??
    createAnalysisPool(
      { damageModel: config.damageModel, outbound: config.outbound },
      { ...(config.analysisThreads !== undefined && { threads: config.analysisThreads }) },
    );
  const { scratch, swept } = await openScratch(config.dataDir);
  if (swept > 0) deps.logger.info({ swept }, 'removed the scratch folders of interrupted analyses');
  // Every task of the map has its handler: a task added to domain/jobs.ts without one fails to compile.
  const handlers: Required<TaskHandlers<JobPayloads>> = {
    'analyse-inspection': analyseInspectionTask(deps, pool, scratch.dir),
    'deliver-webhook': deliverWebhookTask(deps),
    'send-message': sendMessageTask(deps),
    'expire-link': expireLinkTask(deps),
  };
  // Beat before claiming: a runner without a live heartbeat would look dead to the others.
  const stopHeartbeat = await startHeartbeat(deps, id, { deadAfterMs: config.jobLeaseMs });
  // One runner per lane, each with its own slots: a burst of analyses never delays a webhook.
  const concurrency: Record<Lane, number> = {
    analysis: config.workerConcurrency,
    messages: config.messageConcurrency,
  };
  const runners = (Object.keys(concurrency) as Lane[]).map((lane) =>
    deps.queue.run(handlersOf(handlers, lane), { concurrency: concurrency[lane], workerId: id }),
  );
  return {
    id,
    async stop(graceMs = 10_000) {
      await Promise.all(runners.map((runner) => runner.stop(graceMs)));
      await stopHeartbeat();
      if (!opts.pool) await pool.close();
      await scratch.remove();
    },
  };
}

function handlersOf(all: Required<TaskHandlers<JobPayloads>>, lane: Lane): TaskHandlers<JobPayloads> {
  const tasks = (Object.keys(TASK_LANES) as TaskName[]).filter((task) => TASK_LANES[task] === lane);
  return Object.fromEntries(tasks.map((task) => [task, all[task]]));
}
