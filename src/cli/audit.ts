// walkaround audit export: the audit log (docs/audit.md) as JSON lines on standard output, oldest first,
// for a SIEM or an archive. Reading it is not a change, so it records nothing.
import { Command } from 'commander';
import { exportAudit } from '../services/audit.js';
import { withStorage } from './context.js';
import { instant } from './options.js';

export function auditCommand(): Command {
  const audit = new Command('audit').description('who changed what, and when');
  audit
    .command('export')
    .description('the audit log as JSON lines on standard output, oldest first')
    .option('--since <time>', 'entries at or after this day (UTC) or time (ISO 8601)', instant)
    .option('--until <time>', 'entries before this day (UTC) or time (ISO 8601)', instant)
    .option('--client <id>', "one client's entries")
    .option('--action <action>', 'one action, e.g. client.update')
    .action((o: { since?: number; until?: number; client?: string; action?: string }) =>
      withStorage(async (deps) => {
        const filter = { since: o.since, until: o.until, clientId: o.client, action: o.action };
        for await (const entry of exportAudit(deps.db, filter)) {
          // Backpressure: a slow reader (a pipe to gzip, say) holds the export, not the memory.
          if (!process.stdout.write(`${JSON.stringify(entry)}\n`))
            await new Promise((resolve) => process.stdout.once('drain', resolve));
        }
      }),
    );
  return audit;
}
