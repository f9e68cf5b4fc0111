// The delivery log (docs/webhooks.md#the-delivery-log-and-re-sending): every message of an inspection with
// its attempts, and re-sending by hand.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import { recordAudit, type AuditActor } from '../audit.js';
import { jobKeys } from '../../domain/jobs.js';
import type { ActionLimiter } from '../../ports/attempt-limiter.js';
import { type Db, inTransaction, type WebhookMessageRow } from '../../ports/database.js';
import type { JobQueue } from '../../ports/job-queue.js';

const attemptFields = {
  attempt: Type.Integer({ minimum: 1 }),
  at: Type.String({ format: 'date-time' }),
  url: Type.String(),
  status_code: Nullable(Type.Integer()),
  latency_ms: Type.Number(),
  response_excerpt: Nullable(Type.String()),
  error: Nullable(Type.String()),
  outcome: Type.String({ description: '`delivered`, `retry`, `failed` or `refused`.' }),
};
const deliveryFields = {
  id: Type.String({ description: 'The message id, sent as `webhook-id`.' }),
  event_type: Type.String(),
  url: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Array(Type.Object(attemptFields)),
  next_attempt_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
};

/** A webhook message of an inspection, with each delivery attempt (docs/webhooks.md#the-delivery-log-and-re-sending). */
export const DeliveryView = Type.Object(deliveryFields);
export type DeliveryView = Static<typeof DeliveryView>;

/**
 * A delivery as someone reads it who may see the inspection but does not administer its client (a
 * client viewer): when and how each attempt went, without the receiver's URL (webhook URLs are often
 * secret), its answers or the errors (which name its host).
 */
export const DeliveryOutline = Type.Object({
  ...deliveryFields,
  url: Type.Optional(deliveryFields.url),
  attempts: Type.Array(
    Type.Object({
      ...attemptFields,
      url: Type.Optional(attemptFields.url),
      response_excerpt: Type.Optional(attemptFields.response_excerpt),
      error: Type.Optional(attemptFields.error),
    }),
  ),
});
export type DeliveryOutline = Static<typeof DeliveryOutline>;

/** The delivery without the receiver's details, copied field by field (an allow-list). */
export function deliveryOutline(view: DeliveryView): DeliveryOutline {
  return {
    id: view.id,
    event_type: view.event_type,
    status: view.status,
    attempts: view.attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      outcome: a.outcome,
    })),
    next_attempt_at: view.next_attempt_at,
    created_at: view.created_at,
  };
}

/** The answer to a re-send: the message is queued again. */
export const ResendAnswer = Type.Object({ status: Type.Literal('queued'), id: Type.String() });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The inspection's messages, oldest first, or undefined when the inspection is not the client's. */
export async function listDeliveries(
  db: Db,
  clientId: string,
  inspectionId: string,
): Promise<DeliveryView[] | undefined> {
  const inspection = await db
    .selectFrom('inspections')
    .select('id')
    .where('id', '=', inspectionId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!inspection) return undefined;
  const messages = await db
    .selectFrom('webhook_messages')
    .selectAll()
    .where('inspection_id', '=', inspectionId)
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .execute();
  return withAttempts(db, messages);
}

/** The messages as the delivery log shows them, each with its attempts in order. */
export async function withAttempts(
  db: Db,
  messages: Pick<
    WebhookMessageRow,
    'id' | 'event_type' | 'url' | 'status' | 'next_attempt_at' | 'created_at'
  >[],
): Promise<DeliveryView[]> {
  const attempts =
    messages.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'message_id',
            'in',
            messages.map((m) => m.id),
          )
          .orderBy('started_at')
          .orderBy('attempt')
          .execute();
  return messages.map((m) => ({
    id: m.id,
    event_type: m.event_type,
    url: m.url,
    status: m.status,
    attempts: attempts
      .filter((a) => a.message_id === m.id)
      .map((a) => ({
        attempt: a.attempt,
        at: new Date(a.started_at).toISOString(),
        url: a.url,
        status_code: a.status_code,
        latency_ms: a.latency_ms,
        response_excerpt: a.response_excerpt,
        error: a.error,
        outcome: a.outcome,
      })),
    next_attempt_at: iso(m.next_attempt_at),
    created_at: new Date(m.created_at).toISOString(),
  }));
}

/**
 * Queues one more attempt of the message (same `webhook-id`), unless one is already waiting; false when
 * there is no such message in the scope. `clientId` limits it to the client's own messages (API); the operator CLI passes null.
 */
export async function resendMessage(
  deps: { db: Db; queue: JobQueue; now: () => number; resendLimiter?: ActionLimiter },
  messageId: string,
  scope: { clientId: string | null; inspectionId?: string },
  by: AuditActor,
): Promise<boolean> {
  // A client's re-sends are limited (the operator's, from the CLI, are not).
  if (scope.clientId !== null && deps.resendLimiter) {
    const wait = await deps.resendLimiter.take(scope.clientId);
    if (wait > 0) throw new AppError('RESEND_RATE_LIMITED', { retryAfterSeconds: wait });
  }
  return inTransaction(deps.db, async (trx) => {
    let query = trx
      .selectFrom('webhook_messages')
      .select(['id', 'attempts', 'client_id', 'event_type'])
      .where('id', '=', messageId);
    if (scope.clientId !== null) query = query.where('client_id', '=', scope.clientId);
    if (scope.inspectionId !== undefined) query = query.where('inspection_id', '=', scope.inspectionId);
    const message = await query.executeTakeFirst();
    if (!message) return false;
    // A re-send that is still waiting to run already covers this one: the key is the same.
    await deps.queue.enqueue(trx, {
      task: 'deliver-webhook',
      key: jobKeys.resend(messageId, message.attempts),
      payload: { messageId, manual: true },
    });
    await recordAudit(trx, deps.now(), {
      actor: by,
      action: 'webhook.resend',
      object: { type: 'webhook_message', id: messageId },
      clientId: message.client_id,
      after: { event_type: message.event_type },
    });
    return true;
  });
}
