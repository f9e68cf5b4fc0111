import type { Kysely } from 'kysely';

/**
 * Logos uploaded in the portal for a persona's branding (docs/portal.md#the-persona-editor). The bytes
 * are in media storage under their content address; this table says which stored objects are logos, the
 * only ones the public logo route serves (never an inspection's photo, whatever hash is asked for).
 */
export function personaLogos() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('persona_logos')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
