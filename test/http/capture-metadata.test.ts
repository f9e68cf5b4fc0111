// The persona's capture options in the flow, and the capture metadata of tus uploads
// (docs/api.md#resumable-uploads) over real HTTP: checked at creation and again at the finish, kept with the
// captured media, carried to the inspection's media at submit.
import { CLI_ACTOR } from '../../src/services/audit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowView } from '../../src/services/links/capture.js';
import { hashLinkToken } from '../../src/services/links/tokens.js';
import { createPersona, updatePersona } from '../../src/services/personas/manage.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { captureClient } from '../helpers/tus-client.js';

const FRONT = photo('home.jpg');
const PLATE = photo('licenseplate_motion.jpg');
const STEPS = [
  { id: 'front', label: 'Front', instructions: 'The whole front.', required: true, overlay: 'front' },
  {
    id: 'plate',
    label: 'Plate',
    instructions: 'The rear plate.',
    required: false,
    overlay: 'plate',
    accept_poor_quality: false,
  },
];
const CAMERA = {
  source: 'camera',
  captured_at: '2026-11-23T10:05:12.345+01:00',
  orientation: 'portrait-primary',
};
const PARIS = { latitude: '48.856613', longitude: '2.352222', accuracy: '12' };

describe.each(BACKENDS)('capture metadata on %s', (backend) => {
  let t: TestApp;
  let base: string;
  let clientId: string;
  let apiKey: string;
  let openPersona: number;
  let closedPersona: number;

  beforeAll(async () => {
    t = await startTestApp(backend);
    base = await t.listen();
    ({ id: clientId, apiKey } = await t.newClient());
    const options = { allowGallery: true, askLocation: true, maxPhotoDimension: 2048 };
    openPersona = (await createPersona(t.deps, { clientId, kind: 'photo', steps: STEPS, ...options })).id;
    closedPersona = (await createPersona(t.deps, { clientId, kind: 'photo', steps: STEPS })).id;
  });
  afterAll(() => t.close());

  async function newLink(personaId: number) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey, personaId, caseId: 'META-1' },
    });
    const { token } = response.json<{ token: string }>();
    const link = await t.deps.db
      .selectFrom('links')
      .selectAll()
      .where('token_hash', '=', hashLinkToken(token))
      .executeTakeFirstOrThrow();
    return { token, link, capture: captureClient(base, token) };
  }
  const stored = async (linkId: string, step: string) => {
    const row = await t.deps.db
      .selectFrom('link_media')
      .select('capture_metadata')
      .where('link_id', '=', linkId)
      .where('step_id', '=', step)
      .executeTakeFirst();
    return row && (row.capture_metadata === null ? null : (JSON.parse(row.capture_metadata) as unknown));
  };
  const unfinished = (linkId: string) => t.deps.captureStaging.countUnfinished(`${linkId}_`);

  it("shows the persona's capture options and every step's accept_poor_quality in the flow", async () => {
    for (const [personaId, options] of [
      [openPersona, { allow_gallery: true, ask_location: true, max_photo_dimension: 2048 }],
      [closedPersona, { allow_gallery: false, ask_location: false, max_photo_dimension: null }],
    ] as const) {
      const { token } = await newLink(personaId);
      const response = await fetch(`${base}/app/api/flow`, { headers: { authorization: `Bearer ${token}` } });
      const flow = (await response.json()) as FlowView;
      expect(flow.persona).toMatchObject(options);
      expect(flow.persona.steps.map((s) => [s.id, s.accept_poor_quality])).toEqual([
        ['front', true],
        ['plate', false],
      ]);
    }
  });

  it('keeps the checked metadata with the capture and carries it to the inspection at submit', async () => {
    const { token, link, capture } = await newLink(openPersona);
    const front = await capture.upload('front', FRONT, { ...CAMERA, ...PARIS });
    expect(front.response.status).toBe(204);
    const gallery = {
      source: 'gallery',
      captured_at: '2026-11-20T08:00:00Z',
      orientation: 'landscape-primary',
    };
    expect((await capture.upload('plate', PLATE, gallery)).response.status).toBe(204);

    const frontMetadata = {
      ...CAMERA,
      location: { latitude: 48.856613, longitude: 2.352222, accuracy_m: 12 },
    };
    expect(await stored(link.id, 'front')).toEqual(frontMetadata);
    expect(await stored(link.id, 'plate')).toEqual({ ...gallery, location: null });

    const submitted = await fetch(`${base}/app/api/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(submitted.status).toBe(200);
    const media = await t.deps.db
      .selectFrom('media')
      .select(['original_id', 'capture_metadata'])
      .where('inspection_id', '=', link.id)
      .orderBy('position')
      .execute();
    expect(media.map((m) => [m.original_id, JSON.parse(m.capture_metadata!) as unknown])).toEqual([
      ['front', frontMetadata],
      ['plate', { ...gallery, location: null }],
    ]);
  });

  it('refuses malformed metadata and a gallery the persona does not allow, before any byte is sent', async () => {
    const open = await newLink(openPersona);
    for (const [field, value] of [
      ['source', 'screenshot'],
      ['captured_at', '2026-11-23T10:05:12'],
      ['orientation', 'Upside Down'],
      ['latitude', '91'],
      ['longitude', 'east'],
      ['accuracy', '-3'],
    ]) {
      const created = await open.capture.create('front', FRONT.length, {
        ...CAMERA,
        ...PARIS,
        [field!]: value!,
      });
      expect(created.status, field).toBe(400);
      expect(await created.json()).toEqual({
        status: 'error',
        message: `Invalid capture metadata: ${field}`,
      });
    }
    const halfLocation = await open.capture.create('front', FRONT.length, { latitude: '48.8' });
    expect(await halfLocation.json()).toEqual({
      status: 'error',
      message: 'Invalid capture metadata: longitude',
    });

    const closed = await newLink(closedPersona);
    const gallery = await closed.capture.create('front', FRONT.length, { ...CAMERA, source: 'gallery' });
    expect(gallery.status).toBe(400);
    expect(await gallery.json()).toEqual({
      status: 'error',
      message: 'Photos and videos from the gallery are not allowed for this inspection',
    });
    expect(await unfinished(open.link.id)).toBe(0);
    expect(await unfinished(closed.link.id)).toBe(0);
  });

  it('drops a location the persona does not ask for', async () => {
    const { link, capture } = await newLink(closedPersona);
    expect((await capture.upload('front', FRONT, { ...CAMERA, ...PARIS })).response.status).toBe(204);
    expect(await stored(link.id, 'front')).toEqual({ ...CAMERA, location: null });
  });

  it('keeps no metadata for an app that sends none', async () => {
    const { link, capture } = await newLink(openPersona);
    expect((await capture.upload('front', FRONT)).response.status).toBe(204);
    expect(await stored(link.id, 'front')).toBeNull();
  });

  it('checks the metadata kept by tus again when the upload finishes', async () => {
    const persona = await createPersona(t.deps, {
      clientId,
      kind: 'photo',
      steps: STEPS,
      allowGallery: true,
    });
    const { link, capture } = await newLink(persona.id);
    const created = await capture.create('front', FRONT.length, { ...CAMERA, source: 'gallery' });
    expect(created.status).toBe(201);
    // The client closes the gallery while the photo is on its way.
    await updatePersona(t.deps, { id: persona.id }, { allowGallery: false }, CLI_ACTOR);
    const finished = await capture.patch(created.headers.get('location')!, 0, FRONT);
    expect(finished.status).toBe(400);
    expect(await finished.json()).toEqual({
      status: 'error',
      message: 'Photos and videos from the gallery are not allowed for this inspection',
    });
    expect(await stored(link.id, 'front')).toBeUndefined();
    expect(await unfinished(link.id)).toBe(0);
  });
});
