// A photo of the report as a JPEG of at most `maxSide` pixels, blurred where a blurred share hides
// people and plates. Decoded and shrunk one photo at a time (sharp shrinks a JPEG while decoding it), so
// a report of many 12 MP photos never holds more than one of them.
import type { Db } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { renderPhoto } from './media-files.js';
import type { ReportInput, ReportMedia } from './report.js';

export async function reportPhoto(
  deps: { storage: MediaStorage; db: Db },
  input: Pick<ReportInput, 'inspectionId' | 'blurred'>,
  item: ReportMedia,
  maxSide: number,
): Promise<Buffer | undefined> {
  const row = await deps.db
    .selectFrom('media')
    .select('storage_key')
    .where('id', '=', item.id)
    .where('inspection_id', '=', input.inspectionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const regions = input.blurred?.(item.id) ?? [];
  return (await renderPhoto(await deps.storage.get(row.storage_key), { maxSide, regions })).toBuffer();
}
