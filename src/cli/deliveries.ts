// walkaround deliveries resend <message-id>
import { CLI_ACTOR } from '../services/audit.js';
import { Command } from 'commander';
import { createQueue } from '../deps.js';
import { resendMessage } from '../services/webhooks/delivery-log.js';
import { print, withStorage } from './context.js';

export function deliveriesCommand(): Command {
  const deliveries = new Command('deliveries').description('webhook deliveries');
  deliveries
    .command('resend')
    .description('send a webhook message again (same webhook-id); a running worker delivers it')
    .argument('<id>', 'the message id (webhook-id), e.g. msg_…')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const queue = await createQueue(deps, deps.config);
        const queued = await resendMessage({ ...deps, queue }, id, { clientId: null }, CLI_ACTOR).finally(
          () => queue.close(),
        );
        if (!queued) throw new Error(`No webhook message ${id}`);
        print(o.json, { id, status: 'queued' }, () => `Webhook message ${id} queued to be sent again.`);
      }),
    );
  return deliveries;
}
