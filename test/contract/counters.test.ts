// Rate-limit counters on PostgreSQL: several processes starting together on an empty database each
// create the counter table; none of them may fail on the race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/adapters/db/connect.js';
import { createCounter } from '../../src/adapters/rate-limit/attempt-limiter.js';
import { createPostgresDatabase } from '../helpers/postgres.js';

describe('rate-limit counters on PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let databases: Database[];

  beforeAll(async () => {
    postgres = await createPostgresDatabase();
    // One pool per simulated process, so the CREATE TABLEs run on separate connections at once.
    databases = Array.from({ length: 8 }, () => openDatabase({ kind: 'postgres', url: postgres.url }));
  });
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.close()));
    await postgres.drop();
  });

  it('creates the counter table once when eight processes start together', async () => {
    for (let round = 0; round < 5; round++) {
      const counters = await Promise.all(
        databases.map((database) =>
          createCounter(
            { database, redis: undefined },
            { name: `race_${round}`, points: 3, durationSeconds: 60 },
          ),
        ),
      );
      await counters[0]!.penalty('key', 2);
      expect((await counters[7]!.get('key'))?.consumedPoints).toBe(2);
    }
  });
});
