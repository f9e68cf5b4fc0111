import { sql, type Kysely } from 'kysely';
import { digestOf, searchFactsOf } from '../../../domain/result/digest.js';

/**
 * The results portal (docs/portal.md): three roles for portal users, server-side sessions, every version
 * of a result kept, what the list shows and searches beside each inspection, and share links.
 *
 * Portal users: the role `client` becomes `client_viewer` (read only; an operator promotes a user who
 * reviews with `walkaround users update --role client-admin`). SQLite cannot change a CHECK constraint,
 * so the table is rebuilt, on both databases alike.
 */
export function portal() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('portal_users_new')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) =>
          c.notNull().check(sql`role in ('operator', 'client_admin', 'client_viewer')`),
        )
        .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
        .addColumn('disabled_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into portal_users_new (id, email, password_hash, role, client_id, created_at)
        select id, email, password_hash,
          case when role = 'operator' then 'operator' else 'client_viewer' end, client_id, created_at
        from portal_users`.execute(db);
      await db.schema.dropTable('portal_users').execute();
      await db.schema.alterTable('portal_users_new').renameTo('portal_users').execute();

      await db.schema
        .createTable('portal_sessions')
        // SHA-256 of the cookie's value: a database dump opens no session.
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('portal_users.id').onDelete('cascade'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('portal_sessions_user').on('portal_sessions').column('user_id').execute();

      await db.schema
        .createTable('inspection_results')
        .addColumn('inspection_id', 'text', (c) =>
          c.notNull().references('inspections.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('analysis', 'review')`))
        .addColumn('author_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('inspection_results_pk', ['inspection_id', 'version'])
        .execute();

      await db.schema.alterTable('inspections').addColumn('digest', 'text').execute();
      await db.schema.alterTable('inspections').addColumn('review_decision', 'text').execute();
      await db.schema.alterTable('inspections').addColumn('reviewed_at', 'bigint').execute();
      // The list: newest first, per client (client users) or across clients (operators), with a stable
      // order for keyset pagination, and the status in the index so that the counts per status are read
      // from it alone; and the search by case id.
      await db.schema.dropIndex('inspections_client_created').execute();
      await db.schema
        .createIndex('inspections_client_created')
        .on('inspections')
        .columns(['client_id', 'created_at', 'id', 'status'])
        .execute();
      await db.schema
        .createIndex('inspections_created')
        .on('inspections')
        .columns(['created_at', 'id', 'status'])
        .execute();
      // A search by fact reads each match's status (the counts) from this index alone, never from the
      // inspection's row, which carries its whole result.
      await db.schema
        .createIndex('inspections_status')
        .on('inspections')
        .columns(['id', 'status', 'client_id'])
        .execute();
      await db.schema
        .createIndex('inspections_client_case')
        .on('inspections')
        .columns(['client_id', 'case_id'])
        .execute();
      await db.schema.createIndex('inspections_case').on('inspections').column('case_id').execute();

      await db.schema
        .createTable('inspection_facts')
        .addColumn('inspection_id', 'text', (c) =>
          c.notNull().references('inspections.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('flag', 'plate', 'vin')`))
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('inspection_facts_pk', ['inspection_id', 'kind', 'value'])
        .execute();
      await db.schema
        .createIndex('inspection_facts_client')
        .on('inspection_facts')
        .columns(['client_id', 'kind', 'value', 'created_at', 'inspection_id'])
        .execute();
      await db.schema
        .createIndex('inspection_facts_all')
        .on('inspection_facts')
        .columns(['kind', 'value', 'created_at', 'inspection_id'])
        .execute();

      await db.schema
        .createTable('share_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // SHA-256 of the token; the token is shown once, in the link.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('inspection_id', 'text', (c) =>
          c.notNull().references('inspections.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        // 1: faces and plates are blurred in what the link shows (0/1, no booleans: ADR 1).
        .addColumn('blur', 'integer', (c) => c.notNull().check(sql`blur in (0, 1)`))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('share_links_inspection')
        .on('share_links')
        .column('inspection_id')
        .execute();

      await backfill(db as Kysely<Backfill>);
    },
  };
}

interface Backfill {
  inspections: {
    id: string;
    client_id: string;
    result: string | null;
    result_version: number;
    status: string;
    digest: string | null;
    created_at: number;
    updated_at: number;
  };
  inspection_results: {
    inspection_id: string;
    version: number;
    result: string;
    origin: string;
    author_id: string | null;
    created_at: number;
  };
  inspection_facts: {
    inspection_id: string;
    client_id: string;
    kind: string;
    value: string;
    created_at: number;
  };
}

/** Results stored before: their current version is kept as a version, and their digest and facts filled. */
async function backfill(db: Kysely<Backfill>): Promise<void> {
  const BATCH = 500;
  for (let after = ''; ;) {
    const rows = await db
      .selectFrom('inspections')
      .select(['id', 'client_id', 'result', 'result_version', 'status', 'created_at', 'updated_at'])
      .where('id', '>', after)
      .where('result', 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      const result = JSON.parse(row.result!) as unknown;
      if (row.status !== 'completed' || row.result_version < 1) continue;
      await db
        .insertInto('inspection_results')
        .values({
          inspection_id: row.id,
          version: row.result_version,
          result: row.result!,
          origin: 'analysis',
          author_id: null,
          created_at: row.updated_at,
        })
        .execute();
      await db
        .updateTable('inspections')
        .set({ digest: JSON.stringify(digestOf(result)) })
        .where('id', '=', row.id)
        .execute();
      const facts = searchFactsOf(result).map((fact) => ({
        ...fact,
        inspection_id: row.id,
        client_id: row.client_id,
        created_at: row.created_at,
      }));
      if (facts.length > 0) await db.insertInto('inspection_facts').values(facts).execute();
    }
  }
}
