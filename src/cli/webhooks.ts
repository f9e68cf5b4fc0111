// walkaround webhooks listen [--port 9000] [--client ID] [--json]: receive a client's webhooks on this
// machine, in the spirit of `stripe listen` (ADR 12). It registers itself as a local listener of the client,
// so that, while it runs, the service delivers that client's events whose URL is loopback on its port
// here (the tenant guard refuses loopback otherwise); it verifies each delivery's signature with the
// client's webhook secret and prints the event's type, id, the verdict and a summary.
import { Command, InvalidArgumentError } from 'commander';
import { Webhook } from 'standardwebhooks';
import { LISTENER_TTL_MS } from '../domain/webhooks.js';
import {
  listenerClient,
  registerListener,
  removeListener,
  signingSecrets,
} from '../services/webhooks/listeners.js';
import { print, withStorage, type StorageDeps } from './context.js';
import { describe, summarise } from './event-summary.js';
import { startLocalReceiver, type Delivery, type LocalReceiver } from './listen-server.js';

export const LISTEN_DEFAULT_PORT = 9000;

/** The URL a listener announces: `localhost`, which reaches it on 127.0.0.1 or ::1. */
export const listenUrl = (port: number) => `http://localhost:${port}/hook`;

interface ListenOptions {
  port: number;
  client?: string;
  json?: boolean;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port from 0 to 65535');
  return n;
}

export function webhooksCommand(): Command {
  const webhooks = new Command('webhooks').description('webhooks on this machine');
  webhooks
    .command('listen')
    .description(
      "receive a client's webhooks on this machine, verify each signature and print the event (Ctrl-C stops)",
    )
    .option(
      '--port <port>',
      'port on 127.0.0.1 and ::1 to listen on (0: any free one)',
      port,
      LISTEN_DEFAULT_PORT,
    )
    .option('--client <id>', 'whose webhooks (default: the demo client, else the only client)')
    .option('--json', 'one JSON object per line: where it listens, then one per delivery')
    .action((o: ListenOptions) => withStorage((deps) => listen(deps, o)));
  return webhooks;
}

async function listen(deps: StorageDeps, o: ListenOptions): Promise<void> {
  const client = await listenerClient(deps, o.client);
  let receiver: LocalReceiver;
  try {
    receiver = await startLocalReceiver(o.port, (delivery) => judge(deps, client.id, delivery, o.json));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(`port ${o.port} is taken on 127.0.0.1: choose another with --port`, { cause: error });
  }
  const url = listenUrl(receiver.port);
  try {
    await registerListener(deps, client.id, receiver.port);
    // Renewed well within its lifetime; a listener killed without clean-up expires on its own.
    const renewal = setInterval(() => {
      registerListener(deps, client.id, receiver.port).catch((error: unknown) =>
        process.stderr.write(`walkaround: could not renew the listener: ${(error as Error).message}\n`),
      );
    }, LISTENER_TTL_MS / 3);
    print(o.json, { listening: url, client_id: client.id, client_name: client.name }, () =>
      [
        `Listening for the webhooks of ${client.name} (${client.id}) on ${url}`,
        "Each delivery is verified with the client's webhook secret and printed here. While this runs, the",
        "service delivers here the client's events sent to that URL (any path on this port):",
        `  name it in an upload:   -F callback_url=${url}`,
        `  or as its webhook URL:  npx walkaround clients update ${client.id} --webhook-url ${url}`,
        ...(deps.config.database.kind === 'postgres'
          ? ['Deliveries come from the worker processes: run this on the machine of the worker.']
          : []),
        'Ctrl-C stops.',
      ].join('\n'),
    );
    await stopSignal();
    clearInterval(renewal);
  } finally {
    await removeListener(deps, client.id, receiver.port).catch(() => undefined);
    await receiver.close();
  }
}

/** Verifies one delivery with the client's current secrets, prints it, and says whether to accept it. */
async function judge(
  deps: StorageDeps,
  clientId: string,
  delivery: Delivery,
  json: boolean | undefined,
): Promise<boolean> {
  // Read at each delivery: a secret rotated while this runs is the one deliveries are signed with.
  const secrets = await signingSecrets(deps, clientId);
  let error: string | null = 'the client has no webhook secret';
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(delivery.body, delivery.headers);
      error = null;
      break;
    } catch (failure) {
      error = (failure as Error).message;
    }
  }
  let envelope: { type?: unknown; data?: unknown } = {};
  try {
    envelope = JSON.parse(delivery.body) as typeof envelope;
  } catch {
    // shown as not an event
  }
  const type = typeof envelope.type === 'string' ? envelope.type : '(not an event)';
  const id = delivery.headers['webhook-id'] ?? '-';
  const summary = summarise(type, envelope.data);
  const verdict = error === null ? 'verified' : `NOT verified (${error})`;
  print(json, { type, id, verified: error === null, error, summary }, () =>
    [new Date().toISOString(), type, id, verdict, describe(summary)].join('  '),
  );
  return error === null;
}

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
