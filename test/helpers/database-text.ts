// Every row of every table of the service's database, as one text, for tests that grep the database for
// secrets they made: a key, a webhook secret, a token or a password must only ever be stored hashed or
// sealed, so its plain text appears nowhere. Binary columns are compared as UTF-8 and as base64 text.
import type { Db } from '../../src/ports/database.js';

function asText(value: unknown): string {
  if (value instanceof Uint8Array) {
    const bytes = Buffer.from(value);
    return `${bytes.toString('utf8')}\n${bytes.toString('base64')}`;
  }
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

export async function databaseText(db: Db): Promise<string> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const parts: string[] = [];
  for (const table of tables) {
    // PostgreSQL's tables of other schemas too: the job queue's payloads are part of what is stored.
    const rows = await (table.schema ? db.withSchema(table.schema) : db)
      .selectFrom(table.name as never)
      .selectAll()
      .execute();
    for (const row of rows as Record<string, unknown>[]) parts.push(...Object.values(row).map(asText));
  }
  return parts.join('\n');
}
