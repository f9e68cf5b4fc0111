// A fully wired service on a fresh database, for HTTP tests through app.inject().
import type { FastifyInstance } from 'fastify';
import { buildDeps, type Deps } from '../../src/deps.js';
import type { DestinationStream } from '../../src/logger.js';
import { buildApp, type AppOptions } from '../../src/http/app.js';
import { createClient, type ClientSettings } from '../../src/services/clients/manage.js';
import { startHeartbeat } from '../../src/services/worker-heartbeat.js';
import { createGuardedFetch, isPrivateAddress, settingsGuard } from '../../src/adapters/fetch/safe-fetch.js';
import { testEnvironment, type Backend, type TestEnvironment } from './backends.js';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  environment: TestEnvironment;
  newClient(settings?: ClientSettings): Promise<{ id: string; apiKey: string; webhookSecret: string }>;
  /** Listens on a free loopback port, for tests through real HTTP; returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Every test server listens on loopback, which safe-fetch refuses. Here the host `media.test` resolves
 * to 127.0.0.1 and that one address counts as public; every other address, and the whole policy, stay
 * the production ones, so redirects to private addresses are still refused.
 */
function mediaTestFetch(deps: Deps) {
  const real = settingsGuard(deps.config.outbound);
  return createGuardedFetch(deps.config.outbound, {
    isAllowed: (address) => address === '127.0.0.1' || !isPrivateAddress(address),
    resolve: (hostname) =>
      hostname === 'media.test'
        ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
        : real.resolve(hostname),
  });
}

export async function startTestApp(
  backend: Backend,
  extra: Record<string, string> = {},
  options: AppOptions & {
    /** Where the service's log lines go (with a LOG_LEVEL in `extra`), for tests that read them. */
    logDestination?: DestinationStream;
  } = {},
): Promise<TestApp> {
  const environment = await testEnvironment(backend, extra);
  const { logDestination, ...appOptions } = options;
  const deps = await buildDeps(environment.config, logDestination ? { logDestination } : {});
  const production = deps.safeFetch;
  deps.safeFetch = mediaTestFetch(deps);
  await production.close();
  const app = await buildApp(deps, appOptions);
  await app.ready();
  // The upload API answers 503 unless a worker is alive; these tests stand in for one.
  const stopHeartbeat = await startHeartbeat(deps, 'test-worker');
  return {
    app,
    deps,
    environment,
    async newClient(settings = {}) {
      const created = await createClient(deps, { name: 'Test client', ...settings });
      return { id: created.client.id, apiKey: created.apiKey, webhookSecret: created.webhookSecret };
    },
    async listen() {
      return app.listen({ port: 0, host: '127.0.0.1' });
    },
    async close() {
      await stopHeartbeat();
      await app.close();
      await deps.close();
      await environment.cleanup();
    },
  };
}
