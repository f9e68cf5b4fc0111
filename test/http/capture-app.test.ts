// The capture app served at /app/ (docs/links.md): from a build folder of its own here (a tiny fake build),
// with its caching and security headers; the capture API under /app/api stays reachable; a missing build
// answers 503; only the main listener serves it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildHealthApp, buildUrlgenApp } from '../../src/http/app.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** The page's one inline script runs by its hash in the policy; nothing else inline does. */
const INLINE = '\n  window.early = 1;\n';
const INDEX =
  `<!doctype html><title>Capture</title><script>${INLINE}</script>` +
  '<script type="module" src="/app/assets/app-1a2b3c.js"></script>';
const SCRIPT = 'console.log("capture");';
const SECURITY = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' blob: data: https:; media-src 'self' blob:; connect-src 'self'; " +
    `style-src 'self' 'unsafe-inline'; script-src 'self' 'wasm-unsafe-eval' 'sha256-${crypto.createHash('sha256').update(INLINE).digest('base64')}'; ` +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=(self), geolocation=(self), microphone=()',
};

describe.each(BACKENDS)('capture app on %s', (backend) => {
  let t: TestApp;
  let build: string;
  let token: string;

  beforeAll(async () => {
    build = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-capture-build-'));
    fs.mkdirSync(path.join(build, 'assets'));
    fs.writeFileSync(path.join(build, 'index.html'), INDEX);
    fs.writeFileSync(path.join(build, 'assets', 'app-1a2b3c.js'), SCRIPT);
    t = await startTestApp(backend, {}, { captureAppDir: build });
    const client = await t.newClient();
    const persona = await createPersona(t.deps, { clientId: client.id, kind: 'photo' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: client.apiKey, personaId: persona.id },
    });
    token = response.json<{ token: string }>().token;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(build, { recursive: true, force: true });
  });

  const get = (url: string, app = t.app) => app.inject({ method: 'GET', url });

  it('redirects /app to /app/, keeping the query', async () => {
    const bare = await get('/app');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/app/');
    expect((await get('/app?lang=fr')).headers.location).toBe('/app/?lang=fr');
  });

  it('serves index.html at /app/, revalidated on every visit, with the security headers', async () => {
    const index = await get('/app/');
    expect(index.statusCode).toBe(200);
    expect(index.body).toBe(INDEX);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers).toMatchObject(SECURITY);
    expect((await t.app.inject({ method: 'HEAD', url: '/app/' })).statusCode).toBe(200);
  });

  it('serves the hashed assets as immutable', async () => {
    const script = await get('/app/assets/app-1a2b3c.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(SCRIPT);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers.vary).toBe('accept-encoding');
    expect(script.headers).toMatchObject(SECURITY);
  });

  it('answers 404 for files the build does not hold, and never leaves it', async () => {
    for (const url of ['/app/assets/missing.js', '/app/%2e%2e/package.json', '/app/../package.json']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('"name"');
    }
  });

  it('leaves the capture API under /app/api to itself', async () => {
    const flow = await t.app.inject({
      method: 'GET',
      url: '/app/api/flow',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(flow.statusCode).toBe(200);
    expect(flow.headers['content-type']).toMatch(/^application\/json/);
    expect(flow.json<{ persona: { kind: string } }>().persona.kind).toBe('photo');
    // The app's headers belong to the app's own routes.
    expect(flow.headers['content-security-policy']).toBeUndefined();
    expect((await get('/app/api/nothing-here')).statusCode).toBe(404);
  });

  it('keeps the app out of the OpenAPI document', async () => {
    const paths = Object.keys((await get('/openapi.json')).json<{ paths: object }>().paths);
    expect(paths).toContain('/app/api/flow');
    expect(paths.filter((p) => p.startsWith('/app') && !p.startsWith('/app/api/'))).toEqual([]);
  });

  it('answers 503 with a short text when the app is not built', async () => {
    const unbuilt = await buildApp(t.deps, { captureAppDir: path.join(build, 'not-there') });
    try {
      const response = await get('/app/', unbuilt);
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.body.trim()).toBe('The capture app is not built: run npm run build');
      expect((await get('/app', unbuilt)).statusCode).toBe(301);
      const flow = await unbuilt.inject({
        method: 'GET',
        url: '/app/api/flow',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(flow.statusCode).toBe(200);
    } finally {
      await unbuilt.close();
    }
  });

  it('is served on the main listener only', async () => {
    for (const build of [buildUrlgenApp, buildHealthApp]) {
      const other = await build(t.deps);
      try {
        expect((await get('/app/', other)).statusCode).toBe(404);
        expect((await get('/app', other)).statusCode).toBe(404);
      } finally {
        await other.close();
      }
    }
  });
});

describe('capture app in a frame', () => {
  it('may be framed only by the origins of EMBED_ORIGINS (none by default, above)', async () => {
    const build = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-capture-build-'));
    fs.writeFileSync(path.join(build, 'index.html'), INDEX);
    const t = await startTestApp(
      'sqlite',
      { EMBED_ORIGINS: ' https://app.example.com, http://localhost:5173 ' },
      { captureAppDir: build },
    );
    try {
      const policy = (await t.app.inject({ method: 'GET', url: '/app/' })).headers['content-security-policy'];
      expect(policy).toContain('; frame-ancestors https://app.example.com http://localhost:5173; ');
    } finally {
      await t.close();
      fs.rmSync(build, { recursive: true, force: true });
    }
  });
});
