// walkaround clients create|update|list|revoke-key|rotate-key|rotate-webhook-secret: see
// README.md#operating-it, and docs/api.md#operator-settings for what each setting changes for integrators.
import { Command, InvalidArgumentError } from 'commander';
import {
  createClient,
  listClients,
  revokeKeys,
  rotateKey,
  rotateWebhookSecret,
  updateClient,
  type ClientSettings,
} from '../services/clients/manage.js';
import type { ClientRow } from '../ports/database.js';
import { CLI_ACTOR } from '../services/audit.js';
import { print, table, when, withStorage } from './context.js';
import { durationSeconds, positiveInteger } from './options.js';
import { rateCardCommand } from './rate-card.js';

interface SettingOptions {
  name?: string;
  webhookUrl?: string;
  quota?: number;
  serviceWindow?: string;
  timezone?: string;
  tokenTtl?: number;
  webhookEvents?: string;
  autoCompare?: boolean;
  json?: boolean;
}

const settingsFrom = (o: SettingOptions): ClientSettings => ({
  ...(o.name !== undefined && { name: o.name }),
  ...(o.webhookUrl !== undefined && { webhookUrl: o.webhookUrl === '' ? null : o.webhookUrl }),
  ...(o.quota !== undefined && { quotaPerHour: o.quota }),
  ...(o.serviceWindow !== undefined && { serviceWindow: o.serviceWindow }),
  ...(o.timezone !== undefined && { timezone: o.timezone }),
  ...(o.tokenTtl !== undefined && { linkTtlSeconds: o.tokenTtl }),
  ...(o.autoCompare !== undefined && { autoCompare: o.autoCompare }),
  ...(o.webhookEvents !== undefined && {
    webhookEvents: o.webhookEvents === 'all' ? null : o.webhookEvents.split(',').map((e) => e.trim()),
  }),
});

const clientJson = (c: ClientRow) => ({
  id: c.id,
  name: c.name,
  webhook_url: c.webhook_url,
  quota_per_hour: c.quota_per_hour,
  service_window: c.service_window ?? 'always',
  timezone: c.timezone,
  link_ttl_seconds: c.link_ttl_seconds,
  auto_compare: c.auto_compare === 1,
  webhook_events: c.webhook_events === null ? 'all' : (JSON.parse(c.webhook_events) as string[]),
});

const clientLines = (c: ClientRow): [string, string][] => [
  ['id', c.id],
  ['name', c.name],
  ['webhook URL', c.webhook_url ?? '(none: uploads must give callback_url)'],
  ['quota', `${c.quota_per_hour} uploads per hour`],
  ['service window', `${c.service_window ?? 'always'} (${c.timezone})`],
  ['link validity', `${c.link_ttl_seconds} s`],
  ['automatic comparison', c.auto_compare === 1 ? 'on' : 'off'],
  [
    'webhook events',
    c.webhook_events === null ? 'all' : (JSON.parse(c.webhook_events) as string[]).join(', '),
  ],
];

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError('expected on or off');
}

function withSettingOptions(command: Command): Command {
  return command
    .option('--webhook-url <url>', 'default webhook URL for results ("" to remove)')
    .option('--quota <n>', 'accepted uploads per hour', positiveInteger)
    .option('--service-window <spec>', 'hours of service, e.g. "mon-fri 08:00-18:00" or "always"')
    .option('--timezone <tz>', 'IANA time zone of the service window, e.g. Europe/Paris')
    .option('--token-ttl <duration>', 'validity of inspection links (e.g. 72h)', durationSeconds)
    .option('--webhook-events <types>', 'event types sent to the webhook, comma-separated, or "all"')
    .option(
      '--auto-compare <on|off>',
      'compare a new inspection of a known vehicle with its latest one (default on)',
      onOff,
    )
    .option('--json', 'print one JSON object');
}

