// Failed-attempt counters through rate-limiter-flexible: in Redis when configured (shared by every api
// process), else in the service's own database (SQLite or PostgreSQL), so they also survive restarts.
import type { Redis } from 'ioredis';
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { ActionLimiter, AttemptLimiter } from '../../ports/attempt-limiter.js';
import type { Database } from '../db/connect.js';

export interface LimiterStore {
  database: Database;
  redis: Redis | undefined;
}

/** A counter backend for `points` per `durationSeconds`, ready when the promise resolves. */
export async function createCounter(
  store: LimiterStore,
  opts: { name: string; points: number; durationSeconds: number; table?: string },
): Promise<RateLimiterAbstract> {
  const base = { keyPrefix: opts.name, points: opts.points, duration: opts.durationSeconds };
  if (store.redis) return new RateLimiterRedis({ ...base, storeClient: store.redis });
  const { driver } = store.database;
  const tableName = `rate_limit_${opts.table ?? opts.name}`;
  const open = () =>
    new Promise<RateLimiterAbstract>((resolve, reject) => {
      const ready = (error?: unknown) => (error ? reject(toError(error)) : resolve(limiter));
      const limiter: RateLimiterAbstract =
        driver.kind === 'sqlite'
          ? new RateLimiterSQLite(
              { ...base, storeClient: driver.handle, storeType: 'better-sqlite3', tableName },
              ready,
            )
          : new RateLimiterPostgres({ ...base, storeClient: driver.handle, tableName }, ready);
    });
  try {
    return await open();
  } catch (error) {
    // The library creates its table at start; PostgreSQL can refuse `CREATE TABLE IF NOT EXISTS` to a
    // process that races another one (the table's row type "already exists"). The table is there then.
    if (driver.kind === 'postgres' && LOST_CREATE_RACE.has((error as { code?: string }).code ?? ''))
      return open();
    throw error;
  }
}

/** duplicate_object, duplicate_table, unique_violation (on the catalogue). */
const LOST_CREATE_RACE = new Set(['42710', '42P07', '23505']);

export async function createAttemptLimiter(
  store: LimiterStore,
  opts: { name: string; maxFailures: number; windowSeconds: number },
): Promise<AttemptLimiter> {
  const counter = await createCounter(store, {
    name: opts.name,
    points: opts.maxFailures,
    durationSeconds: opts.windowSeconds,
  });
  return {
    async blockedFor(key) {
      const res = await counter.get(key);
      if (!res || res.consumedPoints < opts.maxFailures) return 0;
      return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    },
    attempt: (key) => take(counter, key),
    async forgive(key) {
      await counter.reward(key, 1);
    },
    async reset(key) {
      await counter.delete(key);
    },
  };
}

/** One point of `key`, counted and checked in one step: 0 when it was within the limit, else seconds to wait. */
async function take(counter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await counter.consume(key);
    return 0;
  } catch (refusal) {
    // rate-limiter-flexible rejects with its result when the points are spent, with an Error otherwise.
    if (refusal instanceof Error) throw refusal;
    return Math.max(1, Math.ceil((refusal as { msBeforeNext: number }).msBeforeNext / 1000));
  }
}

/** `limit` actions per key in each `windowSeconds`; counting and checking are one atomic step in every store. */
export async function createActionLimiter(
  store: LimiterStore,
  opts: { name: string; limit: number; windowSeconds: number },
): Promise<ActionLimiter> {
  const counter = await createCounter(store, {
    name: opts.name,
    points: opts.limit,
    durationSeconds: opts.windowSeconds,
  });
  return { take: (key) => take(counter, key) };
}

const toError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
