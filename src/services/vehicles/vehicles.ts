// A client's vehicles (docs/vehicles.md): found by their keys (VIN, plates), attached to each completed
// inspection, listed with their history, and merged when one vehicle was known under two keys (a plate
// changed). Every query names the client.
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../domain/schema.js';
import { AppError } from '../../domain/errors.js';
import { type Db, inTransaction, type VehicleRow } from '../../ports/database.js';
import { recordAudit, type AuditActor } from '../audit.js';
import type { VehicleKeys } from './keys.js';

/** The vehicle one of the keys finds: the VIN first, then the plate. */
export async function findVehicle(db: Db, clientId: string, keys: VehicleKeys): Promise<string | null> {
  for (const [kind, value] of [
    ['vin', keys.vin],
    ['plate', keys.plate],
  ] as const) {
    if (value === null) continue;
    const found = await db
      .selectFrom('vehicle_keys')
      .select('vehicle_id')
      .where('client_id', '=', clientId)
      .where('kind', '=', kind)
      .where('value', '=', value)
      .executeTakeFirst();
    if (found) return found.vehicle_id;
  }
  return null;
}

/**
 * Attaches the inspection to its vehicle, created when none is known, and records keys the vehicle did
 * not have yet (a key another vehicle holds stays with it). Returns the vehicle id, or null when the
 * inspection names no vehicle. In the caller's transaction: run twice, it attaches to the same vehicle.
 */
