// `link.opened`, `link.submitted` and `link.expired` (docs/api.md#webhook-events,
// docs/links.md#2-post-superapptoken): recorded in the transaction of the state change they report, and sent
// to the client's webhook URL.
import type { Db, LinkRow } from '../../ports/database.js';
import type { EventType } from '../../domain/webhooks.js';
import { emitEvent, type EmitDeps } from '../webhooks/events.js';

export async function emitLinkEvent(
  trx: Db,
  deps: EmitDeps,
  type: Extract<EventType, `link.${string}`>,
  link: LinkRow,
): Promise<void> {
  const client = await trx
    .selectFrom('clients')
    .select(['id', 'webhook_url', 'webhook_events'])
    .where('id', '=', link.client_id)
    .executeTakeFirstOrThrow();
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  await emitEvent(trx, deps, {
    client,
    type,
    inspectionId: type === 'link.submitted' ? link.id : null,
    data: {
      link_id: link.id,
      case_id: link.case_id,
      persona_id: link.persona_id,
      status: link.status,
      expires_at: iso(link.expires_at),
      opened_at: iso(link.opened_at),
      submitted_at: iso(link.submitted_at),
      // The inspection the link became (its id is the link's), once submitted.
      inspection_id: link.status === 'submitted' ? link.id : null,
    },
  });
}
