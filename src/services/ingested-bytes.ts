// The bytes of an inspection's stored media, read once it is committed (docs/ops/metrics.md): what an
// accepted upload or link submit added to the media store.
import type { Db } from '../ports/database.js';

export async function ingestedBytes(db: Db, inspectionId: string): Promise<number> {
  const row = await db
    .selectFrom('media')
    .where('inspection_id', '=', inspectionId)
    .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
    .executeTakeFirst();
  return Number(row?.bytes ?? 0); // PostgreSQL answers a bigint sum as text
}
