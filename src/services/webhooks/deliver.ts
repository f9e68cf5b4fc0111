// One delivery attempt of a webhook message (docs/webhooks.md#the-request), run by the worker: signed per
// Standard Webhooks, sent through safe-fetch, logged, then either done or scheduled again. At least once: a
// worker killed mid-attempt leaves the job to run again, with the same `webhook-id`.
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SecretBox } from '../../ports/secret-box.js';
import { type ClientRow, type Db, inTransaction } from '../../ports/database.js';
import {
  OutboundError,
  readLimitedText,
  type ListenerFetch,
  type SafeFetch,
  type SafeFetchInit,
  type SafeResponse,
} from '../../ports/outbound-fetch.js';
import { DELIVERY_TIMEOUT_MS, outcomeOf, RESPONSE_EXCERPT_BYTES } from '../../domain/webhooks.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Metrics } from '../../ports/metrics.js';
import { VERSION } from '../../version.js';
import { jobKeys, type JobPayloads } from '../../domain/jobs.js';
import { isLiveListenerUrl } from './listeners.js';

export interface DeliverDeps {
  db: Db;
  queue: JobQueue;
  safeFetch: SafeFetch;
  /** To a live local listener of the message's client (`walkaround webhooks listen`, ADR 12) only. */
  listenerFetch: ListenerFetch;
  secrets: SecretBox;
  now: () => number;
  /** Seconds to wait before each retry (by default the documented schedule, docs/webhooks.md). */
  retrySchedule: readonly number[];
  metrics: Pick<Metrics, 'webhookAttempted' | 'webhookDelivered'>;
}

type SafeFetchCall = (url: string, init: SafeFetchInit) => Promise<SafeResponse>;

/** A re-send by hand (`manual`) is one more attempt, whatever the message's state, with no retries after it. */
export type DeliveryJob = JobPayloads['deliver-webhook'];

export async function deliverMessage(deps: DeliverDeps, job: DeliveryJob): Promise<void> {
  const message = await deps.db
    .selectFrom('webhook_messages')
    .innerJoin('clients', 'clients.id', 'webhook_messages.client_id')
    .selectAll('webhook_messages')
    .select([
      'clients.webhook_secret_enc',
      'clients.webhook_secret_previous_enc',
      'clients.webhook_secret_previous_until',
    ])
    .where('webhook_messages.id', '=', job.messageId)
    .executeTakeFirst();
  if (!message || (message.status !== 'pending' && !job.manual)) return;

  const attempt = message.attempts + 1;
  const startedAt = deps.now();
  const sent = await sendSigned(deps, {
    clientId: message.client_id,
    url: message.url,
    id: message.id,
    payload: message.payload,
    at: startedAt,
    secrets: signingSecrets(message, startedAt),
  });
  const { status, excerpt, error, refused } = sent;
  const finishedAt = deps.now();
  // A re-send by hand is one attempt: it never schedules retries, and failing it leaves the state as it was.
  const outcome = refused ? 'refused' : outcomeOf(status, attempt, job.manual ? [] : deps.retrySchedule);
  const nextStatus =
    outcome === 'delivered'
      ? 'delivered'
      : job.manual
        ? message.status
        : outcome === 'retry'
          ? 'pending'
          : 'failed';

  await inTransaction(deps.db, async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        id: crypto.randomUUID(),
        message_id: message.id,
        attempt,
        started_at: startedAt,
        url: message.url,
        status_code: status,
        latency_ms: finishedAt - startedAt,
        response_excerpt: excerpt,
        error,
        outcome,
      })
      .execute();
    const nextAt = outcome === 'retry' ? finishedAt + deps.retrySchedule[attempt - 1]! * 1000 : null;
    await trx
      .updateTable('webhook_messages')
      .set({
        attempts: attempt,
        status: nextStatus,
        next_attempt_at: job.manual ? message.next_attempt_at : nextAt,
        updated_at: finishedAt,
      })
      .where('id', '=', message.id)
      .execute();
    if (nextAt !== null)
      await deps.queue.enqueue(trx, {
        task: 'deliver-webhook',
        key: jobKeys.deliver(message.id, attempt + 1),
        payload: { messageId: message.id },
        runAt: nextAt,
      });
  });
  deps.metrics.webhookAttempted(outcome, attempt);
  // The first delivery only: a re-send by hand of a delivered message says nothing of the latency.
  if (outcome === 'delivered' && message.status === 'pending')
    deps.metrics.webhookDelivered(message.event_type, (finishedAt - message.created_at) / 1000);
}

/** The columns of a client that say which secrets sign. */
export type SigningColumns = Pick<
  ClientRow,
  'webhook_secret_enc' | 'webhook_secret_previous_enc' | 'webhook_secret_previous_until'
>;

/** The sealed secrets that sign at `at`: the client's own, and during a rotation's grace period the previous one. */
export function signingSecrets(client: SigningColumns, at: number): string[] {
  const secrets = [client.webhook_secret_enc];
  if (client.webhook_secret_previous_enc && (client.webhook_secret_previous_until ?? 0) > at)
    secrets.push(client.webhook_secret_previous_enc);
  return secrets;
}

export interface SignedMessage {
  clientId: string;
  url: string;
  /** The `webhook-id`. */
  id: string;
  payload: string;
  /** When the attempt starts: its `webhook-timestamp`. */
  at: number;
  /** Sealed secrets, each giving one signature (see signingSecrets). */
  secrets: string[];
}

export interface AttemptAnswer {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  /** The guard refused the destination (a private address, a scheme): retrying cannot help. */
  refused: boolean;
}

/**
 * One attempt, as every delivery and the portal's test event make it: `id.timestamp.body` signed with each
 * `whsec_` secret (Standard Webhooks, space-separated signatures), sent through the tenant guard, or to a
 * live local listener of the client through the loopback-only listener fetch. Never throws: a failure to
 * connect is the attempt's `error`.
 */
export async function sendSigned(
  deps: Pick<DeliverDeps, 'db' | 'now' | 'safeFetch' | 'listenerFetch' | 'secrets'>,
  message: SignedMessage,
): Promise<AttemptAnswer> {
  const signature = message.secrets
    .map((sealed) =>
      new Webhook(deps.secrets.open(sealed)).sign(message.id, new Date(message.at), message.payload),
    )
    .join(' ');
  // Loopback is reached only through a listener the operator runs for this client, while it runs.
  const viaListener = await isLiveListenerUrl(deps, message.clientId, message.url);
  const send: SafeFetchCall = viaListener
    ? (url, init) => deps.listenerFetch.request(url, init)
    : deps.safeFetch;
  try {
    const response = await send(message.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': `walkaround-webhooks/${VERSION}`,
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(message.at / 1000)),
        'webhook-signature': signature,
      },
      body: message.payload,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      // A redirect is a failed attempt, as Svix and Stripe treat it (docs/webhooks.md): following it
      // would resend a signed event to wherever the receiver points, possibly as a GET without its body.
      redirect: 'manual',
    });
    const excerpt = await readLimitedText(response.body, RESPONSE_EXCERPT_BYTES).catch(() => null);
    return { status: response.status, excerpt, error: null, refused: false };
  } catch (failure) {
    return {
      status: null,
      excerpt: null,
      error: failure instanceof Error ? failure.message : String(failure),
      refused:
        failure instanceof OutboundError &&
        (failure.reason === 'private_address' || failure.reason === 'scheme'),
    };
  }
}
