// The way out to the network for URLs that tenants supply (media URLs, callback and webhook URLs), as
// services see it: a fetch that refuses what the SSRF policy forbids (see adapters/fetch/safe-fetch.ts)
// and fails with an OutboundError saying why. Services get no other fetch: endpoints the operator
// configured (model server, SMS provider) are reached by adapters through their own, trusted one.
import type { Readable } from 'node:stream';

export type OutboundReason =
  'scheme' | 'private_address' | 'dns' | 'connect' | 'timeout' | 'too_many_redirects' | 'http';

export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    readonly reason: OutboundReason,
    /** The URL of the hop that failed, without credentials. */
    readonly url: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface SafeFetchInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Total time for headers and body of this request; overrides `settings.timeoutMs`. */
  timeoutMs?: number;
  /**
   * `follow` (the default): redirects are followed, each target checked again. `manual`: a 3xx answer is
   * returned as it is (a webhook delivery treats it as a failed attempt, docs/webhooks.md).
   */
  redirect?: 'follow' | 'manual';
}

export interface SafeResponse {
  status: number;
  /** Final URL, after redirects. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrives; it errors with OutboundError 'timeout' when the total timeout fires. */
  body: Readable;
}

export interface SafeFetch {
  (url: string, init?: SafeFetchInit): Promise<SafeResponse>;
  /**
   * Judges `url` now as a request to it would be judged when connecting (scheme, credentials, every
   * address its host resolves to) and rejects with the OutboundError it would meet; sends nothing. So a
   * URL kept for later (a `callback_url`, a webhook URL) is refused when it is given, not at its first
   * delivery. A host that does not resolve is not refused: that is no verdict of the guard, and the
   * connect judges the addresses again in any case. A refusal names the host, never its addresses.
   */
  admit(url: string): Promise<void>;
}

/** Reads at most `maxBytes` of a small body (webhook reply excerpts) as UTF-8, then lets the rest go. */
export async function readLimitedText(body: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Readable's iterator is typed `any`; undici and node streams yield Buffers (or strings if encoded).
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    chunks.push(bytes.subarray(0, maxBytes - size));
    size += Math.min(bytes.length, maxBytes - size);
    if (size >= maxBytes) break; // leaving the loop destroys the stream, so the rest is never read
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The way to a local listener the operator registered (`walkaround webhooks listen`, ADR 12): loopback
 * addresses only, and only for a message whose URL names a live listener of its client. An object, not a
 * function, so that it can never fill a SafeFetch slot (media URLs, callback URLs of tenants).
 */
export interface ListenerFetch {
  request(url: string, init?: SafeFetchInit): Promise<SafeResponse>;
}
