// SMS through a generic JSON webhook (a gateway of one's own, a provider's simple API): POST `SMS_URL`
// with `{to, from, body}`, `Authorization: Bearer <SMS_AUTH_TOKEN>` when set; the id is the answer's `id`.
import type { SmsSettings } from '../../config.js';
import type { OperatorFetch } from '../fetch/operator-fetch.js';
import type { SmsSender } from './notifier.js';
import { idField, postToProvider } from './provider-request.js';

export function createJsonSms(
  settings: Extract<SmsSettings, { provider: 'json' }>,
  fetch: OperatorFetch,
): SmsSender {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (settings.authToken !== undefined) headers.authorization = `Bearer ${settings.authToken}`;
  return async (message, signal) => {
    const answer = await postToProvider(fetch, settings.url, {
      headers,
      body: JSON.stringify({ to: message.to, from: settings.from, body: message.body }),
      signal,
    });
    return idField(answer, 'id');
  };
}
