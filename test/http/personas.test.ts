// The personas API (docs/api.md#personas): a client manages its own capture flows with its key;
// nobody else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe.each(BACKENDS)('personas API on %s', (backend) => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestApp(backend);
    key = (await t.newClient({ name: 'Acme Leasing' })).apiKey;
    otherKey = (await t.newClient()).apiKey;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, apiKey = key) =>
    t.app.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload && { payload }) });

  it('creates from the templates, with settings changed, and lists them', async () => {
    const photo = await call('POST', '/api/personas', { kind: 'photo' });
    expect(photo.statusCode).toBe(201);
    expect(photo.json()).toMatchObject({
      kind: 'photo',
      name: 'Eight-angle walk-around',
      language: 'en',
      branding: { name: 'Acme Leasing' },
      video_min_seconds: null,
    });
    expect(photo.json<{ steps: unknown[] }>().steps).toHaveLength(11);

    const video = await call('POST', '/api/personas', {
      kind: 'video',
      language: 'fr',
      video_min_seconds: 20,
      video_max_seconds: 90,
      branding: { name: 'Acme', colour: '#0a7cff', logoUrl: 'https://example.com/logo.png' },
    });
    expect(video.statusCode).toBe(201);
    expect(video.json()).toMatchObject({
      kind: 'video',
      language: 'fr',
      video_min_seconds: 20,
      video_max_seconds: 90,
    });

    const listed = await call('GET', '/api/personas');
    expect(listed.json<{ personas: { id: number }[] }>().personas.map((p) => p.id)).toEqual([
      photo.json<{ id: number }>().id,
      video.json<{ id: number }>().id,
    ]);
  });

  it('changes steps and branding of a persona', async () => {
    const { id } = (await call('POST', '/api/personas', { kind: 'photo' })).json<{ id: number }>();
    const steps = [
      { id: 'front', label: 'Front', instructions: 'The whole front.', required: true, overlay: 'front' },
      { id: 'damage', label: 'Damage', instructions: 'Close-up.', required: false, overlay: 'none' },
    ];
    const changed = await call('PATCH', `/api/personas/${id}`, { steps, branding: { colour: '#112233' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ steps, branding: { name: 'Acme Leasing', colour: '#112233' } });
    expect((await call('GET', `/api/personas/${id}`)).json()).toEqual(changed.json());
  });

  it.each([
    [
      { kind: 'photo', steps: [{ id: 'a', label: 'A', instructions: '', required: false, overlay: 'a' }] },
      'at least one step must be required',
    ],
    [
      {
        kind: 'photo',
        steps: [{ id: 'Front!', label: 'A', instructions: '', required: true, overlay: 'a' }],
      },
      'step id "Front!" must be lowercase letters, digits, _ or -, at most 40',
    ],
    [
      { kind: 'video', video_min_seconds: 60, video_max_seconds: 30 },
      'video length bounds must be whole seconds with 1 <= min <= max <= 600',
    ],
    [{ kind: 'photo', branding: { colour: 'blue' } }, 'branding colour must look like #1a2b3c'],
    [
      { kind: 'photo', branding: { logoUrl: 'http://example.com/x.png' } },
      'branding logo must be an https:// URL',
    ],
  ])('refuses %j with the rule it breaks', async (body, message) => {
    const response = await call('POST', '/api/personas', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message });
  });

  it('refuses bodies outside the schema', async () => {
    for (const body of [{ kind: 'audio' }, { kind: 'photo', language: 'xx' }, { kind: 'photo', extra: 1 }]) {
      const response = await call('POST', '/api/personas', body);
      expect(response.statusCode).toBe(400);
    }
  });

  it('keeps every client to its own personas', async () => {
    const { id } = (await call('POST', '/api/personas', { kind: 'photo' })).json<{ id: number }>();
    expect((await call('GET', `/api/personas/${id}`, undefined, otherKey)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/personas/${id}`, { name: 'Mine' }, otherKey)).statusCode).toBe(404);
    const theirs = await call('GET', '/api/personas', undefined, otherKey);
    expect(theirs.json()).toEqual({ personas: [] });
    expect((await call('GET', '/api/personas', undefined, 'wk_live_nope')).statusCode).toBe(401);
  });
});
