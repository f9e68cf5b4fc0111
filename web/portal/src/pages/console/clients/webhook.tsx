// A client's webhook: where events go and which, a signed test event with the receiver's answer, the
// signing secret's rotation (the old secret also signs for a grace period, so receivers switch without
// rejecting a delivery), and code that verifies the signature, with the secret's prefix filled in.
import { useState } from 'preact/hooks';
import { api, errorText, type Answer } from '../../../api.js';
import { ErrorNotice } from '../../../components/notices.js';
import { FieldError, failureOf, invalidProps, type Failure } from '../../../components/field-error.js';
import { SecretOnce } from '../../../components/secret-once.js';
import { SETTING_FAILURES } from './setting-failures.js';
import { field } from '../../../form.js';
import { when } from '../../../format.js';
import type { ClientTabProps } from './detail.js';
import { patchClient } from './settings.js';
import { VerifySnippets } from './snippets.js';
import { DEFAULT_GRACE, EVENT_TYPES, GRACE_CHOICES } from './types.js';

const EVENT_TEXTS: Record<(typeof EVENT_TYPES)[number], string> = {
  'inspection.received': 'an upload was accepted',
  'inspection.completed': 'the analysis result is ready',
  'inspection.failed': 'the analysis failed',
  'inspection.reviewed': 'a reviewer saved a review',
  'link.opened': 'a customer opened an inspection link',
  'link.submitted': 'a customer submitted a link',
  'link.expired': 'a link expired unused',
};

export function WebhookPanel(props: ClientTabProps) {
  return (
    <div class="column">
      <Destination {...props} />
      <TestEvent {...props} />
      <SigningSecret {...props} />
      <VerifySnippets prefix={props.client.webhook_secret.prefix} />
    </div>
  );
}

function Destination({ client, onChange }: ClientTabProps) {
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<Failure>();
  const chosen = new Set(client.webhook_events ?? EVENT_TYPES);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const ticked = form.getAll('events');
    const events = EVENT_TYPES.filter((type) => ticked.includes(type));
    setNotice(undefined);
    setError(undefined);
    if (events.length === 0)
      return setError({ field: 'events', plain: 'Choose at least one event to send.' });
    try {
      const url = field(form, 'webhook_url');
      const saved = await patchClient(client.id, {
        webhook_url: url || null,
        webhook_events: events.length === EVENT_TYPES.length ? null : events,
      });
      onChange(saved);
      setNotice(url ? 'Saved. Send a test event to check the receiver.' : 'Saved: no webhook URL.');
    } catch (failure) {
      setError(failureOf(failure, SETTING_FAILURES));
    }
  };

  return (
    <form class="panel settings-form" onSubmit={(e) => void submit(e)} aria-labelledby="destination-title">
      <h2 id="destination-title">Where events go</h2>
      <div class="field">
        <label for="webhook-url">Webhook URL</label>
        <input
          id="webhook-url"
          name="webhook_url"
          type="url"
          defaultValue={client.webhook_url ?? ''}
          placeholder="https://hooks.example.com/walkaround"
          {...invalidProps(error, 'webhook_url')}
        />
        <FieldError failure={error} field="webhook_url" />
        <span class="muted small">
          Events are POSTed here, signed. An upload may name its own <code>callback_url</code> instead.
        </span>
      </div>
      <fieldset class="events">
        <legend>Events sent</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} class="check">
            <input type="checkbox" name="events" value={type} defaultChecked={chosen.has(type)} />
            <code>{type}</code> <span class="muted">{EVENT_TEXTS[type]}</span>
          </label>
        ))}
        <FieldError failure={error} field="events" />
      </fieldset>
      <FieldError failure={error} />
      <div class="actions">
        <button type="submit" class="primary">
          Save webhook
        </button>
        {notice && (
          <span role="status" class="saved">
            {notice}
          </span>
        )}
      </div>
    </form>
  );
}

