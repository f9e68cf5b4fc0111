// The outbox as operators see it on the command line: link messages (and portal invitations), newest
// first, with their state. Bodies show `[redacted]` where the token goes: the token is in the database
// only sealed.
import { AppError } from '../../domain/errors.js';
import type { Db, OutboxMessageRow, OutboxStatus } from '../../ports/database.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { bodyWithToken } from './message-token.js';

export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['pending', 'sent', 'failed', 'held'];

export interface OutboxFilter {
  clientId?: string | undefined;
  status?: OutboxStatus | undefined;
  limit: number;
}

/** An outbox message as listed: its row, with its times as ISO 8601 text. */
export type OutboxView = Omit<
  OutboxMessageRow,
  'created_at' | 'updated_at' | 'sent_at' | 'link_token_sealed'
> & {
  created_at: string;
  updated_at: string;
  sent_at: string | null;
};

/**
 * The messages matching `filter`; throws CLIENT_NOT_FOUND for a client that does not exist. With
 * `reveal` (the operator's CLI, which holds SECRET_KEY), a message that may still go out shows its link,
 * so that a held one can be passed on by hand.
 */
export async function listOutbox(
  db: Db,
  filter: OutboxFilter,
  reveal?: { secrets: SecretBox },
): Promise<OutboxView[]> {
  let query = db
    .selectFrom('outbox_messages')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(filter.limit);
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const rows = await query.execute();
  // A client with messages exists; only an empty answer needs telling "none yet" from "no such client".
  if (rows.length === 0 && filter.clientId !== undefined) {
    const client = await db
      .selectFrom('clients')
      .select('id')
      .where('id', '=', filter.clientId)
      .executeTakeFirst();
    if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: filter.clientId } });
  }
  return rows.map((row) => outboxView(row, reveal?.secrets));
}

export function outboxView(
  { link_token_sealed: sealed, ...row }: OutboxMessageRow,
  reveal?: SecretBox,
): OutboxView {
  return {
    ...row,
    body: reveal && sealed !== null ? bodyWithToken(row, reveal.open(sealed)) : row.body,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    sent_at: row.sent_at === null ? null : iso(row.sent_at),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
