// The rate-limit contracts (AttemptLimiter, ActionLimiter, UploadQuota), run against every store the
// counters live in: the service's own database, SQLite and PostgreSQL, and Redis when one answers (the
// global setup chooses it; without one the Redis store is left out and the end of the run says so).
// Every limiter counts and checks in one atomic step, in every store, and its count is shared by every
// api process using the store: here each process has its own connection or client.
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../src/adapters/db/connect.js';
import {
  createActionLimiter,
  createAttemptLimiter,
  type LimiterStore,
} from '../../src/adapters/rate-limit/attempt-limiter.js';
import { createUploadQuota } from '../../src/adapters/rate-limit/upload-quota.js';
import { testEnvironment, type Backend, type TestEnvironment } from '../helpers/backends.js';

// The Redis the global setup found answering, or null (then its store is not in the list).
const REDIS_URL = inject('redisUrl');
const STORES: ReadonlyArray<readonly [string, Backend, string | undefined]> = [
  ['SQLite', 'sqlite', undefined],
  ['PostgreSQL', 'postgres', undefined],
  ...(REDIS_URL ? [['Redis', 'sqlite', REDIS_URL] as const] : []),
];

/**
 * A limiter name no other test uses, in this run or an earlier one sharing the Redis: each name is a table
 * of its own in the database, a key prefix in Redis.
 */
const fresh = (what: string) => `contract_${what}_${crypto.randomBytes(5).toString('hex')}`;

/** The numbers of answers that let the attempt through (0) and that refused it (seconds to wait). */
function tally(answers: number[]) {
  return {
    through: answers.filter((a) => a === 0).length,
    refused: answers.filter((a) => a > 0).length,
  };
}

