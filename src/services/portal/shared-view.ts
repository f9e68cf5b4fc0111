// What a share link shows to someone without an account (docs/portal.md#sharing): the inspection's latest
// result, read only.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { ResultBody } from '../../domain/result/index.js';
import { Nullable } from '../../domain/schema.js';
import type { Db, InspectionRow, ShareLinkRow } from '../../ports/database.js';

export const SharedView = Type.Object({
  client_name: Type.String(),
  case_id: Type.String(),
  review_decision: Nullable(Type.Union([Type.Literal('accepted'), Type.Literal('rejected')])),
  blur: Type.Boolean({ description: 'Faces and licence plates are blurred in the photos and the PDF.' }),
  expires_at: Type.String({ format: 'date-time' }),
  result: ResultBody,
});
export type SharedView = Static<typeof SharedView>;

/** The shared inspection as the share page shows it; PORTAL_NOT_ANALYSED until it has a result. */
export async function sharedView(
  db: Db,
  opened: { share: ShareLinkRow; inspection: InspectionRow },
): Promise<SharedView> {
  const { share, inspection } = opened;
  if (inspection.result === null) throw new AppError('PORTAL_NOT_ANALYSED');
  const client = await db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  return {
    client_name: client.name,
    case_id: inspection.case_id,
    review_decision: inspection.review_decision,
    blur: share.blur === 1,
    expires_at: new Date(share.expires_at).toISOString(),
    result: JSON.parse(inspection.result) as SharedView['result'],
  };
}
