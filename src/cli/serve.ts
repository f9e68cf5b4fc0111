// walkaround serve [--role api|worker|all] (README.md#operating-it): what `npm start` runs.
import closeWithGrace from 'close-with-grace';
import { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { buildDeps } from '../deps.js';
import { createDemoClientOnce, type DemoClient } from '../services/bootstrap.js';
import { table } from './context.js';
import { oneOf } from './options.js';
import { LISTEN_DEFAULT_PORT, listenUrl } from './webhooks.js';

type Role = 'api' | 'worker' | 'all';

/** Staging files of other live processes are younger than this (an upload takes minutes at most). */
const STAGING_MAX_AGE_MS = 6 * 3600_000;

export function serveCommand(): Command {
  return new Command('serve')
    .description('run the service (HTTP API and background worker by default)')
    .option('--role <role>', 'api, worker or all', oneOf<Role>('api', 'worker', 'all'), 'all')
    .action(async (o: { role: Role }) => {
      // Loaded here, not with the CLI: every other command starts without the HTTP app and the worker.
      const { buildApp, buildHealthApp, buildUrlgenApp } = await import('../http/app.js');
      const { startWorker } = await import('../workers/run.js');
      const config = loadConfig();
      const deps = await buildDeps(config);
      const demo = await createDemoClientOnce(deps);
      // Uploads cut off by a crash or kill left staging files behind; nothing references them.
      const swept = await deps.storage.sweep(STAGING_MAX_AGE_MS);
      if (swept > 0) deps.logger.info({ swept }, 'removed leftovers of interrupted uploads');
      // A worker serves health only, so its orchestrator can probe it like any other process.
      const app = o.role === 'worker' ? await buildHealthApp(deps) : await buildApp(deps);
      const urlgen = config.urlgenPort === undefined ? undefined : await buildUrlgenApp(deps);
      const worker = o.role === 'api' ? undefined : await startWorker(deps);

      closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
        if (err) deps.logger.error({ err }, 'stopping after an unexpected error');
        else deps.logger.info({ signal }, 'stopping');
        await Promise.all([app.close(), urlgen?.close()]);
        await worker?.stop();
        await deps.close();
      });

      await app.listen({ port: config.port, host: config.host });
      if (o.role !== 'worker' && urlgen && config.urlgenPort !== undefined)
        await urlgen.listen({ port: config.urlgenPort, host: config.host });
      if (demo) printDemoClient(demo, config);
      deps.logger.info(
        { role: o.role, port: config.port, database: config.database.kind },
        'walkaround started',
      );
    });
}

/** Shown once, on the first start with an empty database, so a newcomer can call the API at once. */
function printDemoClient(demo: DemoClient, config: Readonly<Config>): void {
  const base = config.publicBaseUrl;
  const urlgen = config.urlgenPort === undefined ? base : `http://localhost:${config.urlgenPort}`;
  process.stdout.write(
    [
      '',
      'First start: a demo client was created. Its API key and webhook secret are shown this once.',
      table([
        ['client id', demo.client.id],
        ['API key', demo.apiKey],
        ['webhook secret', demo.webhookSecret],
        ['photo persona', String(demo.personaId)],
      ]),
      '',
      'Serving:',
      table([
        ['API', `${base}/api/authenticate, ${base}/api/refresh, ${base}/api/upload`],
        ['inspection links', `${urlgen}/superappToken`],
        ['API reference', `${base}/docs (OpenAPI: ${base}/openapi.json)`],
        ['health', `${base}/healthz, ${base}/readyz, ${base}/metrics`],
        ['capture app', `${config.superappUrl}/#<token>`],
        [
          'results portal',
          `${base}/portal/ (a user first: npx walkaround users create --email E --role operator)`,
        ],
      ]),
      '',
      'Try it:',
      `  curl -s -X POST ${base}/api/authenticate -H 'content-type: application/json' -d '{"key":"${demo.apiKey}"}'`,
      `  curl -s -X POST ${urlgen}/superappToken -H 'content-type: application/json' -d '{"apiKey":"${demo.apiKey}","personaId":${demo.personaId}}'`,
      '',
      // Tenant URLs may not reach loopback by default: a newcomer's receiver on localhost needs this way.
      'Receive its webhooks on this machine: run `npx walkaround webhooks listen` in another terminal and',
      `name callback_url=${listenUrl(LISTEN_DEFAULT_PORT)} in an upload; each event is verified and printed there.`,
      '(Other private and loopback callback URLs are refused unless ALLOW_PRIVATE_NETWORKS=true.)',
      '',
    ].join('\n') + '\n',
  );
}
