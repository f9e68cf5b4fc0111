// One client in the console: its settings, rate card, API keys, webhook and delivery log, one tab each (the tab and
// the log's filters live in the URL, so the back button and bookmarks work). Operators open any client;
// a client admin sees their own, with the quota and service window read-only.
import { api, ApiError, errorText, type Me } from '../../../api.js';
import { ErrorNotice, Loading } from '../../../components/notices.js';
import { useLoad } from '../../../data.js';
import { consoleHref } from '../../../router.js';
import { DeliveryLog } from './deliveries.js';
import { ApiKeys } from './keys.js';
import { RateCardPanel } from './rate-card.js';
import { Settings } from './settings.js';
import type { Client } from './types.js';
import { WebhookPanel } from './webhook.js';

const TABS = [
  ['settings', 'Settings'],
  ['rate-card', 'Rate card'],
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

const notFound = (failure: unknown) =>
  failure instanceof ApiError && failure.status === 404 ? 'No such client.' : errorText(failure);

export function ClientDetail({ id, query, me }: { id: string; query: URLSearchParams; me: Me }) {
  const operator = me.user.role === 'operator';
  const {
    data: client,
    error,
    set: setClient,
    reload,
  } = useLoad(() => api.GET('/portal/api/clients/{id}', { params: { path: { id } } }), [id], {
    describe: notFound,
  });

  // A client without a capture flow cannot send inspection links: say so, with the way to make one.
  const flows = useLoad(
    () => api.GET('/portal/api/personas', { params: { query: operator ? { client_id: id } : {} } }),
    [id],
  );
  const noFlow = flows.data?.personas.length === 0;

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
        <ErrorNotice text={error} />
      </main>
    );
  if (!client)
    return (
      <main class="console-page">
        <Loading />
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
      {noFlow && (
        <p class="notice">
          This client has no capture flow yet, so it cannot send inspection links.{' '}
          <a href={consoleHref('personas')}>Create its first capture flow</a>
        </p>
      )}
      <nav class="tabs" aria-label="Client settings">
        {TABS.map(([name, title]) => (
          <a key={name} href={tabHref(name)} aria-current={tab === name ? 'page' : undefined}>
            {title}
          </a>
        ))}
      </nav>
      {tab === 'settings' && <Settings {...props} />}
      {tab === 'rate-card' && <RateCardPanel {...props} />}
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