export async function attachVehicle(
  trx: Db,
  input: { clientId: string; inspectionId: string; keys: VehicleKeys; now: number },
): Promise<string | null> {
  const { clientId, keys, now } = input;
  if (keys.vin === null && keys.plate === null) return null;
  let vehicleId = await findVehicle(trx, clientId, keys);
  if (vehicleId === null) {
    vehicleId = crypto.randomUUID();
    await trx
      .insertInto('vehicles')
      .values({
        id: vehicleId,
        client_id: clientId,
        vin: keys.vin,
        plate: keys.plate,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } else {
    const seen = {
      updated_at: now,
      ...(keys.vin && { vin: keys.vin }),
      ...(keys.plate && { plate: keys.plate }),
    };
    await trx
      .updateTable('vehicles')
      .set(seen)
      .where('id', '=', vehicleId)
      .where('client_id', '=', clientId)
      .execute();
  }
  for (const [kind, value] of [
    ['vin', keys.vin],
    ['plate', keys.plate],
  ] as const)
    if (value !== null)
      await trx
        .insertInto('vehicle_keys')
        .values({ client_id: clientId, kind, value, vehicle_id: vehicleId })
        .onConflict((c) => c.columns(['client_id', 'kind', 'value']).doNothing())
        .execute();
  await trx
    .updateTable('inspections')
    .set({ vehicle_id: vehicleId })
    .where('id', '=', input.inspectionId)
    .where('client_id', '=', clientId)
    .execute();
  return vehicleId;
}

/** The vehicle's latest completed inspection created before `before` (not `exceptId` itself). */
export async function latestInspectionOf(
  db: Db,
  input: { clientId: string; vehicleId: string; exceptId: string; before: number },
): Promise<string | null> {
  const row = await db
    .selectFrom('inspections')
    .select('id')
    .where('client_id', '=', input.clientId)
    .where('vehicle_id', '=', input.vehicleId)
    .where('status', '=', 'completed')
    .where('id', '!=', input.exceptId)
    .where('created_at', '<=', input.before)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

export const VehicleSummary = Type.Object({
  id: Type.String(),
  vin: Nullable(Type.String(), { description: 'The VIN it was last seen with, normalised.' }),
  plate: Nullable(Type.String(), { description: 'The plate it was last seen with, normalised.' }),
  inspections: Type.Integer({ description: 'Completed inspections attached to it.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const VehicleView = Type.Composite([
  VehicleSummary,
  Type.Object({
    keys: Type.Array(
      Type.Object({ kind: Type.Union([Type.Literal('vin'), Type.Literal('plate')]), value: Type.String() }),
      { description: 'Every VIN and plate that finds this vehicle (a merge keeps both plates).' },
    ),
    history: Type.Array(
      Type.Object({
        inspection_id: Type.String(),
        case_id: Type.String(),
        created_at: Type.String({ format: 'date-time' }),
        status: Type.String(),
        odometer: Nullable(
          Type.Object({
            read: Type.Integer(),
            unit: Nullable(Type.Union([Type.Literal('km'), Type.Literal('mi')])),
          }),
          { description: 'The odometer read on its photos, if any.' },
        ),
        possible_new_damage: Type.Boolean({ description: 'Candidate new damage not decided yet.' }),
        new_damage: Type.Boolean({ description: 'New damage a reviewer confirmed.' }),
        odometer_rollback: Type.Boolean(),
        compared_with: Nullable(Type.String(), { description: 'The inspection it was compared with.' }),
      }),
      { description: 'Its inspections, oldest first.' },
    ),
  }),
]);

export type VehicleSummary = Static<typeof VehicleSummary>;
export type VehicleView = Static<typeof VehicleView>;
type VehicleHistoryEntry = VehicleView['history'][number];

const summaryOf = (v: VehicleRow, inspections: number): VehicleSummary => ({
  id: v.id,
  vin: v.vin,
  plate: v.plate,
  inspections,
  created_at: new Date(Number(v.created_at)).toISOString(),
  updated_at: new Date(Number(v.updated_at)).toISOString(),
});

/** The client's vehicles, last seen first; `search` matches a VIN or plate key (normalised). */
export async function listVehicles(
  db: Db,
  input: { clientId: string; search?: string | undefined; limit: number },
): Promise<VehicleSummary[]> {
  let query = db
    .selectFrom('vehicles')
    .selectAll('vehicles')
    .select((eb) =>
      eb
        .selectFrom('inspections')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('inspections.vehicle_id', '=', 'vehicles.id')
        .as('inspections'),
    )
    .where('vehicles.client_id', '=', input.clientId);
  if (input.search) {
    const value = input.search.toUpperCase().replace(/[^A-Z0-9]/g, '');
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('vehicle_keys')
          .select('vehicle_keys.vehicle_id')
          .whereRef('vehicle_keys.vehicle_id', '=', 'vehicles.id')
          .where('vehicle_keys.client_id', '=', input.clientId)
          .where('vehicle_keys.value', '=', value),
      ),
    );
  }
  const rows = await query
    .orderBy('vehicles.updated_at', 'desc')
    .orderBy('vehicles.id')
    .limit(input.limit)
    .execute();
  return rows.map((row) => summaryOf(row, Number(row.inspections ?? 0)));
}

/** One vehicle of the client with its inspections, oldest first; null when it is not the client's. */
export async function vehicleHistory(
  db: Db,
  input: { clientId: string; vehicleId: string },
): Promise<
  | (VehicleSummary & { keys: { kind: 'vin' | 'plate'; value: string }[]; history: VehicleHistoryEntry[] })
  | null
> {
  const vehicle = await db
    .selectFrom('vehicles')
    .selectAll()
    .where('id', '=', input.vehicleId)
    .where('client_id', '=', input.clientId)
    .executeTakeFirst();
  if (!vehicle) return null;
  const [keys, inspections] = await Promise.all([
    db
      .selectFrom('vehicle_keys')
      .select(['kind', 'value'])
      .where('client_id', '=', input.clientId)
      .where('vehicle_id', '=', vehicle.id)
      .orderBy('kind')
      .orderBy('value')
      .execute(),
    db
      .selectFrom('inspections')
      .select(['id', 'case_id', 'created_at', 'status', 'result'])
      .where('client_id', '=', input.clientId)
      .where('vehicle_id', '=', vehicle.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return {
    ...summaryOf(vehicle, inspections.length),
    keys,
    history: inspections.map((row) => historyEntry(row)),
  };
}

interface ResultLike {
  media?: { analysis?: { text?: { odometer?: { read?: number | null; unit?: 'km' | 'mi' | null } } } }[];
  summary?: { flags?: string[] };
  comparison?: { previous_inspection_id?: string } | null;
}

function historyEntry(row: {
  id: string;
  case_id: string;
  created_at: number;
  status: string;
  result: string | null;
}): VehicleHistoryEntry {
  const result = (row.result ? JSON.parse(row.result) : {}) as ResultLike;
  const flags = result.summary?.flags ?? [];
  return {
    inspection_id: row.id,
    case_id: row.case_id,
    created_at: new Date(Number(row.created_at)).toISOString(),
    status: row.status,
    odometer: odometerOf(result),
    possible_new_damage: flags.includes('possible_new_damage'),
    new_damage: flags.includes('new_damage'),
    odometer_rollback: flags.includes('odometer_rollback'),
    compared_with: result.comparison?.previous_inspection_id ?? null,
  };
}

/** The first odometer read in a result, or null. */
export function odometerOf(result: ResultLike): { read: number; unit: 'km' | 'mi' | null } | null {
  for (const item of result.media ?? []) {
    const odometer = item.analysis?.text?.odometer;
    if (typeof odometer?.read === 'number') return { read: odometer.read, unit: odometer.unit ?? null };
  }
  return null;
}

/**
 * Merges vehicle `fromId` into `intoId` (docs/vehicles.md#merging-vehicles), of one client: its
 * inspections and keys move, so that its VIN or old plate finds the merged vehicle, and it is deleted.
 * Audited like every change.
 */
export async function mergeVehicles(
  deps: { db: Db; now: () => number },
  input: { fromId: string; intoId: string },
  by: AuditActor,
): Promise<VehicleSummary> {
  const { fromId, intoId } = input;
  return inTransaction(deps.db, async (trx) => {
    const rows = await trx.selectFrom('vehicles').selectAll().where('id', 'in', [fromId, intoId]).execute();
    const from = rows.find((v) => v.id === fromId);
    const into = rows.find((v) => v.id === intoId);
    if (!from) throw new AppError('VEHICLE_NOT_FOUND', { params: { id: fromId } });
    if (!into) throw new AppError('VEHICLE_NOT_FOUND', { params: { id: intoId } });
    const refuse = (reason: string) =>
      new AppError('VEHICLES_NOT_MERGEABLE', { params: { from: fromId, into: intoId, reason } });
    if (fromId === intoId) throw refuse('they are the same vehicle');
    if (from.client_id !== into.client_id) throw refuse('they belong to different clients');
    const clientId = into.client_id;
    const now = deps.now();
    await trx
      .updateTable('inspections')
      .set({ vehicle_id: intoId })
      .where('client_id', '=', clientId)
      .where('vehicle_id', '=', fromId)
      .execute();
    await trx
      .updateTable('vehicle_keys')
      .set({ vehicle_id: intoId })
      .where('client_id', '=', clientId)
      .where('vehicle_id', '=', fromId)
      .execute();
    await trx.deleteFrom('vehicles').where('id', '=', fromId).where('client_id', '=', clientId).execute();
    const merged = await trx
      .updateTable('vehicles')
      .set({ vin: into.vin ?? from.vin, updated_at: now })
      .where('id', '=', intoId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, now, {
      actor: by,
      action: 'vehicle.merge',
      object: { type: 'vehicle', id: intoId },
      clientId,
      before: { merged: { id: from.id, vin: from.vin, plate: from.plate } },
      after: { id: merged.id, vin: merged.vin, plate: merged.plate },
    });
    const count = await trx
      .selectFrom('inspections')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('client_id', '=', clientId)
      .where('vehicle_id', '=', intoId)
      .executeTakeFirstOrThrow();
    return summaryOf(merged, Number(count.n));
  });
}
