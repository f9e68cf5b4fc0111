// Keyset pages (docs/portal.md): lists newest first by (time, id), continued from a cursor that names the
// last row shown, never by an offset, so a page never shifts or repeats as new rows arrive. One cursor
// format for every list: base64url of `<time>.<id>`.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { AppError } from '../domain/errors.js';

/** Where a page ends: the time column's value and the id of its last row. */
export interface Keyset {
  at: number;
  id: string;
}

export interface PageRequest {
  cursor?: string | undefined;
  limit: number;
}

export const encodeCursor = (key: Keyset): string => Buffer.from(`${key.at}.${key.id}`).toString('base64url');

/** The position a cursor names; BAD_REQUEST for one this service did not make. */
export function decodeCursor(cursor: string): Keyset {
  const text = Buffer.from(cursor, 'base64url').toString();
  const dot = text.indexOf('.');
  const at = Number(text.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(at)) throw new AppError('BAD_REQUEST');
  return { at, id: text.slice(dot + 1) };
}

/**
 * The rows past `after` in the list's order: older (`newest` first) or newer (`oldest` first). `at` and
 * `id` are the columns, as the query names them (`m.created_at`, `audit_log.id`).
 */
export function pastKey(
  columns: { at: string; id: string },
  after: Keyset,
  order: 'newest' | 'oldest' = 'newest',
): RawBuilder<SqlBool> {
  const beyond = sql.raw(order === 'newest' ? '<' : '>');
  const at = sql.ref(columns.at);
  const id = sql.ref(columns.id);
  return sql<SqlBool>`(${at} ${beyond} ${after.at} or (${at} = ${after.at} and ${id} ${beyond} ${after.id}))`;
}

/**
 * A page from the rows a query read with `limit + 1`: the rows to show, and the cursor of the next page
 * when there is one more.
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => Keyset,
): { rows: Row[]; next_cursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = rows.length > limit ? shown.at(-1) : undefined;
  return { rows: shown, next_cursor: last ? encodeCursor(keyOf(last)) : null };
}
