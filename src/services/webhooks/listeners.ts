// Local listeners (`walkaround webhooks listen`, ADR 12): the operator runs a receiver on the worker's
// machine, and while it runs, a client's events whose URL names loopback on its port are delivered there,
// through a way out that reaches loopback and nothing else. Only the operator's CLI registers one (it
// needs the database); no tenant request can.
import { AppError } from '../../domain/errors.js';
import { LISTENER_TTL_MS, listenerPortOf } from '../../domain/webhooks.js';
import type { ClientRow, Db } from '../../ports/database.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { demoClientId } from '../demo-client.js';

export interface ListenerDeps {
  db: Db;
  now: () => number;
}

/** Registers, or renews, the listener of `clientId` on loopback `port`: live for LISTENER_TTL_MS. */
export async function registerListener(deps: ListenerDeps, clientId: string, port: number): Promise<void> {
  const now = deps.now();
  await deps.db
    .insertInto('webhook_listeners')
    .values({ client_id: clientId, port, expires_at: now + LISTENER_TTL_MS, created_at: now })
    .onConflict((oc) => oc.columns(['client_id', 'port']).doUpdateSet({ expires_at: now + LISTENER_TTL_MS }))
    .execute();
}

/** The listener stopped: deliveries to its port are refused again from now on. */
export async function removeListener(deps: ListenerDeps, clientId: string, port: number): Promise<void> {
  await deps.db
    .deleteFrom('webhook_listeners')
    .where('client_id', '=', clientId)
    .where('port', '=', port)
    .execute();
}

/** Whether `url` names loopback on the port of a live listener of `clientId`. */
export async function isLiveListenerUrl(deps: ListenerDeps, clientId: string, url: string): Promise<boolean> {
  const port = listenerPortOf(url);
  if (port === undefined) return false;
  const live = await deps.db
    .selectFrom('webhook_listeners')
    .select('port')
    .where('client_id', '=', clientId)
    .where('port', '=', port)
    .where('expires_at', '>', deps.now())
    .executeTakeFirst();
  return live !== undefined;
}

/**
 * The client a listener receives for: the one named, else the demo client of the first start, else the
 * only client there is.
 */
export async function listenerClient(deps: ListenerDeps, id: string | undefined): Promise<ClientRow> {
  const byId = (clientId: string) =>
    deps.db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
  if (id !== undefined) {
    const named = await byId(id);
    if (!named) throw new AppError('CLIENT_NOT_FOUND', { params: { id } });
    return named;
  }
  const demoId = await demoClientId(deps.db);
  const demoClient = demoId === undefined ? undefined : await byId(demoId);
  if (demoClient) return demoClient;
  const clients = await deps.db.selectFrom('clients').selectAll().limit(2).execute();
  if (clients.length === 1) return clients[0]!;
  throw new AppError('CLIENT_INVALID', {
    params: {
      reason:
        clients.length === 0
          ? 'there is no client yet (walkaround clients create --name N)'
          : 'there are several clients: name one with --client ID (walkaround clients list)',
    },
  });
}

/**
 * The secrets deliveries of the client are signed with now: its secret, and during a rotation's grace
 * period the previous one (services/webhooks/deliver.ts signs with both).
 */
export async function signingSecrets(
  deps: ListenerDeps & { secrets: SecretBox },
  clientId: string,
): Promise<string[]> {
  const row = await deps.db
    .selectFrom('clients')
    .select(['webhook_secret_enc', 'webhook_secret_previous_enc', 'webhook_secret_previous_until'])
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!row) return [];
  const sealed = [row.webhook_secret_enc];
  if (row.webhook_secret_previous_enc && (row.webhook_secret_previous_until ?? 0) > deps.now())
    sealed.push(row.webhook_secret_previous_enc);
  return sealed.map((s) => deps.secrets.open(s));
}
