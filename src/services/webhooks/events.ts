// Emitting webhook events (docs/webhooks.md#events): an event becomes a message (its `webhook-id`) and a
// delivery job, both written in the caller's transaction, so an event exists exactly when the state change it
// reports does.
import crypto from 'node:crypto';
import type { ClientRow, Db } from '../../ports/database.js';
import { MAX_INLINE_PAYLOAD_BYTES, type EventEnvelope, type EventType } from '../../domain/webhooks.js';
import type { JobQueue } from '../../ports/job-queue.js';
import { jobKeys } from '../../domain/jobs.js';

export interface EmitDeps {
  queue: JobQueue;
  now: () => number;
  /** Base of links in events too large to inline. */
  publicBaseUrl: string;
}

export interface NewEvent {
  client: Pick<ClientRow, 'id' | 'webhook_url' | 'webhook_events'>;
  type: EventType;
  inspectionId: string | null;
  /** The request's own `callback_url`, for inspection events; link events go to the client's URL. */
  callbackUrl?: string | null;
  data: unknown;
}

/** Records the event for delivery; returns its message id, or null when nobody is to receive it. */
export async function emitEvent(trx: Db, deps: EmitDeps, event: NewEvent): Promise<string | null> {
  const url = (event.type.startsWith('inspection.') && event.callbackUrl) || event.client.webhook_url;
  if (!url || !receives(event.client, event.type)) return null;
  const now = deps.now();
  const id = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
  await trx
    .insertInto('webhook_messages')
    .values({
      id,
      client_id: event.client.id,
      inspection_id: event.inspectionId,
      event_type: event.type,
      url,
      payload: payloadOf(deps, event, now),
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await deps.queue.enqueue(trx, {
    task: 'deliver-webhook',
    key: jobKeys.deliver(id, 1),
    payload: { messageId: id },
  });
  return id;
}

function receives(client: Pick<ClientRow, 'webhook_events'>, type: EventType): boolean {
  return client.webhook_events === null || (JSON.parse(client.webhook_events) as string[]).includes(type);
}

/** The envelope as sent; data too large to inline is replaced by a link the client fetches with its key. */
function payloadOf(deps: EmitDeps, event: NewEvent, now: number): string {
  const envelope: EventEnvelope = {
    type: event.type,
    timestamp: new Date(now).toISOString(),
    data: event.data,
  };
  const body = JSON.stringify(envelope);
  if (Buffer.byteLength(body) <= MAX_INLINE_PAYLOAD_BYTES || event.inspectionId === null) return body;
  return JSON.stringify({
    ...envelope,
    data: {
      inspection_id: event.inspectionId,
      too_large: true,
      result_url: `${deps.publicBaseUrl}/api/inspections/${event.inspectionId}`,
    },
  });
}
