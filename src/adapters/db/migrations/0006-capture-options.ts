import { sql, type Kysely } from 'kysely';

/**
 * Capture options of personas (docs/api.md#personas) and the capture metadata the app sends with each
 * upload (docs/api.md#resumable-uploads), kept with the captured media and carried to the inspection's
 * media at submit. Existing personas get the defaults: no gallery, no location, photos as captured, and
 * every step accepting a photo that fails the quality pre-check (as the app behaved before).
 */
export function captureOptions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Integers 0/1, not booleans: one query on SQLite and PostgreSQL alike (ADR 1).
      await db.schema
        .alterTable('personas')
        .addColumn('allow_gallery', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(0)
            .check(sql`allow_gallery in (0, 1)`),
        )
        .execute();
      await db.schema
        .alterTable('personas')
        .addColumn('ask_location', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(0)
            .check(sql`ask_location in (0, 1)`),
        )
        .execute();
      await db.schema.alterTable('personas').addColumn('max_photo_dimension', 'integer').execute();
      await db.schema.alterTable('link_media').addColumn('capture_metadata', 'text').execute();
      await db.schema.alterTable('media').addColumn('capture_metadata', 'text').execute();

      // The steps are JSON text: the new step field is filled in code, one persona at a time.
      const personas = db as unknown as Kysely<{ personas: { id: number; steps: string } }>;
      const rows = await personas.selectFrom('personas').select(['id', 'steps']).execute();
      for (const row of rows) {
        const steps = (JSON.parse(row.steps) as Record<string, unknown>[]).map((step) => ({
          ...step,
          accept_poor_quality: step.accept_poor_quality ?? true,
        }));
        await personas
          .updateTable('personas')
          .set({ steps: JSON.stringify(steps) })
          .where('id', '=', row.id)
          .execute();
      }
    },
  };
}
