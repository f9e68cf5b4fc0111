// The audit log (docs/audit.md, ADR 13): one entry for every state change made through the portal, the CLI or
// the client API: who (a portal user, an API key by its visible prefix, the CLI, or the service itself),
// did what, to which object, when, with the settings before and after. Entries are written in the
// transaction of the change they record, so there is never a change without its entry or an entry
// without its change; the table refuses updates and deletes (migration 0011).
//
// Secrets never enter it: snapshots keep only fields that are not secret by name, and drop any value
// that has the shape of one (an API key, a webhook secret, a JWT).
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { API_KEY_PREFIX, API_KEY_VISIBLE_CHARS, WEBHOOK_SECRET_PREFIX } from '../domain/secret-formats.js';
import type { AuditAction } from '../domain/audit-actions.js';
import { Nullable } from '../domain/schema.js';
import type { AuditLogRow, Db } from '../ports/database.js';
import { decodeCursor, pageOf, pastKey, type Keyset, type PageRequest } from './keyset-pages.js';
import { clientScope, requireChange } from './portal/access.js';
import type { PortalCaller } from './portal/sessions.js';

/** Who made a change, and through which HTTP request when one did (its id: the log's `request_id`). */
export type AuditActor = (
  | { kind: 'user'; id: string; email: string }
  | { kind: 'api_key'; prefix: string; apiKeyId: string }
  | { kind: 'cli' }
  | { kind: 'system' }
) & { requestId?: string };

export const CLI_ACTOR: AuditActor = { kind: 'cli' };
/** A portal user, as the audit log names them (with the request they are making, when given). */
export const portalActor = (caller: { userId: string; email: string; requestId?: string }): AuditActor => ({
  kind: 'user',
  id: caller.userId,
  email: caller.email,
  ...(caller.requestId !== undefined && { requestId: caller.requestId }),
});
export const SYSTEM_ACTOR: AuditActor = { kind: 'system' };

export interface AuditChange {
  actor: AuditActor;
  action: AuditAction;
  object: { type: string; id: string };
  /** The client the object belongs to; null for what belongs to none (operators, signing keys). */
  clientId: string | null;
  before?: unknown;
  after?: unknown;
}

/** Records one change, in the transaction `db` of the change itself. */
export async function recordAudit(db: Db, now: number, change: AuditChange): Promise<void> {
  const { actor } = change;
  await db
    .insertInto('audit_log')
    .values({
      id: crypto.randomUUID(),
      at: now,
      actor_kind: actor.kind,
      actor: actor.kind === 'user' ? actor.email : actor.kind === 'api_key' ? actor.prefix : actor.kind,
      actor_id: actor.kind === 'user' ? actor.id : actor.kind === 'api_key' ? actor.apiKeyId : null,
      client_id: change.clientId,
      action: change.action,
      object_type: change.object.type,
      object_id: change.object.id,
      before: change.before === undefined ? null : JSON.stringify(auditSnapshot(change.before)),
      after: change.after === undefined ? null : JSON.stringify(auditSnapshot(change.after)),
      request_id: actor.requestId ?? null,
    })
    .execute();
}

/** Field names that hold secrets or their digests, in any object the log is given. */
const SECRET_NAME = /secret|password|hash|token|_enc$|^key$|api_?key|private/i;

/**
 * Values that hold a secret of ours, or a JWT, whatever field they are in. A key's visible prefix
 * (`wk_live_` and 6 characters) names it without being it, and stays.
 */
function looksSecret(value: string): boolean {
  return (
    (value.startsWith(API_KEY_PREFIX) && value.length > API_KEY_VISIBLE_CHARS) ||
    value.startsWith(WEBHOOK_SECRET_PREFIX) ||
    /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value)
  );
}

/** A copy of `value` fit for the log: secret fields left out, secret-looking values replaced. */
export function auditSnapshot(value: unknown): unknown {
  if (typeof value === 'string') return looksSecret(value) ? '[secret]' : value;
  if (Array.isArray(value)) return value.map(auditSnapshot);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (SECRET_NAME.test(name) || field === undefined) continue;
    copy[name] = auditSnapshot(field);
  }
  return copy;
}

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor_kind: Type.Union([
    Type.Literal('user'),
    Type.Literal('api_key'),
    Type.Literal('cli'),
    Type.Literal('system'),
  ]),
  actor: Type.String({ description: "The user's e-mail, the API key's visible prefix, `cli` or `system`." }),
  client_id: Nullable(Type.String()),
  client_name: Nullable(Type.String({ description: "The client's name now." })),
  action: Type.String(),
  object_type: Type.String(),
  object_id: Type.String(),
  object_name: Type.Optional(
    Nullable(
      Type.String({
        description:
          "What the object is called now: a user's e-mail, an inspection's case id, a persona's or vehicle's name; null when it no longer exists.",
      }),
    ),
  ),
  before: Nullable(Type.Unknown()),
  after: Nullable(Type.Unknown()),
  request_id: Nullable(Type.String()),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const auditEntry = (row: AuditLogRow & { client_name: string | null }): AuditEntry => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  actor_kind: row.actor_kind,
  actor: row.actor,
  client_id: row.client_id,
  client_name: row.client_name,
  action: row.action,
  object_type: row.object_type,
  object_id: row.object_id,
  before: row.before === null ? null : (JSON.parse(row.before) as unknown),
  after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  request_id: row.request_id,
});

