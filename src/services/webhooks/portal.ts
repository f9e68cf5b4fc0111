// The webhooks in the portal's console. A client's delivery log across its inspections and links (docs/portal.md#clients-api-keys-and-webhooks):
// every webhook message, newest first, filtered by event type, status and day, a page at a time (keyset on
// creation time and id, so pages never shift as new messages arrive).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import type { Db } from '../../ports/database.js';
import { decodeCursor, pageOf, pastKey } from '../keyset-pages.js';
import type { AuditActor } from '../audit.js';
import { administeredClient } from '../clients/portal.js';
import { requireChange, visibleInspection } from '../portal/access.js';
import type { PortalCaller } from '../portal/sessions.js';
import { DeliveryView, resendMessage, withAttempts } from './delivery-log.js';
import { sendTestEvent, type TestEventDeps } from './test-event.js';

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

/** The delivery log of a client the caller administers. */
export async function listClientDeliveries(
  db: Db,
  caller: PortalCaller,
  clientId: string,
  filter: DeliveryFilter,
  page: { cursor?: string | undefined; limit: number },
): Promise<Static<typeof ClientDeliveryPage>> {
  const client = await administeredClient(db, caller, clientId);
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
    .where('m.client_id', '=', client.id);
  if (filter.eventType) q = q.where('m.event_type', '=', filter.eventType);
  if (filter.status) q = q.where('m.status', '=', filter.status);
  if (filter.since !== undefined) q = q.where('m.created_at', '>=', filter.since);
  if (filter.until !== undefined) q = q.where('m.created_at', '<', filter.until);
  if (page.cursor !== undefined)
    q = q.where(pastKey({ at: 'm.created_at', id: 'm.id' }, decodeCursor(page.cursor)));
  const rows = await q
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: shown, next_cursor } = pageOf(rows, page.limit, (row) => ({
    at: row.created_at,
    id: row.id,
  }));
  const views = await withAttempts(db, shown);
  return {
    deliveries: views.map((view, index) => ({
      ...view,
      inspection_id: shown[index]!.inspection_id,
      case_id: shown[index]!.case_id ?? null,
    })),
    next_cursor,
  };
}

/** A signed test event to the webhook URL of a client the caller administers. */
export async function sendClientTestEvent(deps: TestEventDeps, caller: PortalCaller, clientId: string) {
  return sendTestEvent(deps, await administeredClient(deps.db, caller, clientId));
}

type ResendDeps = Parameters<typeof resendMessage>[0];

/**
 * Sends a message again, from the console (a client the caller administers) or from an inspection's page
 * (an inspection the caller sees, and may change); NOT_FOUND for a message outside that scope.
 */
export async function resendFromPortal(
  deps: ResendDeps,
  caller: PortalCaller,
  of: { clientId: string } | { inspectionId: string },
  messageId: string,
  by: AuditActor,
): Promise<{ status: 'queued'; id: string }> {
  let scope: { clientId: string; inspectionId?: string };
  if ('clientId' in of) scope = { clientId: (await administeredClient(deps.db, caller, of.clientId)).id };
  else {
    requireChange(caller);
    const inspection = await visibleInspection(deps.db, caller, of.inspectionId);
    scope = { clientId: inspection.client_id, inspectionId: inspection.id };
  }
  if (!(await resendMessage(deps, messageId, scope, by))) throw new AppError('NOT_FOUND');
  return { status: 'queued', id: messageId };
}