export function clientsCommand(): Command {
  const clients = new Command('clients').description('manage API clients');

  withSettingOptions(
    clients.command('create').description('create a client; prints its API key and webhook secret once'),
  )
    .requiredOption('--name <name>', 'display name')
    .action((o: SettingOptions & { name: string }) =>
      withStorage(async (deps) => {
        const { client, apiKey, webhookSecret } = await createClient(
          deps,
          { ...settingsFrom(o), name: o.name },
          CLI_ACTOR,
        );
        print(o.json, { ...clientJson(client), api_key: apiKey, webhook_secret: webhookSecret }, () =>
          [
            'Client created. The API key and webhook secret are shown this once: store them now.',
            table([...clientLines(client), ['API key', apiKey], ['webhook secret', webhookSecret]]),
          ].join('\n'),
        );
      }),
    );

  withSettingOptions(
    clients.command('update').argument('<id>', 'client id').description("change a client's settings"),
  )
    .option('--name <name>', 'display name')
    .action((id: string, o: SettingOptions) =>
      withStorage(async (deps) => {
        const client = await updateClient(deps, id, settingsFrom(o), CLI_ACTOR);
        print(o.json, clientJson(client), () => ['Client updated.', table(clientLines(client))].join('\n'));
      }),
    );

  clients
    .command('list')
    .description('list clients and the prefixes of their live keys')
    .option('--json', 'print one JSON object')
    .action((o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const rows = await listClients(deps);
        print(o.json, { clients: rows.map((c) => ({ ...clientJson(c), keys: c.keys })) }, () =>
          rows.length === 0
            ? 'No clients.'
            : rows
                .map((c) =>
                  [
                    `${c.name}`,
                    table([
                      ...clientLines(c),
                      ...c.keys.map((k): [string, string] => [
                        'key',
                        `${k.prefix}… created ${when(k.created_at)}, last used ${when(k.last_used_at)}` +
                          (k.expires_at === null ? '' : `, expires ${when(k.expires_at)}`),
                      ]),
                    ]),
                  ].join('\n'),
                )
                .join('\n\n'),
        );
      }),
    );

  clients
    .command('revoke-key')
    .argument('<id>', 'client id')
    .description("revoke the client's live API keys at once (or only the one with --prefix)")
    .option('--prefix <prefix>', 'the visible prefix of the one key to revoke')
    .option('--json', 'print one JSON object')
    .action((id: string, o: { prefix?: string; json?: boolean }) =>
      withStorage(async (deps) => {
        const revoked = await revokeKeys(deps, id, o.prefix, CLI_ACTOR);
        print(o.json, { client_id: id, revoked }, () => `Revoked ${revoked} key(s) of client ${id}.`);
      }),
    );

  clients
    .command('rotate-key')
    .argument('<id>', 'client id')
    .description('issue a new API key; the old ones keep working for the grace period')
    .option('--grace <duration>', 'how long the old keys keep working', durationSeconds, 24 * 3600)
    .option('--json', 'print one JSON object')
    .action((id: string, o: { grace: number; json?: boolean }) =>
      withStorage(async (deps) => {
        const apiKey = await rotateKey(deps, id, o.grace, CLI_ACTOR);
        print(o.json, { client_id: id, api_key: apiKey, old_keys_expire_in_seconds: o.grace }, () =>
          [
            'New API key issued (shown this once):',
            table([
              ['API key', apiKey],
              ['old keys', o.grace === 0 ? 'stopped now' : `keep working for ${o.grace} s`],
            ]),
          ].join('\n'),
        );
      }),
    );

  clients
    .command('rotate-webhook-secret')
    .argument('<id>', 'client id')
    .description(
      'issue a new webhook secret; deliveries are signed with the old one too for the grace period',
    )
    .option('--grace <duration>', 'how long the old secret also signs', durationSeconds, 24 * 3600)
    .option('--json', 'print one JSON object')
    .action((id: string, o: { grace: number; json?: boolean }) =>
      withStorage(async (deps) => {
        const secret = await rotateWebhookSecret(deps, id, o.grace, CLI_ACTOR);
        print(o.json, { client_id: id, webhook_secret: secret, old_secret_signs_for_seconds: o.grace }, () =>
          [
            'New webhook secret (shown this once):',
            table([
              ['webhook secret', secret],
              ['old secret', o.grace === 0 ? 'stopped now' : `also signs for ${o.grace} s`],
            ]),
          ].join('\n'),
        );
      }),
    );

  clients.addCommand(rateCardCommand());
  return clients;
}