export interface AuditFilter {
  /** Only this client's entries (client admins: always their own). */
  clientId?: string | undefined;
  action?: string | undefined;
  actor?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  /** Epoch ms, exclusive. */
  until?: number | undefined;
}

/**
 * Entries matching the filter, newest first, a page at a time (keyset: pass the last entry's `at` and
 * `id` as `before`), or oldest first for an export.
 */
export function auditQuery(db: Db, filter: AuditFilter, order: 'newest' | 'oldest', after?: Keyset) {
  let q = db
    .selectFrom('audit_log')
    .leftJoin('clients', 'clients.id', 'audit_log.client_id')
    .selectAll('audit_log')
    .select('clients.name as client_name');
  if (filter.clientId !== undefined) q = q.where('audit_log.client_id', '=', filter.clientId);
  if (filter.action) q = q.where('audit_log.action', '=', filter.action);
  if (filter.actor) q = q.where('audit_log.actor', '=', filter.actor);
  if (filter.objectType) q = q.where('audit_log.object_type', '=', filter.objectType);
  if (filter.objectId) q = q.where('audit_log.object_id', '=', filter.objectId);
  if (filter.since !== undefined) q = q.where('audit_log.at', '>=', filter.since);
  if (filter.until !== undefined) q = q.where('audit_log.at', '<', filter.until);
  const direction = order === 'newest' ? 'desc' : 'asc';
  if (after) q = q.where(pastKey({ at: 'audit_log.at', id: 'audit_log.id' }, after, order));
  return q.orderBy('audit_log.at', direction).orderBy('audit_log.id', direction);
}

/** Every matching entry, oldest first, in pages: for `walkaround audit export`. */
export async function* exportAudit(db: Db, filter: AuditFilter, pageSize = 500): AsyncGenerator<AuditEntry> {
  let after: Keyset | undefined;
  for (;;) {
    const rows = await auditQuery(db, filter, 'oldest', after).limit(pageSize).execute();
    for (const row of rows) yield auditEntry(row);
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return;
    after = { at: last.at, id: last.id };
  }
}

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry),
  next_cursor: Nullable(
    Type.String({ description: 'Pass back as `cursor` for the next page; null on the last.' }),
  ),
});

/**
 * The entries the caller may read, a page at a time: an operator every client's (or the one they
 * choose), a client admin their own client's; a viewer none (it is part of administering a client).
 */
export async function listAuditFor(
  db: Db,
  caller: PortalCaller,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Static<typeof AuditPage>> {
  requireChange(caller);
  return listAudit(db, { ...filter, clientId: clientScope(caller, filter.clientId) }, page);
}

/** A page of entries, newest first; `cursor` continues a previous page. */
export async function listAudit(
  db: Db,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Static<typeof AuditPage>> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const rows = await auditQuery(db, filter, 'newest', after)
    .limit(page.limit + 1)
    .execute();
  const { rows: shown, next_cursor } = pageOf(rows, page.limit, (row) => row);
  const names = await objectNames(db, shown);
  return {
    entries: shown.map((row) => ({
      ...auditEntry(row),
      object_name: names.get(`${row.object_type}:${row.object_id}`) ?? null,
    })),
    next_cursor,
  };
}

/**
 * The names of a page's objects, by `type:id`, one query per kind of object: a person reads an e-mail,
 * a case id or a persona's name, not a UUID.
 */
async function objectNames(
  db: Db,
  rows: { object_type: string; object_id: string }[],
): Promise<Map<string, string>> {
  const idsOf = (type: string) => [
    ...new Set(rows.filter((r) => r.object_type === type).map((r) => r.object_id)),
  ];
  const names = new Map<string, string>();
  const put = (type: string, found: { id: string | number; name: string | null }[]) => {
    for (const { id, name } of found) if (name) names.set(`${type}:${id}`, name);
  };
  const users = idsOf('user');
  if (users.length > 0)
    put(
      'user',
      await db.selectFrom('portal_users').select(['id', 'email as name']).where('id', 'in', users).execute(),
    );
  const inspections = idsOf('inspection');
  if (inspections.length > 0)
    put(
      'inspection',
      await db
        .selectFrom('inspections')
        .select(['id', 'case_id as name'])
        .where('id', 'in', inspections)
        .execute(),
    );
  const personas = idsOf('persona')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id));
  if (personas.length > 0)
    put(
      'persona',
      await db.selectFrom('personas').select(['id', 'name']).where('id', 'in', personas).execute(),
    );
  const vehicles = idsOf('vehicle');
  if (vehicles.length > 0)
    put(
      'vehicle',
      (
        await db.selectFrom('vehicles').select(['id', 'plate', 'vin']).where('id', 'in', vehicles).execute()
      ).map((v) => ({ id: v.id, name: v.plate ?? v.vin })),
    );
  return names;
}
