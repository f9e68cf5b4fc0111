// Where a client's webhooks may go, judged when the URL is given (an upload's `callback_url`, a client's
// webhook URL) by the policy its deliveries meet when they connect: a refusal is then the answer to the
// request that gave it, not a message marked `failed` that nobody sees (ADR 12). The guard judges again at
// every connect, so a name that resolves elsewhere later is still caught.
import { OutboundError, type SafeFetch } from '../../ports/outbound-fetch.js';
import { isLiveListenerUrl, type ListenerDeps } from './listeners.js';

export interface TargetDeps extends ListenerDeps {
  safeFetch: Pick<SafeFetch, 'admit'>;
}

/**
 * Resolves when deliveries of `clientId` (undefined for a client not created yet) to `url` would go out:
 * the tenant guard lets it through, or it names a live local listener of that client. Rejects with the
 * guard's OutboundError otherwise (`private_address`, or `scheme`).
 */
export async function admitWebhookUrl(
  deps: TargetDeps,
  clientId: string | undefined,
  url: string,
): Promise<void> {
  try {
    await deps.safeFetch.admit(url);
  } catch (error) {
    const listener =
      clientId !== undefined && isPrivateRefusal(error) && (await isLiveListenerUrl(deps, clientId, url));
    if (!listener) throw error;
  }
}

/** Whether the guard refused `error`'s URL for its address (rather than its form). */
export const isPrivateRefusal = (error: unknown): error is OutboundError =>
  error instanceof OutboundError && error.reason === 'private_address';
