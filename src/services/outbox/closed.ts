// Whether what a message carries can still be used: an inspection link that is open, a set-password link
// that is neither used, replaced nor expired. A message whose link has closed is not sent (a retry hours
// later, a held message released late) and cannot be re-sent.
import type { Db, OutboxMessageRow } from '../../ports/database.js';

/** Why the message's link can no longer be used (`the link was submitted`), or undefined while it can. */
export async function whyClosed(
  deps: { db: Db; now: () => number },
  message: Pick<OutboxMessageRow, 'link_id' | 'password_link_id'>,
): Promise<{ reason: string; gone: boolean } | undefined> {
  if (message.link_id !== null) {
    const link = await deps.db
      .selectFrom('links')
      .select(['status', 'expires_at'])
      .where('id', '=', message.link_id)
      .executeTakeFirst();
    if (!link) return { reason: 'the link no longer exists', gone: true };
    if (link.status === 'submitted') return { reason: 'the link was submitted', gone: false };
    if (link.status === 'expired' || link.expires_at <= deps.now())
      return { reason: 'the link expired', gone: false };
  }
  if (message.password_link_id !== null) {
    const link = await deps.db
      .selectFrom('password_links')
      .select(['used_at', 'revoked_at', 'expires_at'])
      .where('id', '=', message.password_link_id)
      .executeTakeFirst();
    if (!link) return { reason: 'the set-password link no longer exists', gone: true };
    if (link.used_at !== null) return { reason: 'the set-password link was used', gone: false };
    if (link.revoked_at !== null)
      return { reason: 'a newer set-password link replaced this one', gone: false };
    if (link.expires_at <= deps.now()) return { reason: 'the set-password link expired', gone: false };
  }
  return undefined;
}
