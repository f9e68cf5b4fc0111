// A fully wired service on a fresh database, for HTTP tests through app.inject().
import type { FastifyInstance } from 'fastify';
import { buildDeps, type Deps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { createClient, type ClientSettings } from '../../src/services/clients.js';
import { testEnvironment, type Backend, type TestEnvironment } from './backends.js';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  environment: TestEnvironment;
  newClient(settings?: ClientSettings): Promise<{ id: string; apiKey: string; webhookSecret: string }>;
  close(): Promise<void>;
}

export async function startTestApp(backend: Backend, extra: Record<string, string> = {}): Promise<TestApp> {
  const environment = await testEnvironment(backend, extra);
  const deps = await buildDeps(environment.config);
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    environment,
    async newClient(settings = {}) {
      const created = await createClient(deps, { name: 'Test client', ...settings });
      return { id: created.client.id, apiKey: created.apiKey, webhookSecret: created.webhookSecret };
    },
    async close() {
      await app.close();
      await deps.close();
      await environment.cleanup();
    },
  };
}
