// A body over its route's size limit is answered 413, saying so (issue: a logo over 4 MB and a review
// over 1 MB got 400 "Bad request"), in the portal and the rest of the plain surface; the upload,
// authentication and capture surfaces keep the answers their callers know.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

const MB = 1024 * 1024;

describe('bodies over the limit', () => {
  let t: TestApp;
  let admin: PortalSession;
  let clientId: string;
  let inspectionId: string;
  let personaId: number;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    clientId = (await t.newClient()).id;
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', clientId));
    inspectionId = (await seedInspection(t.deps, clientId, { caseId: 'LIMITS-1' })).id;
    const persona = await t.app.inject({
      method: 'POST',
      url: '/portal/api/personas',
      headers: admin.writeHeaders,
      payload: { kind: 'photo' },
    });
    personaId = persona.json<{ id: number }>().id;
  });
  afterAll(async () => t?.close());

  const tooLarge = (answer: { statusCode: number; body: string }) => {
    expect(answer.statusCode).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'The request body is too large' });
  };

  it('a logo over 4 MB', async () => {
    tooLarge(
      await t.app.inject({
        method: 'POST',
        url: `/portal/api/personas/${personaId}/logo`,
        headers: { ...admin.writeHeaders, 'content-type': 'image/png' },
        payload: Buffer.alloc(5 * MB),
      }),
    );
  });

  it('a review over 1 MB', async () => {
    tooLarge(
      await t.app.inject({
        method: 'POST',
        url: `/portal/api/inspections/${inspectionId}/review`,
        headers: { ...admin.writeHeaders, 'content-type': 'application/json' },
        payload: JSON.stringify({ base_version: 1, decision: null, note: 'x'.repeat(2 * MB) }),
      }),
    );
  });

  it("a client's settings over 1 MB", async () => {
    tooLarge(
      await t.app.inject({
        method: 'PATCH',
        url: `/portal/api/clients/${clientId}`,
        headers: { ...admin.writeHeaders, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2 * MB) }),
      }),
    );
  });
});
