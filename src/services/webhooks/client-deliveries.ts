// A client's delivery log across its inspections and links (docs/portal.md#clients-api-keys-and-webhooks):
// every webhook message, newest first, filtered by event type, status and day, a page at a time (keyset on
// creation time and id, so pages never shift as new messages arrive).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import type { Db } from '../../ports/database.js';
import { DeliveryView, withAttempts } from './deliveries.js';

export const ClientDelivery = Type.Composite([
  DeliveryView,
  Type.Object({
    inspection_id: Nullable(Type.String(), { description: 'Null for a link event before its submit.' }),
    case_id: Nullable(Type.String()),
  }),
]);

export const ClientDeliveryPage = Type.Object({
  deliveries: Type.Array(ClientDelivery),
  next_cursor: Nullable(
    Type.String({ description: 'Pass back as `cursor` for the next page; null on the last.' }),
  ),
});

export interface DeliveryFilter {
  eventType?: string | undefined;
  status?: 'pending' | 'delivered' | 'failed' | undefined;
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  /** Epoch ms, exclusive. */
  until?: number | undefined;
}

export async function listClientDeliveries(
  db: Db,
  clientId: string,
  filter: DeliveryFilter,
  page: { cursor?: string | undefined; limit: number },
): Promise<Static<typeof ClientDeliveryPage>> {
  let q = db
    .selectFrom('webhook_messages as m')
    .leftJoin('inspections as i', 'i.id', 'm.inspection_id')
    // Not the payload: a page of results could weigh megabytes, and the log shows the attempts.
    .select([
      'm.id',
      'm.event_type',
      'm.url',
      'm.status',
      'm.next_attempt_at',
      'm.created_at',
      'm.inspection_id',
      'i.case_id',
    ])
    .where('m.client_id', '=', clientId);
  if (filter.eventType) q = q.where('m.event_type', '=', filter.eventType);
  if (filter.status) q = q.where('m.status', '=', filter.status);
  if (filter.since !== undefined) q = q.where('m.created_at', '>=', filter.since);
  if (filter.until !== undefined) q = q.where('m.created_at', '<', filter.until);
  if (page.cursor !== undefined) {
    const after = decodeCursor(page.cursor);
    q = q.where((eb) =>
      eb.or([
        eb('m.created_at', '<', after.at),
        eb.and([eb('m.created_at', '=', after.at), eb('m.id', '<', after.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  const views = await withAttempts(db, shown);
  const last = rows.length > page.limit ? shown.at(-1) : undefined;
  return {
    deliveries: views.map((view, index) => ({
      ...view,
      inspection_id: shown[index]!.inspection_id,
      case_id: shown[index]!.case_id ?? null,
    })),
    next_cursor: last ? Buffer.from(`${last.created_at}.${last.id}`).toString('base64url') : null,
  };
}

function decodeCursor(cursor: string): { at: number; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString();
  const dot = text.indexOf('.');
  const at = Number(text.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(at)) throw new AppError('BAD_REQUEST');
  return { at, id: text.slice(dot + 1) };
}
