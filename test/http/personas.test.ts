// The personas API (docs/api.md#personas): a client manages its own capture flows with its key;
// nobody else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_STEP_IDS, SUPPORTED_LANGUAGES, templateFor } from '../../src/domain/personas.js';
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

  it('starts with the default capture options and changes them', async () => {
    const created = await call('POST', '/api/personas', { kind: 'photo' });
    expect(created.json()).toMatchObject({
      allow_gallery: false,
      ask_location: false,
      max_photo_dimension: null,
    });
    const steps = created.json<{ steps: { accept_poor_quality: boolean }[] }>().steps;
    expect(steps.every((s) => s.accept_poor_quality)).toBe(true);

    const { id } = created.json<{ id: number }>();
    const changed = await call('PATCH', `/api/personas/${id}`, {
      allow_gallery: true,
      ask_location: true,
      max_photo_dimension: 2048,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      allow_gallery: true,
      ask_location: true,
      max_photo_dimension: 2048,
    });
    const back = await call('PATCH', `/api/personas/${id}`, {
      allow_gallery: false,
      max_photo_dimension: null,
    });
    expect(back.json()).toMatchObject({
      allow_gallery: false,
      ask_location: true,
      max_photo_dimension: null,
    });
    expect((await call('GET', `/api/personas/${id}`)).json()).toEqual(back.json());

    const video = await call('POST', '/api/personas', {
      kind: 'video',
      allow_gallery: true,
      max_photo_dimension: 1024,
    });
    // Videos are sent as recorded: the photo size cap does not apply to them.
    expect(video.json()).toMatchObject({ allow_gallery: true, max_photo_dimension: null });
  });

  it('keeps what a step says about poor-quality photos', async () => {
    const steps = [
      { id: 'front', label: 'Front', instructions: '', required: true, overlay: 'front' },
      {
        id: 'vin',
        label: 'VIN',
        instructions: 'Sharp.',
        required: true,
        overlay: 'vin',
        accept_poor_quality: false,
      },
    ];
    const created = await call('POST', '/api/personas', { kind: 'photo', steps });
    expect(created.statusCode).toBe(201);
    expect(created.json<{ steps: unknown[] }>().steps).toEqual([
      { ...steps[0], accept_poor_quality: true },
      steps[1],
    ]);
  });

  it('creates the templates in the persona language', async () => {
    for (const language of SUPPORTED_LANGUAGES) {
      for (const kind of ['photo', 'video'] as const) {
        const created = await call('POST', '/api/personas', { kind, language });
        const template = templateFor(kind, language);
        expect(created.json()).toMatchObject({ language, name: template.name, steps: template.steps });
      }
    }
    const labels = SUPPORTED_LANGUAGES.map((l) => templateFor('photo', l).steps[0]!.label);
    expect(labels).toEqual([
      'Front',
      'Avant',
      'Front',
      'Delantera',
      'Anteriore',
      'Frente',
      'Voorkant',
      'Przód',
      'Ön',
      'الأمام',
      'आगे',
      '前面',
    ]);
    // Each language has its own words for every step.
    for (const id of PHOTO_STEP_IDS) {
      const instructions = SUPPORTED_LANGUAGES.map(
        (l) => templateFor('photo', l).steps.find((s) => s.id === id)!.instructions,
      );
      expect(new Set(instructions).size).toBe(SUPPORTED_LANGUAGES.length);
    }
  });

  it('translates the template steps and name when only the language changes', async () => {
    const { id } = (await call('POST', '/api/personas', { kind: 'photo', language: 'fr' })).json<{
      id: number;
    }>();
    const german = await call('PATCH', `/api/personas/${id}`, { language: 'de' });
    expect(german.json()).toMatchObject({
      language: 'de',
      name: templateFor('photo', 'de').name,
      steps: templateFor('photo', 'de').steps,
    });

    // Steps changed by the client are theirs: a new language keeps them, and a name of theirs too.
    const own = [{ id: 'front', label: 'Vorne', instructions: '', required: true, overlay: 'front' }];
    await call('PATCH', `/api/personas/${id}`, { steps: own, name: 'Unser Ablauf' });
    const spanish = await call('PATCH', `/api/personas/${id}`, { language: 'es' });
    expect(spanish.json()).toMatchObject({
      language: 'es',
      name: 'Unser Ablauf',
      steps: [{ ...own[0], accept_poor_quality: true }],
    });

    // Made before the templates were translated: a French persona holding the English template.
    const legacy = (
      await call('POST', '/api/personas', {
        kind: 'photo',
        language: 'fr',
        name: templateFor('photo', 'en').name,
        steps: templateFor('photo', 'en').steps,
      })
    ).json<{ id: number }>();
    expect((await call('PATCH', `/api/personas/${legacy.id}`, { language: 'es' })).json()).toMatchObject({
      name: templateFor('photo', 'es').name,
      steps: templateFor('photo', 'es').steps,
    });

    // Steps given with the new language win over the template.
    const video = (await call('POST', '/api/personas', { kind: 'video' })).json<{ id: number }>();
    const given = [{ id: 'walk', label: 'Tour', instructions: '', required: true, overlay: 'walk' }];
    const both = await call('PATCH', `/api/personas/${video.id}`, { language: 'fr', steps: given });
    expect(both.json()).toMatchObject({
      language: 'fr',
      name: templateFor('video', 'fr').name,
      steps: [{ ...given[0], accept_poor_quality: true }],
    });
  });

  it('changes steps and branding of a persona', async () => {
    const { id } = (await call('POST', '/api/personas', { kind: 'photo' })).json<{ id: number }>();
    const steps = [
      { id: 'front', label: 'Front', instructions: 'The whole front.', required: true, overlay: 'front' },
      { id: 'damage', label: 'Damage', instructions: 'Close-up.', required: false, overlay: 'none' },
    ];
    const changed = await call('PATCH', `/api/personas/${id}`, { steps, branding: { colour: '#112233' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      steps: steps.map((s) => ({ ...s, accept_poor_quality: true })),
      branding: { name: 'Acme Leasing', colour: '#112233' },
    });
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
    ...[639, 8193, 1024.5].map((max_photo_dimension): [object, string] => [
      { kind: 'photo', max_photo_dimension },
      'max_photo_dimension must be a whole number of pixels from 640 to 8192, or null',
    ]),
  ])('refuses %j with the rule it breaks', async (body, message) => {
    const response = await call('POST', '/api/personas', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message });
  });

  it('refuses bodies outside the schema', async () => {
    for (const body of [
      { kind: 'audio' },
      { kind: 'photo', language: 'xx' },
      { kind: 'photo', extra: 1 },
      { kind: 'photo', allow_gallery: 'yes' },
      { kind: 'photo', ask_location: 1 },
      { kind: 'photo', max_photo_dimension: '2048' },
    ]) {
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
