// A tenant cannot resolve the service's internal host names through the answers to the URLs it gives
// (issue: PATCH of its own client with `webhook_url: "http://vm/"` answered "Refused vm: resolves to
// private address 127.0.0.1"). A refusal now names the host as given, never an address it resolved to:
// in the answer to a webhook URL or a callback_url, in a test event's answer and in the delivery log.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { portalUser, signInAs, type PortalSession } from '../helpers/portal.js';

/** `localhost` resolves to loopback here, as an internal name would. */
const INTERNAL = 'localhost';
const ADDRESS = /127\.0\.0\.1|::1|resolves to/;

describe('no answer tells a tenant what an internal host name resolves to', () => {
  let t: TestApp;
  let client: { id: string; apiKey: string };
  let admin: PortalSession;
  /** A service with the production guard (the test app lets its loopback test servers through). */
  let strict: { deps: Deps; app: FastifyInstance };

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    client = await t.newClient();
    admin = await signInAs(t, await portalUser(t.deps, 'client_admin', client.id));
    const deps = await buildDeps(loadConfig({ ...t.environment.env, ALLOW_PRIVATE_NETWORKS: 'false' }));
    strict = { deps, app: await buildApp(deps) };
  });
  afterAll(async () => {
    await strict?.app.close();
    await strict?.deps.close();
    await t?.close();
  });

  it('a client admin setting their webhook URL is refused, naming the host and no address', async () => {
    const answer = await strict.app.inject({
      method: 'PATCH',
      url: `/portal/api/clients/${client.id}`,
      headers: admin.writeHeaders,
      payload: { webhook_url: `http://${INTERNAL}/hook` },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ message: string }>().message).toContain(`Refused ${INTERNAL}: not a public address`);
    expect(answer.body).not.toMatch(ADDRESS);
  });

  it('an upload naming such a callback_url is refused, naming the host and no address', async () => {
    const auth = await strict.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      payload: { key: client.apiKey },
    });
    const { session, refresh_token } = auth.json<{ session: string; refresh_token: string }>();
    const answer = await strict.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { authorization: `Bearer ${refresh_token}` },
      payload: {
        type: 'urls',
        session,
        case_id: 'NAMES-1',
        urls: ['https://example.com/photo.jpg'],
        callback_url: `http://${INTERNAL}/hook`,
      },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).not.toMatch(ADDRESS);
  });

  it('a test event to a URL stored before URLs were judged says it was refused, and no address', async () => {
    await t.deps.db
      .updateTable('clients')
      .set({ webhook_url: `http://${INTERNAL}:9/hook` })
      .where('id', '=', client.id)
      .execute();
    const answer = await strict.app.inject({
      method: 'POST',
      url: `/portal/api/clients/${client.id}/webhook/test`,
      headers: admin.writeHeaders,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ error: string }>().error).toBe(`Refused ${INTERNAL}: not a public address`);
    expect(answer.body).not.toMatch(ADDRESS);
  });
});
