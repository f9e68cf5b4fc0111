// Opens the one database the process uses: SQLite (embedded default, WAL) or PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget, FileModes } from '../../config.js';
import { migrationProvider } from './migrations/index.js';
import type { Db } from '../../ports/database.js';

export type Dialect = DatabaseTarget['kind'];

export interface Database {
  db: Db;
  dialect: Dialect;
  /** The driver handle, for libraries that keep their own tables (rate-limit counters). */
  driver: { kind: 'sqlite'; handle: SQLite.Database } | { kind: 'postgres'; handle: pg.Pool };
  close(): Promise<void>;
}

const INT8_OID = 20;

/**
 * The database holds personal data, password hashes and sealed secrets: it is created with the file mode
 * of FILE_MODE before SQLite opens it (SQLite gives its WAL and shared-memory files the database file's
 * mode), and an existing one, with its WAL, is set to it.
 */
function protectSqliteFiles(file: string, modes: FileModes): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: modes.dir });
  fs.closeSync(fs.openSync(file, 'a', modes.file));
  for (const name of [file, `${file}-wal`, `${file}-shm`])
    if (fs.existsSync(name)) fs.chmodSync(name, modes.file);
}

export function openDatabase(target: DatabaseTarget, onIdleError?: (error: Error) => void): Database {
  if (target.kind === 'sqlite') {
    protectSqliteFiles(target.file, target.modes);
    const handle = withStatementCache(new SQLite(target.file));
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
  // A checked-out client can fail too (for example a LISTEN connection held by the job queue).
  handle.on('connect', (client) => client.on('error', (error) => onIdleError?.(error)));
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool: handle }) });
  return { db, dialect: 'postgres', driver: { kind: 'postgres', handle }, close: () => db.destroy() };
}

/**
 * Applies pending migrations; safe when several processes start at once. PostgreSQL: Kysely takes an
 * advisory lock and runs each migration in a transaction. SQLite: Kysely takes no lock, so the whole
 * run happens inside one `BEGIN IMMEDIATE` transaction: the other processes wait for the write lock
 * (busy_timeout), then find the work done. Nothing else uses the connection while the service starts.
 */
export async function migrate(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
  const run = async (): Promise<string[]> => {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  };
  if (database.driver.kind === 'postgres') return run();
  const { handle } = database.driver;
  handle.exec('BEGIN IMMEDIATE');
  try {
    const applied = await run();
    handle.exec('COMMIT');
    return applied;
  } catch (error) {
    if (handle.inTransaction) handle.exec('ROLLBACK');
    throw error;
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 compiles SQL on every prepare() and Kysely prepares each query anew; reusing compiled
 * statements (keyed by their SQL text, which holds no values) removes the largest cost of a small query.
 * Safe because one connection runs one statement at a time.
 */
function withStatementCache(handle: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (source: string): SQLite.Statement => {
    let statement = cache.get(source);
    if (!statement) {
      statement = handle.prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(handle, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
