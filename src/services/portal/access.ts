// What a portal caller may see and do (docs/portal.md#roles): operators every client, client users their
// own client only; client admins and operators review and share, client viewers only read. Whatever is
// not the caller's is answered as if it did not exist.
import { AppError } from '../../domain/errors.js';
import type { Db, InspectionRow } from '../../ports/database.js';
import type { PortalCaller } from './sessions.js';

export const mayChange = (caller: Pick<PortalCaller, 'role'>): boolean => caller.role !== 'client_viewer';

/** Throws PORTAL_FORBIDDEN unless the caller may change things (review, share, re-send). */
export function requireChange(caller: Pick<PortalCaller, 'role'>): void {
  if (!mayChange(caller)) throw new AppError('PORTAL_FORBIDDEN');
}

/** The client a query is limited to: the caller's own, or none for operators (optionally one they chose). */
export function clientScope(caller: Pick<PortalCaller, 'clientId'>, chosen?: string): string | undefined {
  return caller.clientId ?? chosen;
}

/** The inspection, when the caller may see it; NOT_FOUND otherwise (also for another client's). */
export async function visibleInspection(db: Db, caller: PortalCaller, id: string): Promise<InspectionRow> {
  let query = db.selectFrom('inspections').selectAll().where('id', '=', id);
  if (caller.clientId !== null) query = query.where('client_id', '=', caller.clientId);
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}
