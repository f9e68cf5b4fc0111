// Webhook events and their delivery rules (docs/webhooks.md). Pure: no I/O.

export const EVENT_TYPES = [
  'inspection.received',
  'inspection.completed',
  'inspection.failed',
  'inspection.reviewed',
  'link.opened',
  'link.submitted',
  'link.expired',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (name: string): name is EventType =>
  (EVENT_TYPES as readonly string[]).includes(name);

/**
 * Waits before the 2nd, 3rd … attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, as documented in
 * docs/webhooks.md#answering-retries-and-duplicates.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** A 2xx answer within this time is a delivery. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** Payloads larger than this are not inlined: the event carries a link to the result instead. */
export const MAX_INLINE_PAYLOAD_BYTES = 1024 * 1024;

/** How much of a receiver's answer is kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** `refused`: the destination is not allowed (a private address, a bad scheme); retrying cannot help. */
export type AttemptOutcome = 'delivered' | 'retry' | 'gone' | 'exhausted' | 'refused';

/**
 * What an attempt means for its message: delivered on 2xx; 410 Gone stops retries; otherwise retried
 * while the schedule has a next wait (`attempt` is 1 for the first attempt).
 */
export function outcomeOf(
  status: number | null,
  attempt: number,
  schedule: readonly number[],
): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  return attempt <= schedule.length ? 'retry' : 'exhausted';
}

/** The envelope every event is sent in. */
export interface EventEnvelope {
  type: EventType;
  timestamp: string;
  data: unknown;
}

/**
 * A local listener (`walkaround webhooks listen`, ADR 12) is live this long after its last renewal; the
 * listener renews it three times as often, so one missed renewal does not cut it off, and a listener
 * killed without clean-up stops taking deliveries within this time.
 */
export const LISTENER_TTL_MS = 15_000;

/** Names of loopback itself: a URL to a local listener uses one of these, so no resolver is consulted. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The port of a URL that may reach a local listener: plain http to loopback by one of its own names,
 * without credentials; undefined for any other URL. Whether a listener of the client is live on that port
 * is for the database to say.
 */
export function listenerPortOf(text: string): number | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || url.username || url.password) return undefined;
  if (!LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return url.port === '' ? 80 : Number(url.port);
}
