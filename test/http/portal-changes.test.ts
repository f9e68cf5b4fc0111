// Candidate new damage in the portal's API (docs/vehicles.md#confirming-new-damage), through app.inject():
// confirm and dismiss make new versions; what is refused and how; another client's inspection and
// vehicle are unknown; a viewer may look but not decide.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { portalUser, seedInspection, signInAs, type PortalSession, type Seeded } from '../helpers/portal.js';

const region = (x: number) => ({ box: { x, y: 0.4, width: 0.1, height: 0.1 }, score: 0.5 });

describe.each(BACKENDS)('candidate new damage in the portal on %s', (backend) => {
  let t: TestApp;
  let clientA: string;
  let earlier: Seeded;
  let later: Seeded;
  let admin: PortalSession;
  let viewer: PortalSession;
  let otherAdmin: PortalSession;

  beforeAll(async () => {
    t = await startTestApp(backend);
    clientA = (await t.newClient({ name: 'Fleet', webhookUrl: 'https://hooks.example.com/fleet' })).id;
    const clientB = (await t.newClient({ name: 'Other' })).id;
    earlier = await seedInspection(t.deps, clientA, { caseId: 'OUT-1', photos: ['home.jpg'] });
    later = await seedInspection(t.deps, clientA, { caseId: 'IN-1', photos: ['home.jpg'] });
    // The later inspection as the comparison leaves it: two candidates on its photo.
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', later.id)
      .executeTakeFirstOrThrow();
    const result = JSON.parse(row.result!) as InspectionResult;
    result.media[0]!.analysis.changes = {
      status: 'compared',
      previous_inspection_id: earlier.id,
      previous_media_id: earlier.mediaIds[0]!,
      regions: [region(0.1), region(0.6)],
    };
    result.media[0]!.flags.push('possible_new_damage');
    await t.deps.db
      .updateTable('inspections')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', later.id)
      .execute();
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', clientA));
    viewer = await signInAs(t, await portalUser(t.deps, 'client_viewer', clientA));
    otherAdmin = await signInAs(t, await portalUser(t.deps, 'client_admin', clientB));
  });
  afterAll(() => t.close());

  const decide = (session: PortalSession, body: object, id = later.id) =>
    t.app.inject({
      method: 'POST',
      url: `/portal/api/inspections/${id}/changes`,
      headers: session.writeHeaders,
      payload: { media_id: later.mediaIds[0], ...body },
    });
  const latest = async () => {
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', later.id)
      .executeTakeFirstOrThrow();
    return JSON.parse(row.result!) as InspectionResult;
  };

  it('refuses a viewer, another client, a confirmation without its damage, and a stale version', async () => {
    const body = { base_version: 1, region: 0, decision: 'dismissed' };
    expect((await decide(viewer, body)).statusCode).toBe(403);
    expect((await decide(otherAdmin, body)).statusCode).toBe(404);
    const bare = await decide(admin, { ...body, decision: 'confirmed' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json<{ message: string }>().message).toBe(
      'Review is invalid: a confirmed candidate needs its part, type and severity',
    );
    const missing = await decide(admin, { ...body, region: 5 });
    expect(missing.json<{ message: string }>().message).toBe(
      'Review is invalid: no candidate region 5 on this photo',
    );
    expect((await decide(admin, { ...body, base_version: 7 })).statusCode).toBe(409);
    expect((await latest()).version).toBe(1);
  });

  it('dismisses one candidate and confirms the other: two versions, the second with a new damage', async () => {
    const dismissed = await decide(admin, { base_version: 1, region: 0, decision: 'dismissed' });
    expect(dismissed.statusCode).toBe(201);
    expect(dismissed.json()).toEqual({ version: 2 });
    let result = await latest();
    expect(result.media[0]!.analysis.changes!.regions.map((r) => r.decision)).toEqual([
      'dismissed',
      undefined,
    ]);
    // One candidate is still open.
    expect(result.summary.flags).toContain('possible_new_damage');

    const again = await decide(admin, { base_version: 2, region: 0, decision: 'dismissed' });
    expect(again.json<{ message: string }>().message).toBe(
      'Review is invalid: the candidate was already dismissed',
    );

    const confirmed = await decide(admin, {
      base_version: 2,
      region: 1,
      decision: 'confirmed',
      damage: { part: 'door', type: 'dent', severity: 'moderate' },
    });
    expect(confirmed.json()).toEqual({ version: 3 });
    result = await latest();
    expect(result.media[0]!.analysis.damage!.damages).toEqual([
      {
        part: 'door',
        type: 'dent',
        severity: 'moderate',
        confidence: 1,
        box: region(0.6).box,
        source: 'reviewer',
        new: true,
        previous_inspection_id: earlier.id,
      },
    ]);
    expect(result.summary.flags).toEqual(expect.arrayContaining(['damage', 'new_damage']));
    expect(result.summary.flags).not.toContain('possible_new_damage');
    // Sent like every review.
    const sent = await t.deps.db
      .selectFrom('webhook_messages')
      .select('event_type')
      .where('inspection_id', '=', later.id)
      .where('event_type', '=', 'inspection.reviewed')
      .execute();
    expect(sent).toHaveLength(2);
  });

  it("keeps a confirmed new damage through a later review that leaves the photo's damages as they are", async () => {
    const before = (await latest()).media[0]!.analysis.damage!.damages;
    const review = await t.app.inject({
      method: 'POST',
      url: `/portal/api/inspections/${later.id}/review`,
      headers: admin.writeHeaders,
      payload: { base_version: 3, decision: 'accepted', damages: { [later.mediaIds[0]!]: before } },
    });
    expect(review.statusCode).toBe(201);
    const result = await latest();
    expect(result.media[0]!.analysis.damage!.damages).toEqual(before);
    expect(result.media[0]!.flags).toContain('new_damage');
  });
});
