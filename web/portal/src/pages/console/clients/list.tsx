// Operators: every client, and a new one. A new client's API key and webhook secret are shown once,
// each with a copy button, before anything else can be done with it.
import { useState } from 'preact/hooks';
import { api, errorText, type Answer } from '../../../api.js';
import { ErrorNotice, Loading } from '../../../components/notices.js';
import { SecretOnce } from '../../../components/secret-once.js';
import { useClients } from '../../../data.js';
import { field } from '../../../form.js';
import { when } from '../../../format.js';
import { consoleHref } from '../../../router.js';
import { TimeZoneInput } from './time-zone.js';

/** A new client, with its first API key and webhook secret: shown once. */
type CreatedClient = Answer<'/portal/api/clients', 'post'>;

export function ClientList() {
  const { clients, error, reload } = useClients();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedClient>();

  return (
    <main class="console-page">
      <div class="page-head">
        <div>
          <h1>Clients</h1>
          <p class="muted">The organisations that send inspections: their API keys, webhook and limits.</p>
        </div>
        {!creating && !created && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New client
          </button>
        )}
      </div>
      {creating && (
        <NewClient
          onCancel={() => setCreating(false)}
          onCreated={(answer) => {
            setCreating(false);
            setCreated(answer);
            void reload();
          }}
        />
      )}
      {created && <Created created={created} onDone={() => setCreated(undefined)} />}
      <ErrorNotice text={error} />
      {!clients && !error && <Loading />}
      {clients?.length === 0 && !creating && !created && (
        <p class="empty">No client yet. Create the first one.</p>
      )}
      {clients && clients.length > 0 && (
        <table class="inspections clients">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Webhook URL</th>
              <th scope="col">Live API keys</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {clients.map((c) => (
              <tr key={c.id}>
                <td>
                  <a href={consoleHref('clients', c.id)}>{c.name}</a>
                </td>
                <td class="url">{c.webhook_url ?? <span class="muted">None</span>}</td>
                <td>{c.live_keys}</td>
                <td>{c.created_at && when(c.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

function NewClient({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (created: CreatedClient) => void;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => field(form, name);
    setBusy(true);
    setError(undefined);
    try {
      onCreated(
        await api.POST('/portal/api/clients', {
          body: {
            name: text('name'),
            ...(text('webhook_url') && { webhook_url: text('webhook_url') }),
            quota_per_hour: Number(text('quota_per_hour')),
            link_ttl_seconds: Math.round(Number(text('link_ttl_hours')) * 3600),
            ...(text('service_window') && { service_window: text('service_window') }),
            timezone: text('timezone'),
          },
        }),
      );
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel settings-form" onSubmit={(e) => void submit(e)} aria-labelledby="new-client-title">
      <h2 id="new-client-title">New client</h2>
      <div class="field">
        <label for="new-name">Name</label>
        <input id="new-name" name="name" required maxLength={200} placeholder="Acme Insurance" />
      </div>
      <div class="field">
        <label for="new-webhook">Webhook URL</label>
        <input
          id="new-webhook"
          name="webhook_url"
          type="url"
          placeholder="https://hooks.acme.example/walkaround"
        />
        <span class="muted small">Optional: where inspection results are sent. It can be set later.</span>
      </div>
      <div class="field">
        <label for="new-quota">Quota: uploads per hour</label>
        <input id="new-quota" name="quota_per_hour" type="number" min={1} required defaultValue="1000" />
      </div>
      <div class="field">
        <label for="new-ttl">Inspection links stay valid for (hours)</label>
        <input
          id="new-ttl"
          name="link_ttl_hours"
          type="number"
          min={1}
          step="any"
          required
          defaultValue="72"
        />
      </div>
      <div class="field">
        <label for="new-window">Service window</label>
        <input id="new-window" name="service_window" placeholder="mon-fri 08:00-18:00" />
        <span class="muted small">
          When uploads are taken: days and hours, such as <code>mon-fri 08:00-18:00, sat 09:00-13:00</code>.
          Empty: always.
        </span>
      </div>
      <TimeZoneInput id="new-timezone" value="UTC" />
      <ErrorNotice text={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Create client
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Created({ created, onDone }: { created: CreatedClient; onDone: () => void }) {
  return (
    <section class="panel once" aria-labelledby="created-title" role="status">
      <h2 id="created-title">{created.client.name} is created</h2>
      <p>
        Copy its API key and webhook secret now and give them to the client's developers.{' '}
        <strong>They are not shown again</strong>: later you can only issue new ones.
      </p>
      <SecretOnce id="created-key" label="API key" value={created.api_key} />
      <SecretOnce id="created-secret" label="Webhook secret" value={created.webhook_secret} />
      <div class="actions">
        <a class="button primary" href={consoleHref('clients', created.client.id)}>
          Open {created.client.name}
        </a>
        <button type="button" class="quiet" onClick={onDone}>
          I have copied them
        </button>
      </div>
    </section>
  );
}
