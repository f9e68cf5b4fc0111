// The JobQueue contract, run against every adapter: the database table queue on SQLite (embedded
// default) and graphile-worker on PostgreSQL (scale mode).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../src/adapters/db/connect.js';
import { createDbQueue } from '../../src/adapters/queue/db-queue.js';
import { createGraphileQueue } from '../../src/adapters/queue/graphile-queue.js';
import type { JobQueue, JobState, TaskHandler } from '../../src/ports/job-queue.js';
import { testEnvironment, type TestEnvironment } from '../helpers/backends.js';

const quiet = { warn: () => undefined, error: () => undefined };
const until = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};
/** A finished job: completed, or removed after success (graphile-worker deletes succeeded jobs). */
const succeeded = (state: JobState | undefined) => state === undefined || state.status === 'completed';

/** The tasks of this suite (the service's own are in src/domain/jobs.ts). */
type TestTasks = {
  t: { n?: number };
  count: { n: number };
  flaky: object;
  again: object;
  slow: object;
  quick: object;
  counted: object;
};

interface Adapter {
  backend: 'sqlite' | 'postgres';
  make(database: Database): Promise<JobQueue<TestTasks>>;
  /** Makes every waiting job due now, so tests need not sit out the backoff. */
  hurry(database: Database): Promise<void>;
  /** The adapter's clock. */
  now(): number;
}

let offset = 0;
const ADAPTERS: Record<string, Adapter> = {
  'database table on sqlite': {
    backend: 'sqlite',
    make: async (database) =>
      createDbQueue<TestTasks>({
        db: database.db,
        dialect: database.dialect,
        now: () => Date.now() + offset,
        logger: quiet,
        pollMs: 20,
      }),
    hurry: async () => void (offset += 3600_000),
    now: () => Date.now() + offset,
  },
  'graphile-worker on postgres': {
    backend: 'postgres',
    make: async (database) => {
      if (database.driver.kind !== 'postgres') throw new Error('needs PostgreSQL');
      return createGraphileQueue<TestTasks>({
        db: database.db,
        pool: database.driver.handle,
        now: Date.now,
        logger: quiet,
        deadAfterMs: 30_000,
      });
    },
    hurry: async (database) =>
      void (await sql`update graphile_worker._private_jobs set run_at = now() where locked_at is null`.execute(
        database.db,
      )),
    now: Date.now,
  },
};