function TestEvent({ client }: ClientTabProps) {
  const [answer, setAnswer] = useState<Answer<'/portal/api/clients/{id}/webhook/test', 'post'>>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    try {
      const params = { path: { id: client.id } };
      setAnswer(await api.POST('/portal/api/clients/{id}/webhook/test', { params }));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel" aria-labelledby="test-title">
      <h2 id="test-title">Send a test event</h2>
      <p class="muted">
        A <code>ping</code> event, signed like every delivery, sent now to the webhook URL. It is not kept in
        the delivery log and never retried.
      </p>
      <button
        type="button"
        class="primary"
        disabled={!client.webhook_url || busy}
        onClick={() => void send()}
      >
        {busy ? 'Sending…' : 'Send test event'}
      </button>
      {!client.webhook_url && <p class="muted small">Set a webhook URL first.</p>}
      <ErrorNotice text={error} />
      {answer && (
        <div class="test-answer" role="status">
          <p>
            <span class={`status delivery-${answer.outcome === 'delivered' ? 'delivered' : 'failed'}`}>
              {answer.outcome === 'delivered'
                ? 'Received'
                : answer.outcome === 'refused'
                  ? 'Refused'
                  : 'Failed'}
            </span>{' '}
            {answer.status_code !== null ? `HTTP ${answer.status_code}` : 'No answer'} in {answer.latency_ms}{' '}
            ms
            {answer.signatures > 1 && ' · signed with the new and the previous secret'}
          </p>
          <dl class="facts">
            <div>
              <dt>Sent to</dt>
              <dd>{answer.url}</dd>
            </div>
            <div>
              <dt>webhook-id</dt>
              <dd>
                <code>{answer.webhook_id}</code>
              </dd>
            </div>
            {answer.error && (
              <div>
                <dt>Error</dt>
                <dd>{answer.error}</dd>
              </div>
            )}
          </dl>
          <h3>Answer body</h3>
          {answer.response_excerpt ? (
            <pre class="json excerpt">{answer.response_excerpt}</pre>
          ) : (
            <p class="muted">Empty.</p>
          )}
        </div>
      )}
    </section>
  );
}

function SigningSecret({ client, reload }: ClientTabProps) {
  const [fresh, setFresh] = useState<{ secret: string; until: string | null }>();
  const [error, setError] = useState<string>();
  const { prefix, previous_prefix, previous_signs_until } = client.webhook_secret;
  const rotate = async (event: Event) => {
    event.preventDefault();
    const grace = Number(new FormData(event.currentTarget as HTMLFormElement).get('grace'));
    setError(undefined);
    try {
      const made = await api.POST('/portal/api/clients/{id}/webhook/secret', {
        params: { path: { id: client.id } },
        body: { grace_seconds: grace },
      });
      setFresh({ secret: made.webhook_secret, until: made.previous_signs_until });
      await reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <section class="panel" aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret</h2>
      <p>
        Deliveries are signed with the secret starting <code>{prefix}…</code>
        {previous_prefix && previous_signs_until && (
          <>
            {' '}
            and, until {when(previous_signs_until)}, also with the previous one,{' '}
            <code>{previous_prefix}…</code>
          </>
        )}
        .
      </p>
      <p class="muted">
        Rotate it when it may have leaked, or when your policy says so. The new secret is shown once; during
        the grace period deliveries carry both signatures, so the receiver can switch to the new secret
        without rejecting any.
      </p>
      {fresh && (
        <div class="once" role="status">
          <p>
            Copy the new secret now: <strong>it is not shown again</strong>.{' '}
            {fresh.until
              ? `The previous secret also signs until ${when(fresh.until)}: switch your receiver before then.`
              : 'The previous secret stopped signing now.'}
          </p>
          <SecretOnce id="new-secret" label="Webhook secret" value={fresh.secret} />
        </div>
      )}
      <form onSubmit={(e) => void rotate(e)}>
        <label for="secret-grace">The old secret stops signing</label>
        <div class="share-form">
          <select id="secret-grace" name="grace">
            {GRACE_CHOICES.map(([seconds, text]) => (
              <option key={seconds} value={String(seconds)} selected={seconds === DEFAULT_GRACE}>
                {text}
              </option>
            ))}
          </select>
          <button type="submit" class="primary">
            Rotate secret
          </button>
        </div>
      </form>
      <ErrorNotice text={error} />
    </section>
  );
}
