// The outbox in the portal's console (docs/portal.md#messages): operators see every message, a client
// admin their own client's (an operator's invitation belongs to no client, so only operators see it).
// Texts are shown as stored, with `[redacted]` where the token goes: a link token is a secret, and the
// portal never shows it. Each message says whether it can be sent (held, and its channel now has a
// provider) or re-sent (failed, its token still sealed and its link still open).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import type { Db, OutboxKind, OutboxMessageRow, OutboxStatus } from '../../ports/database.js';
import type { Channel } from '../../ports/notifier.js';
import { requireChange } from '../portal/access.js';
import type { PortalCaller } from '../portal/sessions.js';
import { decodeCursor, pageOf, pastKey } from '../keyset-pages.js';
import type { AuditActor } from '../audit.js';
import { OUTBOX_STATUSES } from './list.js';
import { releaseHeldMessage } from './release-held.js';
import { resendFailedMessage } from './resend-failed.js';

export const OUTBOX_KINDS: readonly OutboxKind[] = ['link', 'invitation', 'password_reset'];

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const PortalOutboxMessage = Type.Object({
  id: Type.String(),
  client_id: Nullable(Type.String()),
  client_name: Nullable(Type.String()),
  kind: literals(OUTBOX_KINDS),
  channel: literals<Channel>(['email', 'sms']),
  recipient: Type.String(),
  subject: Nullable(Type.String()),
  body: Type.String({ description: 'The text as stored: `[redacted]` where the token goes.' }),
  status: literals(OUTBOX_STATUSES),
  attempts: Type.Integer(),
  last_error: Nullable(Type.String()),
  provider_message_id: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
  may_send: Type.Boolean({ description: 'Held, and its channel has a provider now: `…/send` sends it.' }),
  may_resend: Type.Boolean({
    description: 'Failed, and its link can still be used: `…/resend` tries again.',
  }),
});
export type PortalOutboxMessage = Static<typeof PortalOutboxMessage>;

export const PortalOutboxPage = Type.Object({
  messages: Type.Array(PortalOutboxMessage),
  next_cursor: Nullable(Type.String({ description: 'Pass back as `cursor` for the next page.' })),
  counts: Type.Object(
    Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, Type.Integer()])) as Record<
      OutboxStatus,
      ReturnType<typeof Type.Integer>
    >,
    { description: 'Messages per status matching the other filters.' },
  ),
  providers: Type.Object(
    { email: Type.Boolean(), sms: Type.Boolean() },
    { description: 'Whether each channel has a provider (SMTP_URL, SMS_PROVIDER).' },
  ),
});
export type PortalOutboxPage = Static<typeof PortalOutboxPage>;

export interface PortalOutboxFilter {
  clientId?: string | undefined;
  status?: OutboxStatus | undefined;
  kind?: OutboxKind | undefined;
  cursor?: string | undefined;
  limit: number;
}

interface OutboxDeps {
  db: Db;
  now: () => number;
  configured: (channel: Channel) => boolean;
}

/** A page of messages, newest first, with the counts per status; keyset pages (`cursor`). */
export async function listPortalOutbox(
  deps: OutboxDeps,
  caller: PortalCaller,
  filter: PortalOutboxFilter,
): Promise<PortalOutboxPage> {
  requireChange(caller);
  const clientId = caller.clientId ?? filter.clientId;
  let base = deps.db.selectFrom('outbox_messages');
  if (clientId !== undefined) base = base.where('outbox_messages.client_id', '=', clientId);
  if (filter.kind !== undefined) base = base.where('outbox_messages.kind', '=', filter.kind);

  const countRows = await base
    .groupBy('outbox_messages.status')
    .select((eb) => ['outbox_messages.status', eb.fn.countAll<number | string>().as('n')])
    .execute();
  const counts = Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, 0])) as Record<OutboxStatus, number>;
  for (const row of countRows) counts[row.status] = Number(row.n); // PostgreSQL counts are text

  let query = base
    .leftJoin('clients', 'clients.id', 'outbox_messages.client_id')
    .leftJoin('links', 'links.id', 'outbox_messages.link_id')
    .leftJoin('password_links', 'password_links.id', 'outbox_messages.password_link_id')
    .selectAll('outbox_messages')
    .select([
      'clients.name as client_name',
      'links.status as link_status',
      'links.expires_at as link_expires_at',
      'password_links.used_at as password_used_at',
      'password_links.revoked_at as password_revoked_at',
      'password_links.expires_at as password_expires_at',
    ]);
  if (filter.status !== undefined) query = query.where('outbox_messages.status', '=', filter.status);
  if (filter.cursor !== undefined)
    query = query.where(
      pastKey({ at: 'outbox_messages.created_at', id: 'outbox_messages.id' }, decodeCursor(filter.cursor)),
    );
  const rows = await query
    .orderBy('outbox_messages.created_at', 'desc')
    .orderBy('outbox_messages.id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const now = deps.now();
  const page = pageOf(rows, filter.limit, (row) => ({ at: row.created_at, id: row.id }));
  return {
    messages: page.rows.map((row) => {
      const open =
        (row.link_id === null ||
          (row.link_status === 'open' && row.link_expires_at !== null && row.link_expires_at > now)) &&
        (row.password_link_id === null ||
          (row.password_used_at === null &&
            row.password_revoked_at === null &&
            row.password_expires_at !== null &&
            row.password_expires_at > now));
      return {
        ...messageView(row, row.client_name),
        may_send: row.status === 'held' && deps.configured(row.channel),
        may_resend:
          row.status === 'failed' && deps.configured(row.channel) && row.link_token_sealed !== null && open,
      };
    }),
    next_cursor: page.next_cursor,
    counts,
    providers: { email: deps.configured('email'), sms: deps.configured('sms') },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The message as the portal shows it: never its sealed token; the body as stored (redacted). */
function messageView(
  row: OutboxMessageRow,
  clientName: string | null,
): Omit<PortalOutboxMessage, 'may_send' | 'may_resend'> {
  return {
    id: row.id,
    client_id: row.client_id,
    client_name: clientName,
    kind: row.kind,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    provider_message_id: row.provider_message_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    sent_at: row.sent_at === null ? null : iso(row.sent_at),
  };
}

/** Throws NOT_FOUND unless the caller may act on the message (a client admin: their client's only). */
async function requireVisibleMessage(db: Db, caller: PortalCaller, id: string): Promise<void> {
  requireChange(caller);
  let query = db.selectFrom('outbox_messages').select('id').where('id', '=', id);
  if (caller.clientId !== null) query = query.where('client_id', '=', caller.clientId);
  if (!(await query.executeTakeFirst())) throw new AppError('NOT_FOUND');
}

type ActDeps = Parameters<typeof releaseHeldMessage>[0];

/** Sends a held message the caller may act on, once its channel has a provider. */
export async function releaseHeldFor(deps: ActDeps, caller: PortalCaller, id: string, by: AuditActor) {
  await requireVisibleMessage(deps.db, caller, id);
  await releaseHeldMessage(deps, id, by);
  return { id, status: 'pending' as const };
}

/** Sends a failed message the caller may act on again. */
export async function resendFailedFor(deps: ActDeps, caller: PortalCaller, id: string, by: AuditActor) {
  await requireVisibleMessage(deps.db, caller, id);
  await resendFailedMessage(deps, id, by);
  return { id, status: 'pending' as const };
}
