import type { Kysely } from 'kysely';

/**
 * Vehicles and their history (docs/vehicles.md): a vehicle of one client, the keys it is found by (its VIN,
 * its normalised plates; a merge moves the keys too, so a changed plate still finds it), the vehicle
 * each completed inspection belongs to, the inspection a new one is compared with when the client named
 * it (`compare_with`), and the client's switch for automatic comparison (0/1, no booleans: ADR 1).
 */
export function vehicles() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('vehicles')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('vin', 'text')
        .addColumn('plate', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('vehicles_client')
        .on('vehicles')
        .columns(['client_id', 'updated_at'])
        .execute();
      await db.schema
        .createTable('vehicle_keys')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('vehicle_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('vehicle_keys_pk', ['client_id', 'kind', 'value'])
        .execute();
      await db.schema.createIndex('vehicle_keys_vehicle').on('vehicle_keys').column('vehicle_id').execute();
      await db.schema.alterTable('inspections').addColumn('vehicle_id', 'text').execute();
      await db.schema.alterTable('inspections').addColumn('compare_with', 'text').execute();
      await db.schema
        .createIndex('inspections_vehicle')
        .on('inspections')
        .columns(['vehicle_id', 'created_at'])
        .execute();
      await db.schema.alterTable('links').addColumn('compare_with', 'text').execute();
      await db.schema
        .alterTable('clients')
        .addColumn('auto_compare', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  };
}
