// walkaround inspections reanalyse <session>
import { CLI_ACTOR } from '../services/audit.js';
import { Command } from 'commander';
import { createQueue } from '../deps.js';
import { requestReanalysis } from '../services/reanalysis.js';
import { print, withStorage } from './context.js';

export function inspectionsCommand(): Command {
  const inspections = new Command('inspections').description('work with inspections');
  inspections
    .command('reanalyse')
    .description('run the analysis again (for example after a damage model was configured)')
    .argument('<session>', 'the inspection id (the upload session)')
    .option('--json', 'print one JSON object')
    .action(async (session: string, o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const queue = await createQueue(deps, deps.config);
        const { previousVersion } = await requestReanalysis({ ...deps, queue }, session, CLI_ACTOR).finally(
          () => queue.close(),
        );
        print(
          o.json,
          {
            id: session,
            status: 'queued',
            previous_version: previousVersion,
            next_version: previousVersion + 1,
          },
          () =>
            `Inspection ${session} queued for analysis (result version ${previousVersion} → ${previousVersion + 1}).`,
        );
      }),
    );
  return inspections;
}
