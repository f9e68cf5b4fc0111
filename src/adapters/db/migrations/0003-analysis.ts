import type { Kysely } from 'kysely';

/**
 * Perceptual hashes of analysed images, to find photos reused across a client's inspections; and the
 * graphile-worker workers each process runs, to release the jobs of a process that died (ADR 4).
 */
export function analysis() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('fingerprints')
        .addColumn('media_id', 'text', (c) => c.primaryKey().references('media.id').onDelete('cascade'))
        .addColumn('inspection_id', 'text', (c) =>
          c.notNull().references('inspections.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('dhash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('fingerprints_client')
        .on('fingerprints')
        .columns(['client_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('queue_workers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
