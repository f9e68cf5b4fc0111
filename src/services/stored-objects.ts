// Content-addressed media objects are shared: an upload and a link capture with the same bytes point to
// one object. An object is only deleted once no inspection media and no captured media refer to it.
import type { Db } from '../ports/database.js';
import type { MediaStorage, StoredObject } from '../ports/media-storage.js';

export async function deleteIfUnreferenced(
  deps: { db: Db; storage: MediaStorage },
  object: Pick<StoredObject, 'key' | 'sha256'>,
): Promise<void> {
  const referenced = async (table: 'media' | 'link_media') =>
    (await deps.db
      .selectFrom(table)
      .select('id')
      .where('sha256', '=', object.sha256)
      .limit(1)
      .executeTakeFirst()) !== undefined;
  if ((await referenced('media')) || (await referenced('link_media'))) return;
  await deps.storage.delete(object.key);
}
