// walkaround estimates export (docs/estimate.md#export): the estimate lines of the inspections created in
// a date range, as CSV on standard output, for a claims system to take.
import { Command } from 'commander';
import { estimateCsv, estimatesBetween } from '../services/estimates/export.js';
import { withStorage } from './context.js';
import { day } from './options.js';

const DAY_MS = 24 * 3600 * 1000;

export function estimatesCommand(): Command {
  const estimates = new Command('estimates').description('repair estimates');
  estimates
    .command('export')
    .description('estimate lines of the inspections created in a date range, as CSV on standard output')
    .requiredOption('--since <day>', 'created on or after this day (UTC)', day)
    .option('--until <day>', 'created on or before this day (UTC; default: today)', day)
    .option('--client <id>', "one client's inspections (default: every client)")
    .action((o: { since: number; until?: number; client?: string }) =>
      withStorage(async (deps) => {
        const to = (o.until ?? Date.now() - (Date.now() % DAY_MS)) + DAY_MS;
        process.stdout.write(estimateCsv([]));
        for await (const inspection of estimatesBetween(deps.db, { clientId: o.client, from: o.since, to }))
          process.stdout.write(estimateCsv([inspection], false));
      }),
    );
  return estimates;
}
