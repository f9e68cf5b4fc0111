// First start on an empty database: a demo client (with a photo persona), created exactly once even when several processes
// start together (the app_state row is the lock: only the transaction that inserts it creates the client).
import type { Db } from '../ports/database.js';
import type { SafeFetch } from '../ports/outbound-fetch.js';
import type { SecretBox } from '../ports/secret-box.js';
import { createClient, type CreatedClient } from './clients/manage.js';
import { DEMO_MARKER } from './demo-client.js';
import { createPersona } from './personas/manage.js';

export type DemoClient = CreatedClient & { personaId: number };

export async function createDemoClientOnce(deps: {
  db: Db;
  secrets: SecretBox;
  safeFetch: Pick<SafeFetch, 'admit'>;
  now: () => number;
}): Promise<DemoClient | undefined> {
  const existing = await deps.db.selectFrom('clients').select('id').limit(1).executeTakeFirst();
  if (existing) return undefined;
  return deps.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('app_state')
      .values({ key: DEMO_MARKER, value: '', created_at: deps.now() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) return undefined;
    const created = await createClient({ ...deps, db: trx }, { name: 'Demo client' });
    // A photo persona too, so that an inspection link can be tried at once.
    const persona = await createPersona({ ...deps, db: trx }, { clientId: created.client.id, kind: 'photo' });
    await trx
      .updateTable('app_state')
      .set({ value: created.client.id })
      .where('key', '=', DEMO_MARKER)
      .execute();
    return { ...created, personaId: persona.id };
  });
}
