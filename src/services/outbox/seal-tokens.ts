// Outbox rows written before link tokens were sealed hold them in clear in their body. At start, each
// is rewritten the way rows are written now: the body redacted and, while the message may still go
// out, the token sealed under SECRET_KEY (docs/security.md#credentials-and-tenants). Rows already in
// that form are left alone, so running it again does nothing.
import type { Db } from '../../ports/database.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { linkTokenIn, redactLinkTokens } from '../links/tokens.js';

/** Returns how many rows it rewrote. */
export async function sealLegacyOutboxTokens(deps: { db: Db; secrets: SecretBox }): Promise<number> {
  const rows = await deps.db
    .selectFrom('outbox_messages')
    .select(['id', 'body', 'status', 'link_token_sealed'])
    .where('body', 'like', '%#%')
    .execute();
  let rewritten = 0;
  for (const row of rows) {
    const token = linkTokenIn(row.body);
    if (token === undefined) continue;
    const mayGoOut = row.status === 'pending' || row.status === 'held';
    await deps.db
      .updateTable('outbox_messages')
      .set({
        body: redactLinkTokens(row.body),
        link_token_sealed: mayGoOut ? (row.link_token_sealed ?? deps.secrets.seal(token)) : null,
      })
      .where('id', '=', row.id)
      .execute();
    rewritten++;
  }
  return rewritten;
}