describe.each(Object.entries(ADAPTERS))('job queue: %s', (_name, adapter) => {
  let environment: TestEnvironment;
  let database: Database;
  let q: JobQueue<TestTasks>;

  beforeAll(async () => {
    environment = await testEnvironment(adapter.backend);
    database = openDatabase(environment.config.database);
    await migrate(database);
    q = await adapter.make(database);
  });
  afterAll(async () => {
    await q?.close();
    await database?.close();
    await environment?.cleanup();
  });

  it('enqueues only with the transaction that commits; one job per key', async () => {
    await database.db
      .transaction()
      .execute(async (trx) => {
        await q.enqueue(trx, { task: 't', key: 'rolled-back', payload: {} });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await q.state('rolled-back')).toBeUndefined();
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 't', key: 'once', payload: { n: 1 } }));
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 't', key: 'once', payload: { n: 2 } }));
    expect((await q.state('once'))?.status).toBe('pending');
    const seen: unknown[] = [];
    const runner = q.run(
      { t: async (payload) => void seen.push(payload) },
      { concurrency: 1, workerId: 'w-once' },
    );
    await until(async () => succeeded(await q.state('once')) && seen.length > 0);
    await runner.stop();
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('runs each job exactly once across competing runners', async () => {
    const seen: number[] = [];
    const handler: TaskHandler<TestTasks['count']> = async (payload) => {
      seen.push(payload.n);
      await new Promise((r) => setTimeout(r, 5));
    };
    await database.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 30; n++) await q.enqueue(trx, { task: 'count', key: `count-${n}`, payload: { n } });
    });
    const runners = [1, 2, 3].map((i) => q.run({ count: handler }, { concurrency: 3, workerId: `w${i}` }));
    await until(() => seen.length >= 30);
    await new Promise((r) => setTimeout(r, 200)); // a duplicate run would show up here
    await Promise.all(runners.map((r) => r.stop()));
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    for (let n = 0; n < 30; n++) expect(succeeded(await q.state(`count-${n}`))).toBe(true);
  });

  it('retries a failure with growing delays, then keeps it as failed with its last error', async () => {
    let calls = 0;
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 'flaky', key: 'flaky-1', payload: {}, maxAttempts: 3 }));
    const runner = q.run(
      {
        flaky: () => {
          calls++;
          return Promise.reject(new Error(`boom ${calls}`));
        },
      },
      { concurrency: 1, workerId: 'w-flaky' },
    );
    const waitingAfter = async (attempts: number) => {
      await until(async () => {
        const s = await q.state('flaky-1');
        return s?.status === 'pending' && s.attempts === attempts;
      });
      return (await q.state('flaky-1'))!;
    };
    const first = await waitingAfter(1);
    const firstDelay = first.runAt - adapter.now();
    expect(firstDelay).toBeGreaterThan(2_000); // backs off, does not spin
    await adapter.hurry(database);
    const second = await waitingAfter(2);
    expect(second.runAt - adapter.now()).toBeGreaterThan(firstDelay); // the delay grows
    await adapter.hurry(database);
    await until(async () => (await q.state('flaky-1'))?.status === 'failed');
    await runner.stop();
    const failed = await q.state('flaky-1');
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed?.lastError).toContain('boom 3');
    expect(calls).toBe(3);
  });

  it('runs a job again after re-arming it (re-analysis)', async () => {
    let runs = 0;
    const runner = q.run({ again: async () => void runs++ }, { concurrency: 1, workerId: 'w-again' });
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 'again', key: 'again-1', payload: {} }));
    await until(() => runs === 1);
    await until(async () => succeeded(await q.state('again-1')));
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 'again', key: 'again-1', payload: {}, again: true }));
    await until(() => runs === 2);
    await runner.stop();
  });

  it('runs a job once more when it is re-armed while it runs (its run may be past what changed)', async () => {
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runner = q.run(
      {
        again: async () => {
          runs++;
          if (runs === 1) await held;
        },
      },
      { concurrency: 1, workerId: 'w-rearm' },
    );
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 'again', key: 'again-2', payload: {} }));
    await until(() => runs === 1);
    await database.db
      .transaction()
      .execute((trx) => q.enqueue(trx, { task: 'again', key: 'again-2', payload: {}, again: true }));
    release();
    await until(() => runs === 2);
    await until(async () => succeeded(await q.state('again-2')));
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toBe(2);
    await runner.stop();
  });

  it('runs the tasks of one runner while another runner of the same queue is busy (lanes)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let slowStarted = 0;
    let quickDone = 0;
    const slowLane = q.run(
      { slow: async () => void (slowStarted++, await held) },
      { concurrency: 1, workerId: 'w-slow-lane' },
    );
    const quickLane = q.run(
      { quick: async () => void quickDone++ },
      { concurrency: 1, workerId: 'w-quick-lane' },
    );
    await database.db.transaction().execute(async (trx) => {
      for (let n = 0; n < 3; n++) await q.enqueue(trx, { task: 'slow', key: `slow-${n}`, payload: {} });
      await q.enqueue(trx, { task: 'quick', key: 'quick-1', payload: {} });
    });
    await until(() => quickDone === 1);
    expect(slowStarted).toBe(1); // the slow lane is still on its first job, holding its one slot
    release();
    await until(async () => succeeded(await q.state('slow-2')));
    await Promise.all([slowLane.stop(), quickLane.stop()]);
  });

  it('reports the unfinished jobs of a task: ready, scheduled, running, and since when the oldest ready one is due', async () => {
    const start = adapter.now();
    const counted = async () => (await q.stats()).find((s) => s.task === 'counted');
    await database.db.transaction().execute(async (trx) => {
      await q.enqueue(trx, { task: 'counted', key: 'counted-late', payload: {}, runAt: start - 5000 });
      await q.enqueue(trx, { task: 'counted', key: 'counted-now', payload: {}, runAt: start });
      await q.enqueue(trx, {
        task: 'counted',
        key: 'counted-next-year',
        payload: {},
        runAt: start + 365 * 86400_000,
      });
    });
    const waiting = await counted();
    expect(waiting).toMatchObject({ ready: 2, scheduled: 1, running: 0 });
    expect(Math.abs(waiting!.oldestReadyAt! - (start - 5000))).toBeLessThan(50);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const runner = q.run(
      { counted: async () => void (started++, await held) },
      { concurrency: 1, workerId: 'w-counted' },
    );
    await until(() => started === 1);
    expect(await counted()).toMatchObject({ ready: 1, scheduled: 1, running: 1 });
    release();
    await until(async () => (await counted())?.ready === 0 && (await counted())?.running === 0);
    // Finished jobs are not counted; the one due next year still waits.
    expect(await counted()).toMatchObject({ ready: 0, scheduled: 1, running: 0, oldestReadyAt: null });
    await runner.stop();
  });
});

describe('job queue: database table, a job enqueued in this process', () => {
  let environment: TestEnvironment;
  let database: Database;

  beforeAll(async () => {
    environment = await testEnvironment('sqlite');
    database = openDatabase(environment.config.database);
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await environment?.cleanup();
  });

  it('starts at once, without waiting for the next poll', async () => {
    // A poll a minute: only the wake from the enqueue can start the job within the test's time.
    const q = createDbQueue<TestTasks>({
      db: database.db,
      dialect: database.dialect,
      now: Date.now,
      logger: quiet,
      pollMs: 60_000,
    });
    const starts: number[] = [];
    const runner = q.run(
      { quick: async () => void starts.push(Date.now()) },
      { concurrency: 1, workerId: 'w' },
    );
    await new Promise((r) => setTimeout(r, 100)); // the runner has found nothing and sleeps
    for (let n = 0; n < 3; n++) {
      await database.db
        .transaction()
        .execute((trx) => q.enqueue(trx, { task: 'quick', key: `wake-${n}`, payload: {} }));
      await until(() => starts.length === n + 1, 5_000);
    }
    await runner.stop();
  });
});
