// Background jobs. A job is enqueued in the same database transaction as the state it follows, so it
// exists exactly when that state is committed; a runner claims due jobs, runs their task, and retries a
// failure on a capped backoff until its attempts are used up, then keeps it as failed with its error.
// The queue is typed by a map of task names to payloads: the service's own is domain/jobs.ts; a contract
// test may bring its own.
import type { JobPayloads } from '../domain/jobs.js';
import type { Db } from './database.js';

/** Task names to payload types. */
export type TaskMap = { [task: string]: object };

/** A job of one of the map's tasks, its payload of that task's type. */
export type NewJob<Tasks extends TaskMap = JobPayloads> = {
  [T in keyof Tasks & string]: {
    /** Name of the task that runs it, for example `analyse-inspection`. */
    task: T;
    /** Idempotency key: enqueueing a key that already has a job does nothing. */
    key: string;
    payload: Tasks[T];
    /** Epoch ms; default now. */
    runAt?: number;
    maxAttempts?: number;
    /** Runs the job again when its key exists and has finished (completed or failed): re-analysis. */
    again?: boolean;
  };
}[keyof Tasks & string];

export interface JobContext {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  /** When this run fails, the job fails for good. */
  isLastAttempt: boolean;
  /** Aborted when the runner stops and the job must hand itself back. */
  signal: AbortSignal;
}

/** Runs one job; throwing schedules a retry (or fails the job for good on its last attempt). */
export type TaskHandler<Payload extends object = Record<string, unknown>> = (
  payload: Payload,
  context: JobContext,
) => Promise<void>;

/** The handlers a runner takes: any subset of the map's tasks (a runner claims only these). */
export type TaskHandlers<Tasks extends TaskMap = JobPayloads> = {
  [T in keyof Tasks & string]?: TaskHandler<Tasks[T]>;
};

export interface JobState {
  status: 'pending' | 'running' | 'completed' | 'failed';
  attempts: number;
  lastError: string | null;
  runAt: number;
}

/** The unfinished jobs of one task, for a scrape (docs/ops/metrics.md). */
export interface QueueTaskStats {
  task: string;
  /** Due and waiting for a runner. */
  ready: number;
  /** Waiting for their time: retries, link expiries. */
  scheduled: number;
  running: number;
  /** `run_at` (epoch ms) of the ready job that has waited longest; null when none is ready. */
  oldestReadyAt: number | null;
}

export interface QueueRunner {
  /** Stops claiming; waits for running jobs up to `graceMs`, then aborts them and hands them back. */
  stop(graceMs?: number): Promise<void>;
}

export interface JobQueue<Tasks extends TaskMap = JobPayloads> {
  /** Adds the job inside `trx` (a Kysely transaction), or does nothing when its key exists. */
  enqueue(trx: Db, job: NewJob<Tasks>): Promise<void>;
  /** Starts claiming and running due jobs of the given tasks, at most `concurrency` at a time. */
  run(handlers: TaskHandlers<Tasks>, opts: { concurrency: number; workerId: string }): QueueRunner;
  /**
   * The job's state by key, for progress and tests; undefined when there is no such job (never
   * enqueued, or removed after it succeeded: an adapter may delete succeeded jobs).
   */
  state(key: string): Promise<JobState | undefined>;
  /**
   * The backlog of every task that has unfinished jobs, in one query over unfinished jobs only (finished
   * ones are never read, however many are kept); read on a Prometheus scrape.
   */
  stats(): Promise<QueueTaskStats[]>;
  /** Releases what the queue holds (connections); stop every runner first. */
  close(): Promise<void>;
}
