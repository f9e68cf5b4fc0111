// SMS through the Twilio Messages API, or any service that speaks it: a form-encoded POST to
// `{SMS_URL}/2010-04-01/Accounts/{sid}/Messages.json` with HTTP basic auth; the message id is `sid`.
import type { SmsSettings } from '../../config.js';
import type { OperatorFetch } from '../fetch/operator-fetch.js';
import type { SmsSender } from './notifier.js';
import { idField, postToProvider } from './provider-request.js';

export function createTwilioSms(
  settings: Extract<SmsSettings, { provider: 'twilio' }>,
  fetch: OperatorFetch,
): SmsSender {
  const endpoint = `${settings.url}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return async (message, signal) => {
    const answer = await postToProvider(fetch, endpoint, {
      headers: {
        authorization,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: message.to, From: settings.from, Body: message.body }).toString(),
      signal,
    });
    return idField(answer, 'sid');
  };
}
