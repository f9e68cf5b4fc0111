// A test event (`ping`) sent from the portal to a client's webhook URL, signed and sent exactly as a real
// delivery (sendSigned), so a receiver that verifies it verifies the real ones. Its answer goes back to
// whoever asked, and nowhere else: it is not recorded in the delivery log, so it is not a change (no audit
// entry), never retried or re-sent, and counts in no delivery metric (a broken endpoint being tested does
// not page the operator). Limited per client, as re-sends are, so the portal is no flooding tool.
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import type { ActionLimiter } from '../../ports/attempt-limiter.js';
import type { ClientRow } from '../../ports/database.js';
import { sendSigned, signingSecrets, type DeliverDeps } from './deliver.js';

export const TEST_EVENT_TYPE = 'ping';

export const TestEventAnswer = Type.Object({
  webhook_id: Type.String({ description: 'The `webhook-id` the test was sent with.' }),
  url: Type.String(),
  sent_at: Type.String({ format: 'date-time' }),
  status_code: Nullable(Type.Integer(), { description: "The receiver's status; null when none came." }),
  latency_ms: Type.Number(),
  response_excerpt: Nullable(Type.String({ description: 'The first 1 KB of the answer.' })),
  error: Nullable(Type.String({ description: 'Why no answer came (refused, timeout, DNS, …).' })),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('refused')]),
  signatures: Type.Integer({
    description: 'How many signatures it carried: 2 while a rotated secret still signs.',
  }),
});
export type TestEventAnswer = Static<typeof TestEventAnswer>;

export type TestEventDeps = Pick<DeliverDeps, 'db' | 'now' | 'safeFetch' | 'listenerFetch' | 'secrets'> & {
  resendLimiter: ActionLimiter;
};

export async function sendTestEvent(deps: TestEventDeps, client: ClientRow): Promise<TestEventAnswer> {
  const url = client.webhook_url;
  if (!url) throw new AppError('WEBHOOK_TEST_NO_URL');
  // Its own count beside the client's re-sends: testing an endpoint does not use up re-sends.
  const wait = await deps.resendLimiter.take(`test-event:${client.id}`);
  if (wait > 0) throw new AppError('WEBHOOK_TEST_RATE_LIMITED', { retryAfterSeconds: wait });
  const at = deps.now();
  const id = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
  const payload = JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: new Date(at).toISOString(),
    data: {
      client_id: client.id,
      test: true,
      message: 'A test event sent from the Walkaround portal. No inspection is involved.',
    },
  });
  const secrets = signingSecrets(client, at);
  const sent = await sendSigned(deps, { clientId: client.id, url, id, payload, at, secrets });
  const delivered = sent.status !== null && sent.status >= 200 && sent.status < 300;
  return {
    webhook_id: id,
    url,
    sent_at: new Date(at).toISOString(),
    status_code: sent.status,
    latency_ms: deps.now() - at,
    response_excerpt: sent.excerpt,
    error: sent.error,
    outcome: delivered ? 'delivered' : sent.refused ? 'refused' : 'failed',
    signatures: secrets.length,
  };
}
