// The job queue on PostgreSQL through graphile-worker (ADR 4): jobs are enqueued with its
// `add_job()` SQL function inside the caller's transaction, and LISTEN/NOTIFY starts them within
// milliseconds. graphile-worker only releases a crashed worker's jobs after four hours, so every process
// records which graphile workers it runs (`queue_workers`, beside its heartbeat in `workers`), and live
// processes unlock the jobs of processes whose heartbeat stopped: a killed worker loses no job.
import { EventEmitter } from 'node:events';
import {
  Logger,
  makeWorkerUtils,
  run,
  type Task,
  type WorkerEvents,
  type WorkerUtils,
} from 'graphile-worker';
import { sql } from 'kysely';
import type pg from 'pg';
import type { JobPayloads } from '../../domain/jobs.js';
import type {
  JobQueue,
  JobState,
  NewJob,
  QueueRunner,
  QueueTaskStats,
  TaskHandler,
  TaskHandlers,
  TaskMap,
} from '../../ports/job-queue.js';
import type { Db } from '../../ports/database.js';

const DEFAULT_MAX_ATTEMPTS = 10;

export interface GraphileQueueOptions {
  db: Db;
  pool: pg.Pool;
  now: () => number;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** A process silent this long is taken for dead and its jobs run again. */
  deadAfterMs: number;
}

/** graphile-worker logs to the console by default; ours goes through the service logger (warnings up). */
function quietLogger(logger: GraphileQueueOptions['logger']): Logger {
  return new Logger(() => (level, message, meta) => {
    // LogLevel is a const enum of strings; compare its text.
    const name: string = level;
    if (name === 'error') logger.error({ ...meta }, message);
    else if (name === 'warning') logger.warn({ ...meta }, message);
  });
}

/** Any constant shared by every process of the deployment; names the advisory lock below. */
const QUEUE_SCHEMA_LOCK = 0x77616c6b; // "walk"

/**
 * graphile-worker installs its schema with retries on most clashes, but several processes starting
 * together on an empty database can still trip over each other (one reads the schema half-migrated by
 * another: "column job_count … does not exist"). makeWorkerUtils() migrates as it starts, so it runs
 * under one advisory lock: processes take turns, and every later migrate() finds nothing to do.
 */
async function inTurn<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [QUEUE_SCHEMA_LOCK]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [QUEUE_SCHEMA_LOCK]);
    }
  } finally {
    client.release();
  }
}