describe.each(STORES)('rate limiters counted in %s', (_name, backend, redisUrl) => {
  let environment: TestEnvironment;
  const databases: Database[] = [];
  const clients: Redis[] = [];
  /** The counters' store of one api process; each call opens another process's, over the same store. */
  let open: () => LimiterStore;
  let a: LimiterStore;
  let b: LimiterStore;

  beforeAll(async () => {
    environment = await testEnvironment(backend);
    open = () => {
      const database = openDatabase(environment.config.database);
      databases.push(database);
      const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
      if (redis) clients.push(redis);
      return { database, redis };
    };
    a = open();
    b = open();
  });
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await Promise.all(databases.map((d) => d.close()));
    await environment?.cleanup();
  });

  describe('attempt limiter', () => {
    const limiter = (store: LimiterStore, name: string, maxFailures = 3, windowSeconds = 60) =>
      createAttemptLimiter(store, { name, maxFailures, windowSeconds });

    it('lets a key try up to the limit, blocks it from then on, and answers the wait', async () => {
      const failures = await limiter(a, fresh('attempts'));
      expect(await failures.blockedFor('key')).toBe(0);
      expect(await failures.attempt('key')).toBe(0);
      expect(await failures.attempt('key')).toBe(0);
      expect(await failures.blockedFor('key')).toBe(0);
      expect(await failures.attempt('key')).toBe(0);
      // The limit is reached: the key is blocked, and every further failure is one too many.
      const blocked = await failures.blockedFor('key');
      expect(blocked).toBeGreaterThanOrEqual(1);
      expect(blocked).toBeLessThanOrEqual(60);
      for (let i = 0; i < 3; i++) {
        const wait = await failures.attempt('key');
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(60);
        expect(Number.isInteger(wait)).toBe(true);
      }
      expect(await failures.blockedFor('key')).toBeGreaterThanOrEqual(1);
    });

    it('forgives an attempt that was right: it counts no more, and the key has that try back', async () => {
      const attempts = await limiter(a, fresh('forgive'));
      expect([
        await attempts.attempt('key'),
        await attempts.attempt('key'),
        await attempts.attempt('key'),
      ]).toEqual([0, 0, 0]);
      expect(await attempts.blockedFor('key')).toBeGreaterThan(0);
      await attempts.forgive('key');
      expect(await attempts.blockedFor('key')).toBe(0);
      expect(await attempts.attempt('key')).toBe(0);
      expect(await attempts.attempt('key')).toBeGreaterThan(0);
    });

    it('forgets every attempt of a key on reset (an operator lifting a lock), and only that key', async () => {
      const name = fresh('reset');
      const [here, there] = [await limiter(a, name), await limiter(b, name)];
      for (let i = 0; i < 5; i++) await here.attempt('locked');
      await here.attempt('other');
      expect(await there.blockedFor('locked')).toBeGreaterThan(0);
      await there.reset('locked');
      expect(await here.blockedFor('locked')).toBe(0);
      expect([
        await here.attempt('locked'),
        await here.attempt('other'),
        await here.attempt('other'),
      ]).toEqual([0, 0, 0]);
      expect(await here.attempt('other')).toBeGreaterThan(0);
    });

    it('only counts attempts: asking whether a key is blocked counts nothing', async () => {
      const failures = await limiter(a, fresh('asking'));
      for (let i = 0; i < 10; i++) expect(await failures.blockedFor('key')).toBe(0);
      expect([
        await failures.attempt('key'),
        await failures.attempt('key'),
        await failures.attempt('key'),
      ]).toEqual([0, 0, 0]);
    });

    it('counts each key, and each limiter, apart', async () => {
      const name = fresh('apart');
      const failures = await limiter(a, name);
      for (let i = 0; i < 4; i++) await failures.attempt('blocked');
      expect(await failures.blockedFor('blocked')).toBeGreaterThan(0);
      expect(await failures.blockedFor('other')).toBe(0);
      expect(await failures.attempt('other')).toBe(0);
      // A limiter of another name keeps its own count of the same key.
      const another = await limiter(a, fresh('apart'));
      expect(await another.blockedFor('blocked')).toBe(0);
      expect(await another.attempt('blocked')).toBe(0);
    });

    it('shares the count between api processes', async () => {
      const name = fresh('shared');
      const [here, there] = [await limiter(a, name), await limiter(b, name)];
      expect(await here.attempt('key')).toBe(0);
      expect(await there.attempt('key')).toBe(0);
      expect(await here.attempt('key')).toBe(0);
      expect(await there.blockedFor('key')).toBeGreaterThan(0);
      expect(await there.attempt('key')).toBeGreaterThan(0);
    });

    it('lets exactly the limit through when many attempts of one key arrive at once, on two processes', async () => {
      const name = fresh('race');
      const processes = [await limiter(a, name, 10), await limiter(b, name, 10)];
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, i) => processes[i % 2]!.attempt('key')),
      );
      expect(tally(answers)).toEqual({ through: 10, refused: 110 });
      expect(await processes[0]!.blockedFor('key')).toBeGreaterThan(0);
    });

    it('frees the key once the window is over, no later than the wait it answered', async () => {
      const failures = await limiter(a, fresh('window'), 2, 2);
      expect(await failures.attempt('key')).toBe(0);
      expect(await failures.attempt('key')).toBe(0);
      const wait = await failures.attempt('key');
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(2);
      expect(await failures.blockedFor('key')).toBeLessThanOrEqual(wait);
      await sleep(wait * 1000 + 50);
      expect(await failures.blockedFor('key')).toBe(0);
      // A new window: the count starts again.
      expect(await failures.attempt('key')).toBe(0);
      expect(await failures.attempt('key')).toBe(0);
      expect(await failures.attempt('key')).toBeGreaterThan(0);
    });
  });

  describe('action limiter', () => {
    const limiter = (store: LimiterStore, name: string, limit = 3, windowSeconds = 60) =>
      createActionLimiter(store, { name, limit, windowSeconds });

    it('lets `limit` actions of a key go ahead, then answers the wait', async () => {
      const actions = await limiter(a, fresh('actions'));
      expect([await actions.take('key'), await actions.take('key'), await actions.take('key')]).toEqual([
        0, 0, 0,
      ]);
      for (let i = 0; i < 3; i++) {
        const wait = await actions.take('key');
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(60);
        expect(Number.isInteger(wait)).toBe(true);
      }
      expect(await actions.take('other')).toBe(0);
    });

    it('lets exactly `limit` actions through when many arrive at once, on two processes', async () => {
      const name = fresh('race');
      const processes = [await limiter(a, name, 5), await limiter(b, name, 5)];
      const answers = await Promise.all(Array.from({ length: 80 }, (_, i) => processes[i % 2]!.take('key')));
      expect(tally(answers)).toEqual({ through: 5, refused: 75 });
    });

    it('lets actions go ahead again once the window is over, no later than the wait it answered', async () => {
      const actions = await limiter(a, fresh('window'), 1, 2);
      expect(await actions.take('key')).toBe(0);
      const wait = await actions.take('key');
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(2);
      await sleep(wait * 1000 + 50);
      expect(await actions.take('key')).toBe(0);
      expect(await actions.take('key')).toBeGreaterThan(0);
    });
  });

  describe('upload quota', () => {
    // One table, shared by every allowance and every run: the clients are new each time.
    const client = () => `client-${crypto.randomUUID()}`;

    it('takes an hour’s allowance of uploads, then answers the wait (at most an hour)', async () => {
      const quota = createUploadQuota(a);
      const id = client();
      expect([await quota.take(id, 3), await quota.take(id, 3), await quota.take(id, 3)]).toEqual([0, 0, 0]);
      const wait = await quota.take(id, 3);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(3600);
      expect(Number.isInteger(wait)).toBe(true);
      // Another client has its own allowance.
      expect(await quota.take(client(), 3)).toBe(0);
    });

    it('gives back an upload that was taken but not accepted: its place is free again', async () => {
      const quota = createUploadQuota(a);
      const id = client();
      expect(await quota.take(id, 2)).toBe(0);
      expect(await quota.take(id, 2)).toBe(0);
      await quota.giveBack(id, 2);
      expect(await quota.take(id, 2)).toBe(0);
      expect(await quota.take(id, 2)).toBeGreaterThan(0);
    });

    it('counts only what was taken: a refused upload takes no place, so a given-back one frees its own', async () => {
      // docs/api.md#quotas-and-service-windows: "A request takes its place when it is admitted and gives it
      // back if it is rejected, so only accepted uploads count." Two uploads admitted, a third refused
      // while they run, then one of the two rejected: one upload is accepted this hour, of two allowed.
      const quota = createUploadQuota(a);
      const id = client();
      expect(await quota.take(id, 2)).toBe(0);
      expect(await quota.take(id, 2)).toBe(0);
      expect(await quota.take(id, 2)).toBeGreaterThan(0);
      await quota.giveBack(id, 2);
      expect(await quota.take(id, 2)).toBe(0);
      expect(await quota.take(id, 2)).toBeGreaterThan(0);
    });

    it('takes exactly the allowance when many uploads arrive at once, on two processes', async () => {
      const quotas = [createUploadQuota(a), createUploadQuota(b)];
      const id = client();
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => quotas[i % 2]!.take(id, 7)));
      expect(tally(answers)).toEqual({ through: 7, refused: 53 });
      // The other process sees the allowance spent too.
      expect(await createUploadQuota(open()).take(id, 7)).toBeGreaterThan(0);
    });
  });
});
