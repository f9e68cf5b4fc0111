import type { Kysely } from 'kysely';

/**
 * A client's rate card for repair estimates (docs/estimate.md#the-rate-card): the card as JSON (null: the
 * example card), and its version, which grows with every change and is named in each estimate. Each
 * inspection's latest estimate total, in hundredths of its currency, so the portal's list sorts and
 * filters by it from an index (docs/portal.md#search).
 */
export function rateCards() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('clients').addColumn('rate_card', 'text').execute();
      await db.schema
        .alterTable('clients')
        .addColumn('rate_card_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('inspections').addColumn('estimate_total_cents', 'bigint').execute();
      await db.schema
        .createIndex('inspections_client_total')
        .on('inspections')
        .columns(['client_id', 'estimate_total_cents', 'id'])
        .execute();
    },
  };
}
