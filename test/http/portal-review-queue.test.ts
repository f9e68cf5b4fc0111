// The review queue (docs/portal.md#the-review-queue): the list filtered by what its reviewers decided.
// "To review" is analysed and undecided; a review that only corrects boxes leaves it there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

const DAY = 24 * 3600 * 1000;

describe.each(BACKENDS)('the review queue on %s', (backend) => {
  let t: TestApp;
  let admin: PortalSession;

  beforeAll(async () => {
    t = await startTestApp(backend);
    const client = (await t.newClient({ name: 'Acme' })).id;
    const base = Date.parse('2026-11-20T10:00:00Z');
    const ids: Record<string, string> = {};
    for (const [i, caseId] of ['Q-1', 'Q-2', 'Q-3', 'Q-4'].entries())
      ids[caseId] = (await seedInspection(t.deps, client, { caseId, createdAt: base + i * DAY })).id;
    await seedInspection(t.deps, client, { caseId: 'Q-5', pending: true, createdAt: base + 4 * DAY });
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', client));
    const review = async (caseId: string, decision: 'accepted' | 'rejected' | null) => {
      const saved = await t.app.inject({
        method: 'POST',
        url: `/portal/api/inspections/${ids[caseId]}/review`,
        headers: admin.writeHeaders,
        payload: { base_version: 1, decision },
      });
      expect(saved.statusCode).toBe(201);
    };
    await review('Q-1', 'accepted');
    await review('Q-2', 'rejected');
    await review('Q-3', null);
  }, 120_000);
  afterAll(() => t?.close());

  const cases = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/portal/api/inspections?${query}`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ items: { case_id: string }[] }>().items.map((i) => i.case_id);
  };

  it('lists what is to review (analysed, undecided), accepted and rejected apart', async () => {
    expect(await cases('')).toEqual(['Q-5', 'Q-4', 'Q-3', 'Q-2', 'Q-1']);
    // Q-3 was reviewed without a decision: still in the queue. Q-5 is not analysed yet: not yet in it.
    expect(await cases('review=to_review')).toEqual(['Q-4', 'Q-3']);
    expect(await cases('review=accepted')).toEqual(['Q-1']);
    expect(await cases('review=rejected')).toEqual(['Q-2']);
    expect(await cases('review=rejected&case_id=Q-1')).toEqual([]);
  });

  it('refuses an unknown review state with 400', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/portal/api/inspections?review=maybe',
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(400);
  });
});
