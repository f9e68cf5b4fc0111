// Which client is the demo client of the first start: the `app_state` row that bootstrap.ts claims as
// its lock and then fills with the client's id. Its own module, so that what asks (the webhook
// listener's rules) need not import the bootstrap, which imports the clients, which import them.
import type { Db } from '../ports/database.js';

export const DEMO_MARKER = 'demo_client';

/** The demo client's id, if the first start created one. */
export async function demoClientId(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('app_state')
    .select('value')
    .where('key', '=', DEMO_MARKER)
    .executeTakeFirst();
  return row?.value || undefined;
}
