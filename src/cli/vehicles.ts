// walkaround vehicles list|show|merge (docs/vehicles.md#the-cli): a client's vehicles, one vehicle's
// history, and merging two vehicles that are one (a plate changed before the VIN was known).
import { Command } from 'commander';
import { AppError } from '../domain/errors.js';
import { CLI_ACTOR } from '../services/audit.js';
import { listVehicles, mergeVehicles, vehicleHistory } from '../services/vehicles/vehicles.js';
import { print, table, withStorage } from './context.js';
import { positiveInteger } from './options.js';

const dash = (value: string | null) => value ?? '–';

export function vehiclesCommand(): Command {
  const vehicles = new Command('vehicles').description("a client's vehicles and their inspections");
  vehicles
    .command('list')
    .description("list a client's vehicles, last seen first")
    .requiredOption('--client <id>', 'the client')
    .option('--search <vin-or-plate>', 'only the vehicle with this VIN or plate (any case or separators)')
    .option('--limit <n>', 'at most this many', positiveInteger, 100)
    .option('--json', 'print one JSON object')
    .action(async (o: { client: string; search?: string; limit: number; json?: boolean }) =>
      withStorage(async (deps) => {
        const found = await listVehicles(deps.db, { clientId: o.client, search: o.search, limit: o.limit });
        print(o.json, { vehicles: found }, () =>
          found.length === 0
            ? 'No vehicles.'
            : found
                .map(
                  (v) =>
                    `${v.id}  VIN ${dash(v.vin)}  plate ${dash(v.plate)}  ${v.inspections} inspection(s)`,
                )
                .join('\n'),
        );
      }),
    );
  vehicles
    .command('show')
    .description("a vehicle's keys and its inspections, oldest first")
    .argument('<id>', 'the vehicle id')
    .requiredOption('--client <id>', 'the client it belongs to')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { client: string; json?: boolean }) =>
      withStorage(async (deps) => {
        const vehicle = await vehicleHistory(deps.db, { clientId: o.client, vehicleId: id });
        if (!vehicle) throw new AppError('VEHICLE_NOT_FOUND', { params: { id } });
        print(o.json, vehicle, () =>
          [
            table([
              ['id', vehicle.id],
              ['keys', vehicle.keys.map((k) => `${k.kind} ${k.value}`).join(', ')],
            ]),
            ...vehicle.history.map(
              (h) =>
                `${h.created_at}  ${h.inspection_id}  ${h.status}` +
                (h.odometer ? `  ${h.odometer.read} ${h.odometer.unit ?? ''}`.trimEnd() : '') +
                (h.possible_new_damage ? '  possible new damage' : '') +
                (h.odometer_rollback ? '  odometer rollback' : ''),
            ),
          ].join('\n'),
        );
      }),
    );
  vehicles
    .command('merge')
    .description('merge vehicle <from> into <into>: its inspections, VIN and plates move; <from> is deleted')
    .argument('<from>', 'the vehicle that goes away')
    .argument('<into>', 'the vehicle that stays')
    .option('--json', 'print one JSON object')
    .action(async (from: string, into: string, o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const merged = await mergeVehicles(deps, { fromId: from, intoId: into }, CLI_ACTOR);
        print(o.json, merged, () => `Merged ${from} into ${into}: ${merged.inspections} inspection(s).`);
      }),
    );
  return vehicles;
}
