// Content-addressed media objects are shared: an upload and a link capture with the same bytes point to
// one object. An object is only deleted once no inspection media and no captured media refer to it, and
// it is no persona logo (those are kept: an audit entry or an old link may still show them).
import type { Db } from '../ports/database.js';
import type { MediaStorage, StoredObject } from '../ports/media-storage.js';

export async function deleteIfUnreferenced(
  deps: { db: Db; storage: MediaStorage },
  object: Pick<StoredObject, 'key' | 'sha256'>,
): Promise<void> {
  const referenced = async (table: 'media' | 'link_media' | 'persona_logos') =>
    (await deps.db
      .selectFrom(table)
      .select('sha256')
      .where('sha256', '=', object.sha256)
      .limit(1)
      .executeTakeFirst()) !== undefined;
  if ((await referenced('media')) || (await referenced('link_media')) || (await referenced('persona_logos')))
    return;
  await deps.storage.delete(object.key);
}
