// walkaround outbox list [--client <id>] [--status <status>] [--limit <n>] [--json] | send <id>
import { CLI_ACTOR } from '../services/audit.js';
import { Command } from 'commander';
import type { OutboxStatus } from '../ports/database.js';
import { createQueue } from '../deps.js';
import { releaseHeldMessage } from '../services/outbox/release-held.js';
import { listOutbox, OUTBOX_STATUSES, type OutboxView } from '../services/outbox/list.js';
import { print, table, withStorage } from './context.js';
import { oneOf, positiveInteger } from './options.js';

interface ListOptions {
  client?: string;
  status?: OutboxStatus;
  limit: number;
  reveal?: boolean;
  json?: boolean;
}

const messageLines = (m: OutboxView): [string, string][] => [
  ['id', m.id],
  ['client', m.client_id ?? '-'],
  ['kind', m.kind],
  ['link', m.link_id ?? '-'],
  ['to', `${m.recipient} (${m.channel}, ${m.language})`],
  ...(m.subject === null ? [] : [['subject', m.subject] as [string, string]]),
  ['status', `${m.status} after ${m.attempts} attempt(s)`],
  ...(m.last_error === null ? [] : [['last error', m.last_error] as [string, string]]),
  ['created', m.created_at],
  ...(m.sent_at === null
    ? []
    : [['sent', `${m.sent_at} (${m.provider_message_id ?? 'no provider id'})`] as [string, string]]),
];

export function outboxCommand(): Command {
  const outbox = new Command('outbox').description('link messages (e-mail and SMS) and their state');
  outbox
    .command('list')
    .description(
      'list link messages, newest first; held ones wait for a provider and can be passed on by hand',
    )
    .option('--client <id>', 'only the messages of this client')
    .option(
      '--status <status>',
      `only messages in this state (${OUTBOX_STATUSES.join(', ')})`,
      oneOf(...OUTBOX_STATUSES),
    )
    .option('--limit <n>', 'at most this many messages', positiveInteger, 100)
    .option('--reveal', 'show the link in messages that may still go out (to pass a held one on by hand)')
    .option('--json', 'print one JSON object')
    .action((o: ListOptions) =>
      withStorage(async (deps) => {
        const filter = { clientId: o.client, status: o.status, limit: o.limit };
        const messages = await listOutbox(deps.db, filter, o.reveal ? deps : undefined);
        print(o.json, { messages }, () =>
          messages.length === 0
            ? 'No messages.'
            : messages
                .map((m) =>
                  [
                    `${m.channel === 'email' ? 'E-mail' : 'SMS'} ${m.id}`,
                    table(messageLines(m)),
                    '',
                    indent(m.body),
                  ].join('\n'),
                )
                .join('\n\n'),
        );
      }),
    );
  outbox
    .command('send')
    .description('send a held message, once its channel has a provider (a running worker sends it)')
    .argument('<id>', 'the message id')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const { smtp, sms } = deps.config.messages;
        const queue = await createQueue(deps, deps.config);
        const configured = (channel: 'email' | 'sms') => (channel === 'email' ? smtp : sms) !== undefined;
        await releaseHeldMessage({ ...deps, queue, configured }, id, CLI_ACTOR).finally(() => queue.close());
        print(o.json, { id, status: 'pending' }, () => `Message ${id} queued to be sent.`);
      }),
    );
  return outbox;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
