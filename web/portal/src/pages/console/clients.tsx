// The console's clients (docs/portal.md#clients-api-keys-and-webhooks): operators get the list of clients
// and open one; a client admin goes straight to their own client's settings (the "Settings" section).
import { ClientDetail } from './clients/detail.js';
import { ClientList } from './clients/list.js';
import type { ConsoleProps } from './props.js';

export function ClientsPage({ id, query, me }: ConsoleProps) {
  const own = me.user.client_id;
  if (me.user.role === 'operator' && id === undefined) return <ClientList />;
  const clientId = me.user.role === 'operator' ? id : own;
  if (!clientId)
    return (
      <main>
        <p class="notice" role="alert">
          Your account belongs to no client.
        </p>
      </main>
    );
  return <ClientDetail id={clientId} query={query} me={me} />;
}
