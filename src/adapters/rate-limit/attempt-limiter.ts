// Failed-attempt counters through rate-limiter-flexible: in Redis when configured (shared by every api
// process), else in the service's own database (SQLite or PostgreSQL), so they also survive restarts.
import type { Redis } from 'ioredis';
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { AttemptLimiter } from '../../ports/attempt-limiter.js';
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
  return new Promise((resolve, reject) => {
    const ready = (error?: unknown) => (error ? reject(toError(error)) : resolve(limiter));
    const tableName = `rate_limit_${opts.table ?? opts.name}`;
    const limiter: RateLimiterAbstract =
      driver.kind === 'sqlite'
        ? new RateLimiterSQLite(
            { ...base, storeClient: driver.handle, storeType: 'better-sqlite3', tableName },
            ready,
          )
        : new RateLimiterPostgres({ ...base, storeClient: driver.handle, tableName }, ready);
  });
}

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
    async recordFailure(key) {
      await counter.penalty(key, 1);
    },
  };
}

const toError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
