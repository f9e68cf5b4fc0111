// What the HTTP providers (SMS) share: one POST through the operator fetch, the answer read and judged,
// and a failure turned into a NotifyError whose message is safe to log.
import { OutboundError, readLimitedText } from '../../ports/outbound-fetch.js';
import { NotifyError } from '../../ports/notifier.js';
import type { OperatorFetch } from '../fetch/operator-fetch.js';

/** A provider that has not answered within this time has failed this attempt. */
export const PROVIDER_TIMEOUT_MS = 15_000;
/** Enough of an answer for the id or the error the provider gives. */
const ANSWER_BYTES = 16 * 1024;
/** How much of a provider's error is kept with the message. */
const DETAIL_CHARS = 300;

/**
 * POSTs to the provider and resolves with its answer parsed as JSON (undefined when it is not JSON).
 * Rejects with NotifyError: permanent for a refused address and for 4xx answers other than 408 and
 * 429 (the request itself is wrong: a bad number, bad credentials), temporary otherwise.
 */
export async function postToProvider(
  fetch: OperatorFetch,
  url: string,
  request: { headers: Record<string, string>; body: string; signal?: AbortSignal | undefined },
): Promise<unknown> {
  let status: number;
  let text: string;
  try {
    const response = await fetch.request(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      timeoutMs: PROVIDER_TIMEOUT_MS,
      ...(request.signal && { signal: request.signal }),
    });
    status = response.status;
    text = await readLimitedText(response.body, ANSWER_BYTES).catch(() => '');
  } catch (error) {
    if (request.signal?.aborted) throw error; // the worker is stopping: not an attempt
    // OutboundError messages name the host, never the path, query or credentials.
    if (error instanceof OutboundError)
      throw new NotifyError(
        error.message,
        error.reason === 'private_address' || error.reason === 'scheme',
        undefined,
        {
          cause: error,
        },
      );
    throw new NotifyError(`SMS provider request failed: ${String(error)}`, false, undefined, {
      cause: error,
    });
  }
  const answer = parseJson(text);
  if (status >= 200 && status < 300) return answer;
  const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
  throw new NotifyError(`SMS provider answered ${status}`, permanent, detailOf(answer, text));
}

/** A string or number field of a JSON answer (`sid`, `id`), else null. */
export function idField(answer: unknown, name: string): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const value = (answer as Record<string, unknown>)[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's own words: its JSON `message` (Twilio) or `error`, else the start of the body. */
function detailOf(answer: unknown, text: string): string | undefined {
  const said = idField(answer, 'message') ?? idField(answer, 'error') ?? text;
  const line = said.replace(/\s+/g, ' ').trim();
  return line ? line.slice(0, DETAIL_CHARS) : undefined;
}
