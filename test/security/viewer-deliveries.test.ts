// A client viewer reads an inspection's deliveries without the receiver's details (issue: viewers read
// `deliveries[].url` and `attempts[].response_excerpt` of GET /portal/api/inspections/{id}, although the
// webhook URL is kept from them everywhere else, and webhook URLs are often secret): when and how each
// attempt went, but not where it went, what the receiver answered, or the errors that name its host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { portalUser, seedInspection, signInAs, type PortalSession } from '../helpers/portal.js';

const WEBHOOK_URL = 'https://hooks.receiver.test/walkaround?token=k33p-me-s3cret';
const EXCERPT = 'accepted for account 4411 at the receiver';
const ERROR = 'hooks.receiver.test: connect ECONNREFUSED';

describe("a client viewer does not read the receiver's details of a delivery", () => {
  let t: TestApp;
  let inspectionId: string;
  let viewer: PortalSession;
  let admin: PortalSession;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const client = await t.newClient();
    viewer = await signInAs(t, await portalUser(t.deps, 'client_viewer', client.id));
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', client.id));
    inspectionId = (await seedInspection(t.deps, client.id, { caseId: 'DELIVERIES-1' })).id;
    const now = Date.now();
    await t.deps.db
      .insertInto('webhook_messages')
      .values({
        id: 'msg_viewer_1',
        client_id: client.id,
        inspection_id: inspectionId,
        event_type: 'inspection.completed',
        url: WEBHOOK_URL,
        payload: '{}',
        status: 'delivered',
        attempts: 2,
        next_attempt_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.deps.db
      .insertInto('webhook_attempts')
      .values([
        { ...attempt(1, now), status_code: null, response_excerpt: null, error: ERROR, outcome: 'retry' },
        {
          ...attempt(2, now + 1000),
          status_code: 200,
          response_excerpt: EXCERPT,
          error: null,
          outcome: 'delivered',
        },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  const attempt = (n: number, at: number) => ({
    id: `att_${n}`,
    message_id: 'msg_viewer_1',
    attempt: n,
    started_at: at,
    url: WEBHOOK_URL,
    latency_ms: 12,
  });
  const page = (session: PortalSession) =>
    t.app.inject({ url: `/portal/api/inspections/${inspectionId}`, headers: { cookie: session.cookie } });

  it('a viewer: the attempts, their times, codes and outcomes, and nothing of the receiver', async () => {
    const answer = await page(viewer);
    expect(answer.statusCode).toBe(200);
    for (const secret of ['hooks.receiver.test', 'k33p-me-s3cret', EXCERPT, 'ECONNREFUSED'])
      expect(answer.body, secret).not.toContain(secret);
    const { deliveries } = answer.json<{ deliveries: { url?: string; attempts: object[] }[] }>();
    expect(deliveries[0]!.url).toBeUndefined();
    expect(deliveries[0]!.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: null, outcome: 'retry' }),
      expect.objectContaining({ attempt: 2, status_code: 200, outcome: 'delivered' }),
    ]);
  });

  it('an admin of the client: everything, as before', async () => {
    const answer = await page(admin);
    expect(answer.statusCode).toBe(200);
    for (const shown of [WEBHOOK_URL, EXCERPT, ERROR])
      expect(answer.body).toContain(JSON.stringify(shown).slice(1, -1));
  });
});
