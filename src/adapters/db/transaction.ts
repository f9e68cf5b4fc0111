import type { Db } from './schema.js';

/** Runs `fn` in a transaction, joining the caller's when `db` is one already. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
