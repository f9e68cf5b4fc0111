// Opens the one database the process uses: SQLite (embedded default, WAL) or PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../../config.js';
import { migrationProvider } from './migrations/index.js';
import type { Db } from './schema.js';

export type Dialect = DatabaseTarget['kind'];

export interface Database {
  db: Db;
  dialect: Dialect;
  /** The driver handle, for libraries that keep their own tables (rate-limit counters). */
  driver: { kind: 'sqlite'; handle: SQLite.Database } | { kind: 'postgres'; handle: pg.Pool };
  close(): Promise<void>;
}

const INT8_OID = 20;

export function openDatabase(target: DatabaseTarget, onIdleError?: (error: Error) => void): Database {
  if (target.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const handle = new SQLite(target.file);
    handle.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before the response that reports it (durability over speed).
    handle.pragma('synchronous = FULL');
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
    const db: Db = new Kysely({ dialect: new SqliteDialect({ database: handle }) });
    return { db, dialect: 'sqlite', driver: { kind: 'sqlite', handle }, close: () => db.destroy() };
  }
  // Times are epoch milliseconds in bigint columns: well inside Number's exact range.
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, Number);
  const handle = new pg.Pool({ connectionString: target.url, max: 20, types });
  // An idle connection the server drops (restart, failover) must not crash the process; the pool
  // replaces it on next use.
  handle.on('error', (error) => onIdleError?.(error));
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool: handle }) });
  return { db, dialect: 'postgres', driver: { kind: 'postgres', handle }, close: () => db.destroy() };
}

/**
 * Applies pending migrations; safe when several processes start at once. PostgreSQL: Kysely takes an
 * advisory lock. SQLite has no lock across connections, but each migration runs in a transaction, so a
 * process that loses the race rolls back and, on its next try, finds the work done.
 */
export async function migrate(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    const failure = error instanceof Error ? error : new Error('migration failed', { cause: error });
    const lostRace =
      database.dialect === 'sqlite' && /already exists|SQLITE_BUSY|database is locked/i.test(failure.message);
    if (!lostRace || attempt === 5) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}
