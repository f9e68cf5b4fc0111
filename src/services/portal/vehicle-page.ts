// The portal's vehicle page (docs/portal.md#vehicles): one vehicle and its inspections on a timeline, for
// a user of its client or an operator. Another client's vehicle is answered as unknown.
import { AppError } from '../../domain/errors.js';
import type { Db } from '../../ports/database.js';
import { vehicleHistory, type VehicleView } from '../vehicles/vehicles.js';
import type { PortalCaller } from './sessions.js';

export async function vehiclePage(db: Db, caller: PortalCaller, id: string): Promise<VehicleView> {
  let query = db.selectFrom('vehicles').select('client_id').where('id', '=', id);
  if (caller.clientId !== null) query = query.where('client_id', '=', caller.clientId);
  const row = await query.executeTakeFirst();
  const vehicle = row && (await vehicleHistory(db, { clientId: row.client_id, vehicleId: id }));
  if (!vehicle) throw new AppError('NOT_FOUND');
  return vehicle;
}
