// Share links (docs/portal.md#sharing): a read-only view of one inspection's report for someone without
// an account. Expiring (7 days unless asked otherwise, at most 90), revocable, optionally with faces and
// plates blurred. The token is random, shown once in the link's fragment, and stored as its SHA-256.
import { portalActor, recordAudit } from '../audit.js';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../domain/schema.js';
import crypto from 'node:crypto';
import { AppError } from '../../domain/errors.js';
import { inTransaction, type Db, type InspectionRow, type ShareLinkRow } from '../../ports/database.js';
import { requireChange, visibleInspection } from './access.js';
import type { PortalCaller } from './sessions.js';

export const DEFAULT_SHARE_DAYS = 7;
export const MAX_SHARE_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;

export const ShareView = Type.Object({
  id: Type.String(),
  blur: Type.Boolean({ description: 'Faces and licence plates are blurred in what the link shows.' }),
  details: Type.Boolean({
    description:
      'The link also shows fraud signals, hashes, EXIF, readings and file names; by default only the photos, damages and review.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
  created_by: Nullable(Type.String({ description: 'E-mail of the portal user who made it.' })),
});
export type ShareView = Static<typeof ShareView>;

/** A new share link, with its address (shown this once: only the token's hash is kept). */
export const NewShare = Type.Composite([ShareView, Type.Object({ url: Type.String() })]);

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function createShare(
  deps: { db: Db; now: () => number; publicBaseUrl: string },
  caller: PortalCaller,
  inspectionId: string,
  input: { days?: number | undefined; blur?: boolean | undefined; details?: boolean | undefined },
): Promise<Static<typeof NewShare>> {
  requireChange(caller);
  const inspection = await visibleInspection(deps.db, caller, inspectionId);
  if (inspection.result === null) throw new AppError('PORTAL_NOT_ANALYSED');
  const days = input.days ?? DEFAULT_SHARE_DAYS;
  const token = crypto.randomBytes(32).toString('base64url');
  const now = deps.now();
  const row: ShareLinkRow = {
    id: crypto.randomUUID(),
    token_hash: sha256(token),
    inspection_id: inspection.id,
    client_id: inspection.client_id,
    created_by: caller.userId,
    blur: input.blur ? 1 : 0,
    details: input.details ? 1 : 0,
    created_at: now,
    expires_at: now + days * DAY_MS,
    revoked_at: null,
  };
  await inTransaction(deps.db, async (trx) => {
    await trx.insertInto('share_links').values(row).execute();
    await recordAudit(trx, now, {
      actor: portalActor(caller),
      action: 'share.create',
      object: { type: 'share_link', id: row.id },
      clientId: row.client_id,
      after: {
        inspection_id: row.inspection_id,
        blur: input.blur === true,
        details: input.details === true,
        expires_at: new Date(row.expires_at).toISOString(),
      },
    });
  });
  return { ...view(row, caller.email), url: `${deps.publicBaseUrl}/portal/#/share/${token}` };
}

export async function listShares(db: Db, caller: PortalCaller, inspectionId: string): Promise<ShareView[]> {
  await visibleInspection(db, caller, inspectionId);
  const rows = await db
    .selectFrom('share_links')
    .leftJoin('portal_users', 'portal_users.id', 'share_links.created_by')
    .selectAll('share_links')
    .select('portal_users.email')
    .where('share_links.inspection_id', '=', inspectionId)
    .orderBy('share_links.created_at', 'desc')
    .execute();
  return rows.map((row) => view(row, row.email));
}

/** Ends a share link at once; NOT_FOUND for one the caller cannot see. */
export async function revokeShare(
  deps: { db: Db; now: () => number },
  caller: PortalCaller,
  shareId: string,
): Promise<void> {
  requireChange(caller);
  const now = deps.now();
  const revoked = await inTransaction(deps.db, async (trx) => {
    let query = trx
      .updateTable('share_links')
      .set({ revoked_at: now })
      .where('id', '=', shareId)
      .where('revoked_at', 'is', null);
    if (caller.clientId !== null) query = query.where('client_id', '=', caller.clientId);
    const row = await query.returning(['id', 'client_id', 'inspection_id']).executeTakeFirst();
    if (row)
      await recordAudit(trx, now, {
        actor: portalActor(caller),
        action: 'share.revoke',
        object: { type: 'share_link', id: row.id },
        clientId: row.client_id,
        after: { inspection_id: row.inspection_id },
      });
    return row !== undefined;
  });
  if (!revoked) {
    // Already revoked is fine; unknown, or another client's, is not found.
    let exists = deps.db.selectFrom('share_links').select('id').where('id', '=', shareId);
    if (caller.clientId !== null) exists = exists.where('client_id', '=', caller.clientId);
    if (!(await exists.executeTakeFirst())) throw new AppError('NOT_FOUND');
  }
}

/** The inspection a share token opens: NOT_FOUND for an unknown token, SHARE_LINK_GONE once it has ended. */
export async function sharedInspection(
  deps: { db: Db; now: () => number },
  token: string | undefined,
): Promise<{ share: ShareLinkRow; inspection: InspectionRow }> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AppError('NOT_FOUND');
  const share = await deps.db
    .selectFrom('share_links')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!share) throw new AppError('NOT_FOUND');
  if (share.revoked_at !== null || share.expires_at <= deps.now()) throw new AppError('SHARE_LINK_GONE');
  const inspection = await deps.db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', share.inspection_id)
    .where('client_id', '=', share.client_id)
    .executeTakeFirstOrThrow();
  return { share, inspection };
}

function view(row: ShareLinkRow, createdBy: string | null): ShareView {
  return {
    id: row.id,
    blur: row.blur === 1,
    details: row.details === 1,
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at)!,
    revoked_at: iso(row.revoked_at),
    created_by: createdBy,
  };
}
