// Throwaway PostgreSQL databases: one per test file, dropped afterwards, on the server of the run.
import crypto from 'node:crypto';
import pg from 'pg';

/**
 * A superuser URL of the server: `TEST_POSTGRES_URL`, else the machine's server on 127.0.0.1:5432.
 * In a test run the global setup (./global-setup.ts) chooses the server before the workers start and
 * sets `TEST_POSTGRES_URL` when it is not that one (an embedded server); the benches use these two.
 */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `walkaround_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
