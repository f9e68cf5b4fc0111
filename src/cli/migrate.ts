// walkaround migrate: apply pending database migrations (serve also does this at start).
import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { migrate, openDatabase } from '../adapters/db/connect.js';
import { print } from './context.js';

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const config = loadConfig();
      const database = openDatabase(config.database);
      try {
        const applied = await migrate(database);
        print(o.json, { database: config.database.kind, applied }, () =>
          applied.length === 0 ? 'The database is up to date.' : `Applied: ${applied.join(', ')}`,
        );
      } finally {
        await database.close();
      }
    });
}
