// Reused photos (docs/result.md): an image whose perceptual hash is near one of the same client's earlier
// inspections, or of another image of the same upload, is flagged with the match and its distance.
import { type Db, inTransaction } from '../../ports/database.js';

export interface Fingerprinted {
  mediaId: string;
  dhash: string;
}

export interface ReuseMatch {
  media_id: string;
  inspection_id: string;
  distance: number;
}

/** How far back a client's fingerprints are compared (bounded work per image). */
const HISTORY_LIMIT = 20_000;

export async function findReuse(
  db: Db,
  input: { clientId: string; inspectionId: string; images: Fingerprinted[]; maxDistance: number },
  distance: (a: string, b: string) => number,
): Promise<Map<string, ReuseMatch[]>> {
  const earlier = await db
    .selectFrom('fingerprints')
    .select(['media_id', 'inspection_id', 'dhash'])
    .where('client_id', '=', input.clientId)
    .where('inspection_id', '!=', input.inspectionId)
    .orderBy('created_at', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  const candidates = [
    ...earlier,
    ...input.images.map((i) => ({ media_id: i.mediaId, inspection_id: input.inspectionId, dhash: i.dhash })),
  ];
  const matches = new Map<string, ReuseMatch[]>();
  for (const image of input.images) {
    const found = candidates
      .filter((c) => c.media_id !== image.mediaId)
      .map((c) => ({
        media_id: c.media_id,
        inspection_id: c.inspection_id,
        distance: distance(image.dhash, c.dhash),
      }))
      .filter((m) => m.distance <= input.maxDistance)
      .sort((a, b) => a.distance - b.distance)
      .slice(0, 10);
    matches.set(image.mediaId, found);
  }
  return matches;
}

/** Replaces the inspection's fingerprints (re-analysis writes them again). */
export async function saveFingerprints(
  db: Db,
  input: { clientId: string; inspectionId: string; images: Fingerprinted[]; now: number },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('fingerprints').where('inspection_id', '=', input.inspectionId).execute();
    if (input.images.length === 0) return;
    await trx
      .insertInto('fingerprints')
      .values(
        input.images.map((i) => ({
          media_id: i.mediaId,
          inspection_id: input.inspectionId,
          client_id: input.clientId,
          dhash: i.dhash,
          created_at: input.now,
        })),
      )
      .execute();
  });
}
