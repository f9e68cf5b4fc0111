import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../connect.js';
import { foundation } from './0001-foundation.js';

/** Migrations live in code (not files found at run time) so the compiled package carries them. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: (): Promise<Record<string, Migration>> =>
      Promise.resolve({
        '0001-foundation': foundation(dialect),
      }),
  };
}
