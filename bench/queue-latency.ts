// Enqueue→start latency of the job queues:
//   - the service's database queue on SQLite (the embedded default), with the runner in the enqueueing
//     process (woken by the enqueue) and in another process (it finds the job at its next 250 ms poll;
//     the only path before the in-process wake). Target: p50 under 20 ms in one process.
//   - the two PostgreSQL job-queue libraries the queue port could use (ADR 4): graphile-worker
//     (LISTEN/NOTIFY) and pg-boss (polling), on a throwaway database of the local server.
//
//   npm run bench:queue        (BENCH_JOBS=100 for more samples)
import { setTimeout as sleep } from 'node:timers/promises';
import { run, makeWorkerUtils } from 'graphile-worker';
import PgBoss from 'pg-boss';
import pg from 'pg';
import { migrate, openDatabase } from '../src/adapters/db/connect.js';
import { createDbQueue } from '../src/adapters/queue/db-queue.js';
import { testEnvironment } from '../test/helpers/backends.js';
import { createPostgresDatabase } from '../test/helpers/postgres.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 40);

function summary(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `${name.padEnd(16)} p50 ${at(0.5).padStart(7)} ms   p90 ${at(0.9).padStart(7)} ms   max ${at(1).padStart(7)} ms   (${samples.length} jobs, one at a time)`;
}

/** Sends jobs one at a time; each sample is the time from the committed enqueue to the handler's start. */
async function measure(
  send: (id: number) => Promise<void>,
  started: Map<number, (t: number) => void>,
  pauseMs = 0,
) {
  const samples: number[] = [];
  for (let id = 0; id < JOBS; id++) {
    const begun = new Promise<number>((resolve) => started.set(id, resolve));
    // Enqueued at a random moment of the runner's idle wait, as jobs arrive in service.
    if (pauseMs > 0) await sleep(Math.random() * pauseMs);
    const t0 = performance.now();
    await send(id);
    samples.push((await begun) - t0);
  }
  return samples;
}

/**
 * The database queue on SQLite. `sameProcess`: the runner belongs to the queue that enqueues (one
 * process); otherwise to a second queue on the same database, as a worker process would be.
 */
async function sqliteQueue(sameProcess: boolean): Promise<number[]> {
  const environment = await testEnvironment('sqlite');
  const database = openDatabase(environment.config.database);
  await migrate(database);
  // Another process has a connection of its own to the same file.
  const other = sameProcess ? database : openDatabase(environment.config.database);
  const quiet = { warn: () => undefined, error: () => undefined };
  const make = (db: typeof database) =>
    createDbQueue<{ probe: { id: number } }>({
      db: db.db,
      dialect: db.dialect,
      now: Date.now,
      logger: quiet,
    });
  const producer = make(database);
  const consumer = sameProcess ? producer : make(other);
  const started = new Map<number, (t: number) => void>();
  const runner = consumer.run(
    { probe: async ({ id }) => started.get(id)?.(performance.now()) },
    { concurrency: 2, workerId: 'bench' },
  );
  let key = 0;
  const send = async (id: number) =>
    database.db
      .transaction()
      .execute((trx) => producer.enqueue(trx, { task: 'probe', key: `probe-${key++}`, payload: { id } }));
  await measure(send, started, 300); // warm-up
  const samples = await measure(send, started, 300);
  await runner.stop();
  if (other !== database) await other.close();
  await database.close();
  await environment.cleanup();
  return samples;
}

async function graphile(url: string): Promise<number[]> {
  const started = new Map<number, (t: number) => void>();
  const pool = new pg.Pool({ connectionString: url });
  const runner = await run({
    pgPool: pool,
    concurrency: 2,
    noHandleSignals: true,
    logger: undefined,
    taskList: { probe: async (payload) => started.get((payload as { id: number }).id)?.(performance.now()) },
  });
  const utils = await makeWorkerUtils({ pgPool: pool });
  await measure(async (id) => void (await utils.addJob('probe', { id })), started); // warm-up
  const samples = await measure(async (id) => {
    // Through SQL in a transaction of our own, as the service enqueues.
    const client = await pool.connect();
    await client.query('begin');
    await client.query('select graphile_worker.add_job($1, $2::json)', ['probe', JSON.stringify({ id })]);
    await client.query('commit');
    client.release();
  }, started);
  await utils.release();
  await runner.stop();
  await pool.end();
  return samples;
}

async function pgBoss(url: string): Promise<number[]> {
  const started = new Map<number, (t: number) => void>();
  const boss = new PgBoss({
    connectionString: url,
    pollingIntervalSeconds: 0.5,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('probe');
  await boss.work<{ id: number }>('probe', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    started.get(job!.data.id)?.(performance.now());
  });
  await measure(async (id) => void (await boss.send('probe', { id })), started); // warm-up
  const samples = await measure(async (id) => void (await boss.send('probe', { id })), started);
  await boss.stop({ graceful: false, wait: true });
  return samples;
}

const oneProcess = await sqliteQueue(true);
const twoProcesses = await sqliteQueue(false);
process.stdout.write(
  [
    `Enqueue→start latency of the database queue on SQLite, node ${process.version}`,
    summary('one process', oneProcess) + `   target p50 < 20 ms`,
    summary('other process', twoProcesses) + `   (polls every 250 ms)`,
    '',
  ].join('\n'),
);

const database = await createPostgresDatabase();
try {
  const g = await graphile(database.url);
  const b = await pgBoss(database.url);
  process.stdout.write(
    [
      `Enqueue→start latency on PostgreSQL, node ${process.version}`,
      summary('graphile-worker', g),
      summary('pg-boss (0.5 s)', b),
      '',
    ].join('\n'),
  );
} finally {
  await database.drop();
}
