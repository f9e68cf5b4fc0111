// Fails the run at once, with the reason, when the PostgreSQL the suite needs is not reachable.
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './postgres.js';

export default async function setup(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(
      `The tests need PostgreSQL at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL): ${(error as Error).message}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
