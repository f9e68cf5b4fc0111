// The job queue kept in the service's own database, table `jobs`: the embedded default on SQLite (one
// writer at a time makes the claim atomic) and usable on PostgreSQL (`FOR UPDATE SKIP LOCKED`). A claim
// is a lease: the runner extends it while the job runs, and a job whose worker died (lease expired) is
// claimed again, so a killed worker loses no job. A runner in the process that enqueues is woken at once
// (on SQLite its claim queues behind the enqueueing transaction on the one connection, so it sees the
// job as soon as it commits); runners of other processes find it at their next poll.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Dialect } from '../db/connect.js';
import type { Db, JobRow } from '../../ports/database.js';
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
import { retryDelayMs } from '../../domain/retry.js';

const DEFAULT_MAX_ATTEMPTS = 10;

export interface DbQueueOptions {
  db: Db;
  dialect: Dialect;
  now: () => number;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** How long a claim holds without renewal; a dead worker's job is taken again after this. */
  leaseMs?: number;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
}

export function createDbQueue<Tasks extends TaskMap = JobPayloads>(opts: DbQueueOptions): JobQueue<Tasks> {
  const leaseMs = opts.leaseMs ?? 30_000;
  const pollMs = opts.pollMs ?? 250;
  const { db } = opts;
  /** The runners of this process, by the tasks they claim: an enqueue wakes the ones that run it. */
  const runners = new Set<{ tasks: ReadonlySet<string>; wake: () => void }>();

  async function claim(workerId: string, tasks: string[]): Promise<JobRow | undefined> {
    const now = opts.now();
    const due = db
      .selectFrom('jobs')
      .select('id')
      .where('task', 'in', tasks)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .limit(1);
    return (
      db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          locked_by: workerId,
          locked_until: now + leaseMs,
          attempts: eb('attempts', '+', 1),
          updated_at: now,
        }))
        .where('id', '=', opts.dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
        // Re-checked on the locked row: a job another runner claimed meanwhile no longer matches.
        .where((eb) =>
          eb.or([
            eb('status', '=', 'pending'),
            eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst()
    );
  }

  /** Applies an outcome only while this runner still holds the job (its lease was not taken over). */
  const mine = (job: JobRow) => (q: ReturnType<typeof db.updateTable<'jobs'>>) =>
    q.where('id', '=', job.id).where('locked_by', '=', job.locked_by).where('status', '=', 'running');

  async function finish(
    job: JobRow,
    failure: { error: unknown } | undefined,
    handBack: boolean,
  ): Promise<void> {
    const now = opts.now();
    const update = mine(job)(db.updateTable('jobs'));
    if (handBack) {
      await update
        .set((eb) => ({
          status: 'pending',
          locked_by: null,
          locked_until: null,
          attempts: eb
            .case()
            .when('attempts', '>', 0)
            .then(eb('attempts', '-', 1))
            .else(0)
            .end(),
          updated_at: now,
        }))
        .execute();
      return;
    }
    // Asked to run again while it ran (enqueue with `again`): pending once more, whatever this run gave.
    const rerun = await update
      .where('attempts', '=', 0)
      .set({ status: 'pending', locked_by: null, locked_until: null, updated_at: now })
      .executeTakeFirst();
    if (Number(rerun.numUpdatedRows) > 0) return;
    if (failure === undefined) {
      await update
        .set({ status: 'completed', locked_by: null, locked_until: null, last_error: null, updated_at: now })
        .execute();
      return;
    }
    const { error } = failure;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error);
    const final = job.attempts >= job.max_attempts;
    await update
      .set({
        status: final ? 'failed' : 'pending',
        run_at: final ? job.run_at : now + retryDelayMs(job.attempts),
        locked_by: null,
        locked_until: null,
        last_error: message.slice(0, 4000),
        updated_at: now,
      })
      .execute();
  }

  return {
    async enqueue(trx: Db, job: NewJob<Tasks>): Promise<void> {
      const now = opts.now();
      await trx
        .insertInto('jobs')
        .values({
          id: crypto.randomUUID(),
          task: job.task,
          key: job.key,
          payload: JSON.stringify(job.payload),
          status: 'pending',
          max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
          run_at: job.runAt ?? now,
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          job.again
            ? oc
                .column('key')
                .doUpdateSet((eb) => ({
                  // A running job may be past the point that reads what changed: it is asked to run
                  // once more when it ends (attempts 0 says so; a running job has counted its attempt).
                  status: sql<
                    JobRow['status']
                  >`case when ${eb.ref('jobs.status')} = 'running' then 'running' else 'pending' end`,
                  attempts: 0,
                  run_at: job.runAt ?? now,
                  last_error: null,
                  payload: JSON.stringify(job.payload),
                  updated_at: now,
                }))
                // A pending job has not started: it will read the fresh state itself.
                .where('jobs.status', 'in', ['completed', 'failed', 'running'])
            : oc.column('key').doNothing(),
        )
        .execute();
      for (const runner of runners) if (runner.tasks.has(job.task)) runner.wake();
    },

    close: () => Promise.resolve(),

    async stats(): Promise<QueueTaskStats[]> {
      const now = opts.now();
      // Unfinished jobs only, through the (status, run_at) index: completed jobs are kept but never read.
      const rows = await db
        .selectFrom('jobs')
        .where('status', 'in', ['pending', 'running'])
        .groupBy('task')
        .select((eb) => {
          const ready = eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]);
          return [
            'task',
            eb.fn.countAll<number | string>().filterWhere(ready).as('ready'),
            eb.fn
              .countAll<number | string>()
              .filterWhere(eb.and([eb('status', '=', 'pending'), eb('run_at', '>', now)]))
              .as('scheduled'),
            eb.fn.countAll<number | string>().filterWhere('status', '=', 'running').as('running'),
            eb.fn.min<number | string | null>('run_at').filterWhere(ready).as('oldest'),
          ];
        })
        .execute();
      // PostgreSQL answers counts and bigints as text.
      return rows.map((row) => ({
        task: row.task,
        ready: Number(row.ready),
        scheduled: Number(row.scheduled),
        running: Number(row.running),
        oldestReadyAt: row.oldest === null ? null : Number(row.oldest),
      }));
    },

    async state(key: string): Promise<JobState | undefined> {
      const row = await db.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirst();
      return (
        row && { status: row.status, attempts: row.attempts, lastError: row.last_error, runAt: row.run_at }
      );
    },

    run(handlers: TaskHandlers<Tasks>, { concurrency, workerId }): QueueRunner {
      // The map's types end here: payloads go to and come from the database as JSON.
      const byTask = handlers as Record<string, TaskHandler<object> | undefined>;
      const tasks = Object.keys(byTask);
      const running = new Map<string, { done: Promise<void>; abort: AbortController }>();
      let stopping = false;
      // Set by a wake that comes while a claim is in flight: that claim may have missed the new job.
      let woken = false;
      let sleeping: (() => void) | undefined;
      const self = {
        tasks: new Set(tasks),
        wake() {
          woken = true;
          sleeping?.();
        },
      };
      runners.add(self);

      const runOne = async (job: JobRow) => {
        const abort = new AbortController();
        const renew = setInterval(() => {
          mine(job)(db.updateTable('jobs'))
            .set({ locked_until: opts.now() + leaseMs })
            .execute()
            .catch((err: unknown) => opts.logger.warn({ err, job: job.id }, 'could not renew a job lease'));
        }, leaseMs / 3);
        const done = (async () => {
          let failure: { error: unknown } | undefined;
          try {
            await byTask[job.task]!(JSON.parse(job.payload) as object, {
              jobId: job.id,
              attempt: job.attempts,
              isLastAttempt: job.attempts >= job.max_attempts,
              signal: abort.signal,
            });
          } catch (error) {
            failure = { error };
            if (!abort.signal.aborted)
              opts.logger.warn({ err: error, job: job.id, task: job.task }, 'job failed');
          } finally {
            clearInterval(renew);
          }
          await finish(job, failure, abort.signal.aborted).catch((err: unknown) =>
            opts.logger.error({ err, job: job.id }, 'could not record a job outcome'),
          );
        })();
        running.set(job.id, { done, abort });
        await done;
        running.delete(job.id);
        self.wake(); // a slot is free
      };

      const loop = (async () => {
        while (!stopping) {
          woken = false;
          let claimed: JobRow | undefined;
          if (running.size < concurrency) {
            claimed = await claim(workerId, tasks).catch((err: unknown) => {
              opts.logger.warn({ err }, 'could not claim a job');
              return undefined;
            });
          }
          if (claimed) {
            void runOne(claimed);
            continue;
          }
          if (woken) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            sleeping = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          sleeping = undefined;
        }
      })();

      return {
        async stop(graceMs = 10_000) {
          stopping = true;
          self.wake();
          await loop;
          runners.delete(self);
          const all = Promise.all([...running.values()].map((r) => r.done));
          const timer = setTimeout(() => running.forEach((r) => r.abort.abort()), graceMs);
          await all;
          clearTimeout(timer);
        },
      };
    },
  };
}
