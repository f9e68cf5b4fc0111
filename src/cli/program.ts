import { Command } from 'commander';
import { VERSION } from '../version.js';
import { clientsCommand } from './clients.js';
import { deliveriesCommand } from './deliveries.js';
import { inspectionsCommand } from './inspections.js';
import { vehiclesCommand } from './vehicles.js';
import { estimatesCommand } from './estimates.js';
import { migrateCommand } from './migrate.js';
import { outboxCommand } from './outbox.js';
import { auditCommand } from './audit.js';
import { labelsCommand } from './labels.js';
import { personasCommand } from './personas.js';
import { serveCommand } from './serve.js';
import { signingKeysCommand } from './signing-keys.js';
import { usersCommand } from './users.js';
import { webhooksCommand } from './webhooks.js';

export function buildProgram(): Command {
  return new Command('walkaround')
    .description(
      'Vehicle inspection media service. Settings come from the environment (see docs/configuration.md).',
    )
    .version(VERSION)
    .addCommand(serveCommand())
    .addCommand(migrateCommand())
    .addCommand(clientsCommand())
    .addCommand(personasCommand())
    .addCommand(usersCommand())
    .addCommand(signingKeysCommand())
    .addCommand(inspectionsCommand())
    .addCommand(vehiclesCommand())
    .addCommand(estimatesCommand())
    .addCommand(deliveriesCommand())
    .addCommand(webhooksCommand())
    .addCommand(outboxCommand())
    .addCommand(labelsCommand())
    .addCommand(auditCommand())
    .showHelpAfterError();
}
