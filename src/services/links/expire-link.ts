// The job that closes a link when its validity ends (docs/api.md#token-lifetimes) and records `link.expired`.
// Access checks compare `expires_at` themselves, so a late job never keeps a link usable; the job makes the
// state and the event visible and drops what was captured, which no inspection will ever use. Idempotent: a
// link submitted or expired already is left alone.
import { type Db, inTransaction } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import type { Metrics } from '../../ports/metrics.js';
import { deleteIfUnreferenced } from '../stored-objects.js';
import type { EmitDeps } from '../webhooks/events.js';
import { emitLinkEvent } from './link-events.js';

export async function expireLink(
  deps: EmitDeps & { db: Db; storage: MediaStorage; metrics: Pick<Metrics, 'linkEvent'> },
  linkId: string,
): Promise<void> {
  const dropped = await inTransaction(deps.db, async (trx) => {
    const now = deps.now();
    const link = await trx.selectFrom('links').selectAll().where('id', '=', linkId).executeTakeFirst();
    if (!link || link.status !== 'open') return undefined;
    // Started early (clocks of two hosts): fail this run, the queue runs it again later.
    if (link.expires_at > now) throw new Error(`link ${linkId} is not due to expire yet`);
    const updated = await trx
      .updateTable('links')
      .set({ status: 'expired' })
      .where('id', '=', linkId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return undefined;
    await emitLinkEvent(trx, deps, 'link.expired', { ...link, status: 'expired' });
    return trx
      .deleteFrom('link_media')
      .where('link_id', '=', linkId)
      .returning(['storage_key as key', 'sha256'])
      .execute();
  });
  if (dropped === undefined) return; // submitted, expired already, or gone
  deps.metrics.linkEvent('expired');
  for (const object of dropped) await deleteIfUnreferenced(deps, object);
}
