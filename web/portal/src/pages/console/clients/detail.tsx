// One client in the console: its settings, API keys, webhook and delivery log, one tab each (the tab and
// the log's filters live in the URL, so the back button and bookmarks work). Operators open any client;
// a client admin sees their own, with the quota and service window read-only.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Me } from '../../../api.js';
import { consoleHref } from '../../../router.js';
import { DeliveryLog } from './deliveries.js';
import { ApiKeys } from './keys.js';
import { Settings } from './settings.js';
import type { Client } from './types.js';
import { WebhookPanel } from './webhook.js';

const TABS = [
  ['settings', 'Settings'],
  ['keys', 'API keys'],
  ['webhook', 'Webhook'],
  ['deliveries', 'Delivery log'],
] as const;
type Tab = (typeof TABS)[number][0];

export interface ClientTabProps {
  client: Client;
  /** The client as the last change left it. */
  onChange: (client: Client) => void;
  reload: () => Promise<void>;
}

export function ClientDetail({ id, query, me }: { id: string; query: URLSearchParams; me: Me }) {
  const [client, setClient] = useState<Client>();
  const [error, setError] = useState<string>();
  const operator = me.user.role === 'operator';
  const reload = () =>
    api<Client>(`/clients/${encodeURIComponent(id)}`).then(setClient, (failure: ApiError) =>
      setError(failure.status === 404 ? 'No such client.' : failure.message),
    );
  useEffect(() => void reload(), [id]);

  const tab: Tab = TABS.some(([name]) => name === query.get('tab')) ? (query.get('tab') as Tab) : 'settings';
  const tabHref = (name: Tab) =>
    consoleHref(
      'clients',
      operator ? id : undefined,
      new URLSearchParams(name === 'settings' ? {} : { tab: name }),
    );

  if (error)
    return (
      <main class="console-page">
        {operator && (
          <a class="back" href={consoleHref('clients')}>
            ← All clients
          </a>
        )}
        <p class="error" role="alert">
          {error}
        </p>
      </main>
    );
  if (!client)
    return (
      <main class="console-page">
        <p class="loading" role="status">
          Loading…
        </p>
      </main>
    );
  const props: ClientTabProps = { client, onChange: setClient, reload };
  return (
    <main class="console-page">
      {operator && (
        <a class="back" href={consoleHref('clients')}>
          ← All clients
        </a>
      )}
      <div class="page-head">
        <div>
          <h1>{client.name}</h1>
          <p class="muted small">
            Client id <code>{client.id}</code>
          </p>
        </div>
      </div>
      <nav class="tabs" aria-label="Client settings">
        {TABS.map(([name, title]) => (
          <a key={name} href={tabHref(name)} aria-current={tab === name ? 'page' : undefined}>
            {title}
          </a>
        ))}
      </nav>
      {tab === 'settings' && <Settings {...props} />}
      {tab === 'keys' && <ApiKeys {...props} />}
      {tab === 'webhook' && <WebhookPanel {...props} />}
      {tab === 'deliveries' && (
        <DeliveryLog
          client={client}
          query={query}
          filterHref={(filters) => consoleHref('clients', operator ? id : undefined, filters)}
        />
      )}
    </main>
  );
}
