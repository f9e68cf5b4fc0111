// POST /superappToken (docs/api.md#superapptoken): every error row, success, and what a link holds.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUrlgenApp } from '../../src/http/app.js';
import { hashLinkToken } from '../../src/services/links/tokens.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe.each(BACKENDS)('POST /superappToken on %s', (backend) => {
  let t: TestApp;
  let client: { id: string; apiKey: string };
  let personaId: number;
  let otherPersonaId: number;

  beforeAll(async () => {
    t = await startTestApp(backend);
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/walkaround', linkTtlSeconds: 3600 });
    personaId = (await createPersona(t.deps, { clientId: client.id, kind: 'photo' })).id;
    const other = await t.newClient();
    otherPersonaId = (await createPersona(t.deps, { clientId: other.id, kind: 'video' })).id;
  });
  afterAll(() => t.close());

  const generate = (body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/superappToken', payload: body as object, headers });

  it('answers a token with status "true" and keeps caseId and inputMetaData on the link', async () => {
    const response = await generate({
      apiKey: client.apiKey,
      personaId,
      clientId: client.id,
      caseId: 'CASE-42',
      inputMetaData: { licensePlate: 'AB-123-CD', vin: 'WVWZZZ1JZXW000001', agentName: 'Ana' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ token: string; status: string; message: string }>();
    expect(body).toEqual({ token: body.token, status: 'true', message: 'Token generated successfully' });
    // 256 random bits, URL-safe (it travels after `#` in the link).
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const link = await t.deps.db
      .selectFrom('links')
      .selectAll()
      .where('token_hash', '=', hashLinkToken(body.token))
      .executeTakeFirstOrThrow();
    expect(link).toMatchObject({
      client_id: client.id,
      persona_id: personaId,
      case_id: 'CASE-42',
      status: 'open',
    });
    expect(JSON.parse(link.input_metadata!)).toEqual({
      licensePlate: 'AB-123-CD',
      vin: 'WVWZZZ1JZXW000001',
      agentName: 'Ana',
    });
    // Validity is the client's link TTL; the token itself is never stored.
    expect(link.expires_at - link.created_at).toBe(3600 * 1000);
    const stored = JSON.stringify(await t.deps.db.selectFrom('links').selectAll().execute());
    expect(stored).not.toContain(body.token);
  });

  it('takes the key from the x-api-key header, and personaId as a string of digits', async () => {
    const response = await generate({ personaId: String(personaId) }, { 'x-api-key': client.apiKey });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'true' });
  });

  it('gives every token its own link', async () => {
    const tokens = await Promise.all(
      [1, 2, 3].map(
        async () => (await generate({ apiKey: client.apiKey, personaId })).json<{ token: string }>().token,
      ),
    );
    expect(new Set(tokens).size).toBe(3);
  });

  it.each([
    ['no key at all', { personaId: 1 }, {}, 403, 'Forbidden: Invalid Request'],
    ['an empty key', { apiKey: '', personaId: 1 }, {}, 403, 'Forbidden: Invalid Request'],
    [
      'a wrong key',
      { apiKey: 'wk_not-a-real-key-at-all-000000000000', personaId: 1 },
      {},
      401,
      'Unauthorized: Invalid API Key',
    ],
    [
      'a wrong key in the header',
      { personaId: 1 },
      { 'x-api-key': 'nonsense' },
      401,
      'Unauthorized: Invalid API Key',
    ],
  ])('refuses %s', async (_name, body, headers, status, message) => {
    const response = await generate(body, headers);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ status: 'false', message });
  });

  it('refuses a revoked key', async () => {
    const revoked = await t.newClient();
    await t.deps.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('client_id', '=', revoked.id)
      .execute();
    const response = await generate({ apiKey: revoked.apiKey, personaId });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 'false', message: 'Unauthorized: Invalid API Key' });
  });

  it("refuses a clientId that is not the key's client, before looking at the rest", async () => {
    const response = await generate({ apiKey: client.apiKey, personaId: 'x', clientId: 'someone-else' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'false', message: 'Client ID mismatch' });
  });

  it.each([
    ['missing', {}],
    ['not a number', { personaId: 'photo' }],
    ['zero', { personaId: 0 }],
    ['unknown', { personaId: 987654 }],
    ["another client's", 'other'],
  ])('refuses a personaId that is %s', async (_name, extra) => {
    const fields = extra === 'other' ? { personaId: otherPersonaId } : extra;
    const response = await generate({ apiKey: client.apiKey, ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'false', message: 'Invalid personaId' });
  });

  it.each(['0612345678', '+1 415 555 2671', '+999123', '+44123', 'phone', '+14155552671x'])(
    'refuses the phone number %j (not E.164)',
    async (phone) => {
      const response = await generate({ apiKey: client.apiKey, personaId, userDetails: { phone } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ status: 'false', message: 'Invalid phone number' });
    },
  );

  it.each(['customer', 'a@b', 'a @example.com', '@example.com'])('refuses the e-mail %j', async (email) => {
    const response = await generate({ apiKey: client.apiKey, personaId, userDetails: { email } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'false', message: 'Invalid email' });
  });

  it('refuses fields of the wrong type with their name', async () => {
    const response = await generate({ apiKey: client.apiKey, personaId, inputMetaData: 'plate' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'false', message: 'inputMetaData is invalid' });
  });

  it("keeps compare_with on the link, and refuses another client's inspection exactly like an unknown one", async () => {
    const other = await t.newClient();
    const now = Date.now();
    const inspection = (id: string, clientId: string) => ({
      id,
      client_id: clientId,
      case_id: 'earlier',
      source: 'file' as const,
      status: 'completed' as const,
      callback_url: null,
      agent_id: null,
      agent_name: null,
      email_id: null,
      input_metadata: null,
      original_pair_ids: null,
      result: null,
      created_at: now,
      updated_at: now,
    });
    await t.deps.db
      .insertInto('inspections')
      .values([inspection(`own-${backend}`, client.id), inspection(`theirs-${backend}`, other.id)])
      .execute();
    const own = await generate({ apiKey: client.apiKey, personaId, compare_with: `own-${backend}` });
    expect(own.statusCode).toBe(200);
    const link = await t.deps.db
      .selectFrom('links')
      .select('compare_with')
      .where('token_hash', '=', hashLinkToken(own.json<{ token: string }>().token))
      .executeTakeFirstOrThrow();
    expect(link.compare_with).toBe(`own-${backend}`);
    const theirs = await generate({ apiKey: client.apiKey, personaId, compare_with: `theirs-${backend}` });
    const unknown = await generate({ apiKey: client.apiKey, personaId, compare_with: 'no-such-inspection' });
    expect([theirs.statusCode, unknown.statusCode]).toEqual([400, 400]);
    expect(theirs.json()).toEqual({ status: 'false', message: 'compare_with is invalid' });
    expect(unknown.body).toBe(theirs.body);
  });

  it('writes link messages to the outbox with the link, in the same transaction', async () => {
    const response = await generate({
      apiKey: client.apiKey,
      personaId,
      userDetails: { phone: '+14155552671', email: 'customer@example.com' },
    });
    expect(response.statusCode).toBe(200);
    const { token } = response.json<{ token: string }>();
    const link = await t.deps.db
      .selectFrom('links')
      .select('id')
      .where('token_hash', '=', hashLinkToken(token))
      .executeTakeFirstOrThrow();
    const messages = await t.deps.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('link_id', '=', link.id)
      .execute();
    expect(messages.map((m) => [m.channel, m.recipient]).sort()).toEqual([
      ['email', 'customer@example.com'],
      ['sms', '+14155552671'],
    ]);
    // The token is kept sealed, and put back into the body only when the message is sent.
    for (const message of messages) {
      expect(message.body).toContain(`${t.deps.config.superappUrl}/#[redacted]`);
      expect(message.body).not.toContain(token);
      expect(t.deps.secrets.open(message.link_token_sealed!)).toBe(token);
    }
  });

  it('is served on the URLGEN_PORT listener too', async () => {
    const urlgen = await buildUrlgenApp(t.deps);
    try {
      const response = await urlgen.inject({
        method: 'POST',
        url: '/superappToken',
        payload: { apiKey: client.apiKey, personaId },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'true' });
      expect(
        (await urlgen.inject({ method: 'POST', url: '/api/authenticate', payload: {} })).statusCode,
      ).toBe(404);
    } finally {
      await urlgen.close();
    }
  });
});

describe.each(BACKENDS)('POST /superappToken internal failures on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(() => t.close());

  it('answers 500 "Internal server error" when the link cannot be written', async () => {
    const client = await t.newClient();
    const persona = await createPersona(t.deps, { clientId: client.id, kind: 'photo' });
    await sql`drop table link_media`.execute(t.deps.db);
    await sql`drop table outbox_messages`.execute(t.deps.db);
    await sql`drop table links`.execute(t.deps.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: client.apiKey, personaId: persona.id },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ status: 'false', message: 'Internal server error' });
  });

  it('answers 500 "Internal Server Error: During API KEY Verification" when the key cannot be checked', async () => {
    const client = await t.newClient();
    await sql`drop table api_keys`.execute(t.deps.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey: client.apiKey, personaId: 1 },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      status: 'false',
      message: 'Internal Server Error: During API KEY Verification',
    });
  });
});
