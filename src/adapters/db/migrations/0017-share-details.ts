import type { Kysely } from 'kysely';

/**
 * What a share link shows besides the photos, the damages and the review (docs/portal.md#sharing): with
 * `details` 1, also the fraud signals, hashes, EXIF, readings and file names; 0 (the default) hides
 * them from the outsider the link is sent to. 0/1, no booleans (ADR 1).
 */
export function shareDetails() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('share_links')
        .addColumn('details', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
