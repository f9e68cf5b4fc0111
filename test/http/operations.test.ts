// Health, readiness, metrics, the API reference and the default 404, on every database backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUrlgenApp } from '../../src/http/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe.each(BACKENDS)('operations endpoints on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(async () => t?.close());

  it('/healthz and /readyz answer 200', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('/metrics exposes Prometheus metrics, including per-route request durations', async () => {
    await t.app.inject({ url: '/healthz' });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('http_request_duration_seconds');
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });

  it('/openapi.json documents the routes from their schemas, and /docs renders it', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    const authenticate = doc.paths['/api/authenticate']?.post;
    expect(authenticate?.requestBody).toBeDefined();
    expect(Object.keys(authenticate?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    );
    expect(doc.paths['/api/refresh']?.post).toBeDefined();
    // Other methods are documented with their answer, 405 (and the 500 every operation may give).
    expect(Object.keys(doc.paths['/api/authenticate']?.get?.responses ?? {})).toEqual(['405', '500']);
    const ui = await t.app.inject({ url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  // Redocly's lint runs on the committed copy (npm run lint:openapi), which test/docs.test.ts keeps equal.
  it('/openapi.json declares the security and the operationId of every operation', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).body;
    const { paths } = JSON.parse(doc) as {
      paths: Record<string, Record<string, { security?: unknown[]; operationId?: string }>>;
    };
    for (const [path, operations] of Object.entries(paths))
      for (const [method, op] of Object.entries(operations)) {
        expect(op.security, `${method} ${path}`).toBeDefined();
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      }
    expect(paths['/healthz']?.get?.security).toEqual([]);
    expect(paths['/api/authenticate']?.post?.security).toEqual([]);
    expect(paths['/api/inspections/{session}/deliveries']?.get).toMatchObject({
      operationId: 'getApiInspectionsBySessionDeliveries',
    });
  });

  it('answers unknown routes with 404 in the plain error shape', async () => {
    const res = await t.app.inject({ url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'error', message: 'Not found' });
  });

  it('the URLGEN_PORT listener serves health but not the API', async () => {
    const urlgen = await buildUrlgenApp(t.deps);
    try {
      expect((await urlgen.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect(
        (await urlgen.inject({ method: 'POST', url: '/api/authenticate', payload: {} })).statusCode,
      ).toBe(404);
    } finally {
      await urlgen.close();
    }
  });

  it('/readyz answers 503 once the database is gone', async () => {
    const other = await startTestApp(backend);
    await other.deps.database.close();
    const res = await other.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    await other.app.close();
    await other.environment.cleanup();
  });
});
