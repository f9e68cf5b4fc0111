import type { Kysely } from 'kysely';

/**
 * Link messages no longer keep their link token in clear (docs/security.md#credentials-and-tenants): the
 * body keeps `#[redacted]` where the token goes, and the token is kept sealed under SECRET_KEY in
 * `link_token_sealed` until the message is sent or has failed. Rows written before are sealed at the
 * next start, in code (the migration has no key): see services/outbox/seal-tokens.ts.
 */
export function outboxSealedTokens() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('outbox_messages').addColumn('link_token_sealed', 'text').execute();
    },
  };
}