export async function createGraphileQueue<Tasks extends TaskMap = JobPayloads>(
  opts: GraphileQueueOptions,
): Promise<JobQueue<Tasks>> {
  const { db } = opts;
  const logger = quietLogger(opts.logger);
  const utils: WorkerUtils = await inTurn(opts.pool, () => makeWorkerUtils({ pgPool: opts.pool, logger }));

  /** Unlocks the jobs held by graphile workers of processes that stopped beating. */
  async function rescueOrphans(): Promise<void> {
    const cutoff = opts.now() - opts.deadAfterMs;
    const orphans = await db
      .selectFrom('queue_workers')
      .leftJoin('workers', 'workers.id', 'queue_workers.owner_id')
      .select(['queue_workers.id'])
      .where((eb) => eb.or([eb('workers.id', 'is', null), eb('workers.heartbeat_at', '<', cutoff)]))
      .execute();
    if (orphans.length === 0) return;
    const ids = orphans.map((o) => o.id);
    await utils.forceUnlockWorkers(ids);
    await db.deleteFrom('queue_workers').where('id', 'in', ids).execute();
  }

  return {
    async enqueue(trx: Db, job: NewJob<Tasks>): Promise<void> {
      await sql`select graphile_worker.add_job(
        identifier => ${job.task},
        payload => ${JSON.stringify(job.payload)}::json,
        run_at => to_timestamp(${(job.runAt ?? opts.now()) / 1000}),
        max_attempts => ${job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::int,
        job_key => ${job.key},
        job_key_mode => ${job.again ? 'replace' : 'unsafe_dedupe'}
      )`.execute(trx);
    },

    close: async () => utils.release(),

    async stats(): Promise<QueueTaskStats[]> {
      // graphile-worker deletes succeeded jobs: the table holds unfinished ones, and the failed ones
      // (attempts used up, unlocked) that this leaves out. A running job has counted its attempt already.
      const { rows } = await sql<{
        task: string;
        ready: string;
        scheduled: string;
        running: string;
        oldest: string | null;
      }>`select task_identifier as task,
          count(*) filter (where locked_at is null and run_at <= to_timestamp(${opts.now() / 1000})) as ready,
          count(*) filter (where locked_at is null and run_at > to_timestamp(${opts.now() / 1000})) as scheduled,
          count(*) filter (where locked_at is not null) as running,
          extract(epoch from min(run_at) filter (where locked_at is null and run_at <= to_timestamp(${opts.now() / 1000}))) * 1000 as oldest
        from graphile_worker.jobs
        where locked_at is not null or attempts < max_attempts
        group by task_identifier`.execute(db);
      return rows.map((row) => ({
        task: row.task,
        ready: Number(row.ready),
        scheduled: Number(row.scheduled),
        running: Number(row.running),
        oldestReadyAt: row.oldest === null ? null : Math.round(Number(row.oldest)),
      }));
    },

    async state(key: string): Promise<JobState | undefined> {
      const { rows } = await sql<{
        attempts: number;
        max_attempts: number;
        last_error: string | null;
        run_at: Date;
        locked_at: Date | null;
      }>`select attempts, max_attempts, last_error, run_at, locked_at from graphile_worker.jobs where key = ${key}`.execute(
        db,
      );
      const row = rows[0];
      // graphile-worker deletes a job once it has succeeded.
      if (!row) return undefined;
      const status = row.locked_at ? 'running' : row.attempts >= row.max_attempts ? 'failed' : 'pending';
      return {
        status,
        attempts: row.attempts,
        lastError: row.last_error,
        runAt: new Date(row.run_at).getTime(),
      };
    },

    run(handlers: TaskHandlers<Tasks>, { concurrency, workerId }): QueueRunner {
      // The map's types end here: payloads go to and come from the database as JSON.
      const byTask = handlers as Record<string, TaskHandler<object> | undefined>;
      const taskList: Record<string, Task> = {};
      for (const [name, handler] of Object.entries(byTask)) {
        if (!handler) continue;
        taskList[name] = async (payload, helpers) => {
          await handler(payload ?? {}, {
            jobId: helpers.job.id,
            attempt: helpers.job.attempts,
            isLastAttempt: helpers.job.attempts >= helpers.job.max_attempts,
            signal: helpers.abortSignal ?? new AbortController().signal,
          });
        };
      }
      const events: WorkerEvents = new EventEmitter();
      // Jobs are locked in the name of the worker pool (one per `run`), so that is the id to record.
      events.on('pool:create', ({ workerPool }) => {
        db.insertInto('queue_workers')
          .values({ id: workerPool.id, owner_id: workerId, created_at: opts.now() })
          .execute()
          .catch((err: unknown) => opts.logger.warn({ err }, 'could not record a queue worker'));
      });
      const rescue = setInterval(
        () => {
          rescueOrphans().catch((err: unknown) =>
            opts.logger.warn({ err }, 'could not rescue orphaned jobs'),
          );
        },
        Math.max(1000, opts.deadAfterMs / 2),
      );
      rescue.unref();
      const started = run({
        pgPool: opts.pool,
        concurrency,
        noHandleSignals: true,
        pollInterval: 1000,
        logger,
        events,
        taskList,
      });
      return {
        async stop(graceMs = 10_000) {
          clearInterval(rescue);
          const runner = await started;
          const timer = setTimeout(() => void runner.kill('grace period over'), graceMs);
          await runner.stop().catch(() => undefined);
          clearTimeout(timer);
          await db.deleteFrom('queue_workers').where('owner_id', '=', workerId).execute();
        },
      };
    },
  };
}
