// Client B against client A's resources, on every operation of the OpenAPI document (docs/api.md: "a
// client sees only its own inspections, personas and deliveries"). The operations come from the running
// app's /openapi.json, so a new route is covered without anyone listing it: its path parameters must be
// ones this test knows how to fill with A's ids (else the test fails and says which), and its credential
// comes from its declared security, else from its path. B always calls with B's own valid credential;
// the answer must never carry A's data, and A's rows must not change.
import crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_CARD } from '../../src/domain/estimate/rate-card.js';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { CLI_ACTOR } from '../../src/services/audit.js';
import { createKey } from '../../src/services/clients/manage.js';
import { createPersona } from '../../src/services/personas/manage.js';
import { createShare } from '../../src/services/portal/shares.js';
import { findPortalUser } from '../../src/services/users/accounts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { photo } from '../helpers/media.js';
import {
  completeWithoutAnalysis,
  PASSWORD,
  portalUser,
  seedInspection,
  signInAs,
  type PortalSession,
} from '../helpers/portal.js';

interface Operation {
  method: string;
  path: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
}

interface Credentials {
  session: string;
  access_token: string;
  refresh_token: string;
}

type Scheme = 'apiKey' | 'uploadToken' | 'renewToken' | 'linkToken' | 'portalSession' | 'shareToken';

const FRONT = photo('home.jpg');
/** Dismissing the first candidate region of the scenario's photo (its media id and version added). */
const CHANGE_DECISION = { base_version: 1, media_id: 'none', region: 0, decision: 'dismissed' };
const STEPS = [{ id: 'front', label: 'Front', instructions: 'The front.', required: true, overlay: 'front' }];
const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * One A inspection with the webhook message it produced, its first media item and a share link of it:
 * path parameters are filled from one of these.
 */
interface Scenario {
  inspection: string;
  message: string;
  media: string;
  shareId: string;
  shareToken: string;
  /** A spare API key of A's, by its prefix (A's own call revokes it). */
  keyPrefix: string;
  /** A's outbox messages: one held (A's own call sends it), one failed (A's own call sends it again). */
  heldMessage: string;
  failedMessage: string;
  /** A user of A's (a viewer, whom A's admin may change). */
  user: string;
  /** A's vehicle the inspection is attached to. */
  vehicle: string;
}

/**
 * The value of A's for a path parameter, or undefined when this test does not know the parameter: then
 * the test fails, naming the operation, so that a new route is either covered here or listed.
 */
function pathValue(
  path: string,
  name: string,
  a: { personaId: number; clientId: string },
  scenario: Scenario,
) {
  if (name === 'session') return scenario.inspection;
  if (name === 'id' && path.startsWith('/portal/api/clients/')) return a.clientId;
  if (name === 'prefix') return scenario.keyPrefix;
  if (name === 'id' && /^\/api\/personas\/\{id\}/.test(path)) return String(a.personaId);
  if (name === 'id' && /^\/portal\/api\/personas\/\{id\}/.test(path)) return String(a.personaId);
  if (name === 'id' && /\/deliveries\/\{id\}/.test(path)) return scenario.message;
  if (name === 'id' && path.startsWith('/portal/api/inspections/')) return scenario.inspection;
  if (name === 'mediaId') return scenario.media;
  if (name === 'messageId') return scenario.message;
  if (name === 'shareId') return scenario.shareId;
  if (name === 'id' && path.endsWith('/outbox/{id}/send')) return scenario.heldMessage;
  if (name === 'id' && path.endsWith('/outbox/{id}/resend')) return scenario.failedMessage;
  if (name === 'id' && path.startsWith('/portal/api/users/')) return scenario.user;
  if (name === 'id' && /^(\/portal)?\/api\/vehicles\/\{id\}/.test(path)) return scenario.vehicle;
  return undefined;
}

/** The resumable uploads: tus over a real socket, tested on their own. */
const isTus = (op: Operation) => op.path.startsWith('/app/api/uploads');
/**
 * Uploaded persona logos: public by design, for any phone (docs/portal.md#logos); that only logos are
 * served there, never another stored object, is tested in test/http/portal-personas.test.ts.
 */
const isPublicLogo = (op: Operation) => op.path === '/app/api/logos/{file}';

/** The credential an operation takes: its declared security, else what its path prefix implies. */
function schemeOf(op: Operation): Scheme | 'none' {
  const declared = op.security?.flatMap((s) => Object.keys(s))[0];
  if (declared) return declared as Scheme;
  if (op.path.startsWith('/app/api/')) return 'linkToken';
  if (op.path.startsWith('/portal/api/')) return 'portalSession';
  if (op.path.startsWith('/api/')) return 'apiKey';
  return 'none';
}

describe.each(BACKENDS)('client B against client A, every operation, on %s', (backend) => {
  let t: TestApp;
  let base: string;
  let operations: Operation[];
  let clientA: { id: string; apiKey: string };
  let clientB: { id: string; apiKey: string };
  const marker = `A-SECRET-${crypto.randomUUID()}`;
  const a = {
    personaId: 0,
    clientId: '',
    scenarios: [] as Scenario[],
    unusedSession: '',
    linkIds: [] as string[],
    openLinkToken: '',
    tusUpload: '',
  };
  let bPersonaId: number;
  let bLinkToken: string;
  let bShareToken: string;
  const admins = { A: '', B: '' };
  const sessions: Partial<Record<'A' | 'B', PortalSession>> = {};
  /**
   * A's or B's admin signed in to the portal: the session of the calls before while it still answers
   * (a sign-in costs a password hash), a new one when a call ended it.
   */
  const liveSession = async (client: 'A' | 'B'): Promise<PortalSession> => {
    const known = sessions[client];
    if (known) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/portal/api/session',
        headers: { cookie: known.cookie },
      });
      if (res.statusCode === 200) return known;
    }
    return (sessions[client] = await signInAs(t, admins[client]));
  };

  const inject = (request: InjectOptions) => t.app.inject(request);
  const authenticate = async (key: string) =>
    (await inject({ method: 'POST', url: '/api/authenticate', payload: { key } })).json<Credentials>();
  const newLink = async (apiKey: string, personaId: number, extra: object = {}) => {
    const res = await inject({
      method: 'POST',
      url: '/superappToken',
      payload: { apiKey, personaId, ...extra },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ token: string }>().token;
  };
  const linkIdOf = async (clientId: string) =>
    (
      await t.deps.db
        .selectFrom('links')
        .select('id')
        .where('client_id', '=', clientId)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
  // tus over real HTTP: @tus/server reads the request as a socket stream, which inject() does not give it.
  const tus = async (method: string, url: string, headers: Record<string, string>, body?: Buffer) => {
    const res = await fetch(new URL(url, base), {
      method,
      headers: { 'tus-resumable': '1.0.0', ...headers },
      ...(body && { body }),
    });
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body: method === 'HEAD' ? '' : await res.text(),
    };
  };
  const tusCreate = (token: string, step: string, length: number) =>
    tus('POST', '/app/api/uploads', {
      authorization: `Bearer ${token}`,
      'upload-length': String(length),
      'upload-metadata': `step ${b64(step)},filename ${b64(`${marker}.jpg`)}`,
    });
  const tusPatch = (token: string, location: string, bytes: Buffer) =>
    tus(
      'PATCH',
      location,
      {
        authorization: `Bearer ${token}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      bytes,
    );
  const messageOf = async (inspection: string) =>
    (
      await t.deps.db
        .selectFrom('webhook_messages')
        .select('id')
        .where('inspection_id', '=', inspection)
        .executeTakeFirstOrThrow()
    ).id;

  /**
   * A scenario from one of A's inspections: completed with a result (the portal's routes need one), with
   * a share link.
   */
  const scenarioOf = async (inspection: string): Promise<Scenario> => {
    await completeWithoutAnalysis(t.deps, inspection);
    const media = await t.deps.db
      .selectFrom('media')
      .select('id')
      .where('inspection_id', '=', inspection)
      .executeTakeFirstOrThrow();
    const share = await shareOf(clientA.id, inspection);
    const { prefix } = await createKey(t.deps, clientA.id, CLI_ACTOR);
    const vehicle = await compared(inspection, media.id);
    return {
      vehicle,
      inspection,
      message: await messageOf(inspection),
      media: media.id,
      ...share,
      keyPrefix: prefix,
      heldMessage: await outboxMessageOf('held'),
      failedMessage: await outboxMessageOf('failed'),
      user: (await findPortalUser(t.deps.db, await portalUser(t.deps, 'client_viewer', clientA.id)))!.id,
    };
  };
  /**
   * The inspection attached to a vehicle of A's and compared (with itself, for this test): a candidate
   * region to decide, and a confirmed new damage whose "before" a share shows.
   */
  const compared = async (inspection: string, mediaId: string) => {
    const vehicle = crypto.randomUUID();
    const now = Date.now();
    await t.deps.db
      .insertInto('vehicles')
      .values({
        id: vehicle,
        client_id: clientA.id,
        vin: null,
        plate: `A${now}`,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const row = await t.deps.db
      .selectFrom('inspections')
      .select('result')
      .where('id', '=', inspection)
      .executeTakeFirstOrThrow();
    const result = JSON.parse(row.result!) as InspectionResult;
    const box = { x: 0.2, y: 0.2, width: 0.1, height: 0.1 };
    const item = result.media.find((m) => m.id === mediaId)!;
    item.analysis.changes = {
      status: 'compared',
      previous_inspection_id: inspection,
      previous_media_id: mediaId,
      regions: [
        { box, score: 0.5 },
        { box, score: 0.4, decision: 'confirmed' },
      ],
    };
    item.analysis.damage = {
      status: 'reviewed',
      model: null,
      damages: [
        {
          part: 'door',
          type: 'scratch',
          severity: 'minor',
          confidence: 1,
          box,
          source: 'reviewer',
          new: true,
          previous_inspection_id: inspection,
        },
      ],
    };
    await t.deps.db
      .updateTable('inspections')
      .set({ result: JSON.stringify(result), vehicle_id: vehicle })
      .where('id', '=', inspection)
      .execute();
    return vehicle;
  };

  /** A link e-mailed to its customer, its message set held (as before a mail server) or failed. */
  const outboxMessageOf = async (status: 'held' | 'failed') => {
    await newLink(clientA.apiKey, a.personaId, {
      userDetails: { email: `${crypto.randomUUID()}@example.com` },
    });
    const { id } = await t.deps.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('client_id', '=', clientA.id)
      .where('status', '=', 'pending')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    await t.deps.db.updateTable('outbox_messages').set({ status }).where('id', '=', id).execute();
    return id;
  };
  const shareOf = async (clientId: string, inspection: string) => {
    const caller = {
      userId: 'test',
      email: 'test@portal.test',
      role: 'client_admin' as const,
      clientId,
      csrfToken: '',
      sessionHash: '',
    };
    const share = await createShare(
      { db: t.deps.db, now: t.deps.now, publicBaseUrl: 'http://localhost' },
      caller,
      inspection,
      {},
    );
    return { shareId: share.id, shareToken: share.url.split('#/share/')[1]! };
  };

  /** Every row of A's, as text: nothing B does may change it. */
  const rowsOfA = async () => {
    const tables = [
      'personas',
      'inspections',
      'media',
      'webhook_messages',
      'links',
      'outbox_messages',
      'portal_users',
    ] as const;
    const rows: unknown[] = [];
    for (const table of tables)
      rows.push(await t.deps.db.selectFrom(table).selectAll().where('client_id', '=', clientA.id).execute());
    return JSON.stringify(rows);
  };

  beforeAll(async () => {
    // A mail server is configured (no worker runs here, so nothing is sent): A's held and failed messages
    // may then be sent from the portal.
    t = await startTestApp(backend, { SMTP_URL: 'smtp://127.0.0.1:2525' });
    base = await t.listen();
    clientA = await t.newClient({ name: `${marker} client`, webhookUrl: 'https://hooks.example.com/a' });
    clientB = await t.newClient({ name: 'Client B', webhookUrl: 'https://hooks.example.com/b' });
    a.clientId = clientA.id;
    a.personaId = (
      await createPersona(t.deps, {
        clientId: clientA.id,
        kind: 'photo',
        name: `${marker} persona`,
        steps: STEPS,
      })
    ).id;
    bPersonaId = (await createPersona(t.deps, { clientId: clientB.id, kind: 'photo', steps: STEPS })).id;

    // An uploaded inspection of A's, with its inspection.received message.
    const upload = await authenticate(clientA.apiKey);
    const boundary = 'cross-tenant';
    const text = (name: string, value: string) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const uploaded = await inject({
      method: 'POST',
      url: '/api/upload',
      headers: {
        authorization: `Bearer ${upload.refresh_token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          text('type', 'file') +
            text('session', upload.session) +
            text('case_id', `${marker} case`) +
            text('inputMetaData', JSON.stringify({ owner: `${marker} metadata` })) +
            `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${marker}.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
        ),
        FRONT,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    a.scenarios.push(await scenarioOf(upload.session));

    // A submitted link of A's, whose id is an inspection too.
    const submitted = await newLink(clientA.apiKey, a.personaId, {
      caseId: `${marker} link case`,
      inputMetaData: { owner: `${marker} link metadata` },
    });
    const created = await tusCreate(submitted, 'front', FRONT.length);
    expect(created.statusCode, created.body).toBe(201);
    expect((await tusPatch(submitted, created.headers.location!, FRONT)).statusCode).toBe(204);
    const submit = await inject({
      method: 'POST',
      url: '/app/api/submit',
      headers: { authorization: `Bearer ${submitted}` },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    const linkInspection = submit.json<{ id: string }>().id;
    a.linkIds.push(linkInspection);
    a.scenarios.push(await scenarioOf(linkInspection));

    // An open link of A's with an unfinished upload, and a session A has not used yet.
    a.openLinkToken = await newLink(clientA.apiKey, a.personaId, { caseId: `${marker} open case` });
    a.linkIds.push(await linkIdOf(clientA.id));
    const unfinished = await tusCreate(a.openLinkToken, 'front', FRONT.length);
    expect(unfinished.statusCode).toBe(201);
    a.tusUpload = unfinished.headers.location!;
    a.unusedSession = (await authenticate(clientA.apiKey)).session;

    bLinkToken = await newLink(clientB.apiKey, bPersonaId);
    const bInspection = await seedInspection(t.deps, clientB.id, { caseId: 'B case' });
    bShareToken = (await shareOf(clientB.id, bInspection.id)).shareToken;
    admins.A = await portalUser(t.deps, 'client_admin', clientA.id);
    admins.B = await portalUser(t.deps, 'client_admin', clientB.id);

    const doc = (await inject({ url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
    }>();
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
    );
  });
  afterAll(async () => t?.close());

  /** Everything of A's that must never reach B. */
  const secretsOfA = () => [
    marker,
    clientA.id,
    clientA.apiKey,
    a.unusedSession,
    a.tusUpload.split('/').pop()!,
    ...a.linkIds,
    ...a.scenarios.flatMap((s) => [s.inspection, s.message]),
  ];
  /** A's secrets in an answer, but for what the request itself sent (an echo of the caller's input). */
  const leaks = (res: { headers: object; body: string }, sent = '') => {
    const text = `${JSON.stringify(res.headers)}\n${res.body}`;
    const found = secretsOfA().filter((secret) => text.includes(secret) && !sent.includes(secret));
    if (new RegExp(`"id":\\s*${a.personaId}[,}]`).test(res.body)) found.push(`persona ${a.personaId}`);
    return found;
  };

  /**
   * A client's valid credential for a scheme, as headers (fresh tokens each time: sessions are single use;
   * a fresh portal session too, since one of the calls signs out). A share token is of `scenario`'s
   * inspection for A, of B's own for B.
   */
  const credentialOf = async (
    scheme: Scheme | 'none',
    client: 'A' | 'B',
    scenario = a.scenarios[0]!,
  ): Promise<Record<string, string>> => {
    const key = client === 'A' ? clientA.apiKey : clientB.apiKey;
    switch (scheme) {
      case 'apiKey':
      case 'none':
        return { 'x-api-key': key };
      case 'uploadToken':
        return { authorization: `Bearer ${(await authenticate(key)).refresh_token}` };
      case 'renewToken':
        return { authorization: `Bearer ${(await authenticate(key)).access_token}` };
      case 'linkToken':
        return { authorization: `Bearer ${client === 'A' ? a.openLinkToken : bLinkToken}` };
      case 'portalSession':
        return (await liveSession(client)).writeHeaders;
      case 'shareToken':
        return { 'x-share-token': client === 'A' ? scenario.shareToken : bShareToken };
    }
  };

  /**
   * Bodies that name A's things where a body can (an operation with a body not listed here gets `{}`),
   * and what each must answer.
   */
  const bodies = (): Record<string, { payload: object; status: number; message?: string }> => ({
    'POST /api/authenticate': {
      payload: { key: clientB.apiKey, client_id: clientA.id },
      status: 401,
      message: 'API Key not valid',
    },
    'POST /api/upload': {
      payload: {
        type: 'urls',
        session: a.unusedSession,
        case_id: 'b',
        urls: ['https://media.example.com/x.jpg'],
      },
      status: 400,
      message: 'please generate new token and session',
    },
    'POST /superappToken': {
      payload: { apiKey: clientB.apiKey, personaId: a.personaId },
      status: 400,
      message: 'Invalid personaId',
    },
    'PATCH /api/personas/{id}': { payload: { name: 'B was here' }, status: 404 },
    'PATCH /portal/api/users/{id}': { payload: { role: 'client_admin' }, status: 404 },
    'POST /api/personas': { payload: { kind: 'photo' }, status: 201 },
    'POST /portal/api/session': { payload: { email: admins.B, password: PASSWORD }, status: 200 },
    'POST /portal/api/inspections/{id}/review': { payload: { base_version: 1, decision: null }, status: 404 },
    'POST /portal/api/inspections/{id}/changes': { payload: CHANGE_DECISION, status: 404 },
    'PUT /portal/api/clients/{id}/rate-card': { payload: DEFAULT_RATE_CARD, status: 404 },
    'POST /portal/api/inspections/{id}/shares': { payload: {}, status: 404 },
    'PATCH /portal/api/clients/{id}': { payload: { name: 'B was here' }, status: 404 },
  });

  /** What A sends on its own resources: a body its operation accepts. */
  const bodyOfA = (name: string): object | undefined =>
    ({
      'PATCH /api/personas/{id}': { name: `${marker} persona` },
      'PATCH /portal/api/personas/{id}': { name: `${marker} flow` },
      // A logo's body is the image itself (sent as image/jpeg, below).
      'POST /portal/api/personas/{id}/logo': FRONT,
      'POST /portal/api/inspections/{id}/review': { base_version: 1, decision: null },
      'POST /portal/api/inspections/{id}/shares': {},
      'PATCH /portal/api/clients/{id}': { name: `${marker} client` },
      // A grace period, so that A's own key keeps working for the calls after these.
      'POST /portal/api/clients/{id}/keys/rotate': { grace_seconds: 3600 },
      'POST /portal/api/clients/{id}/webhook/secret': { grace_seconds: 3600 },
      'PATCH /portal/api/users/{id}': { role: 'client_admin' },
      'PUT /portal/api/clients/{id}/rate-card': DEFAULT_RATE_CARD,
    })[name];

  /** A decision on the candidate region, against the inspection's version as it is now. */
  const changeDecisionOfA = async (scenario: Scenario) => {
    const { result_version } = await t.deps.db
      .selectFrom('inspections')
      .select('result_version')
      .where('id', '=', scenario.inspection)
      .executeTakeFirstOrThrow();
    return { ...CHANGE_DECISION, base_version: result_version };
  };

  it("never hands B A's data, nor changes A's, on any operation of the OpenAPI document", async () => {
    const problems: string[] = [];
    const covered: string[] = [];
    const before = await rowsOfA();
    const known = bodies();

    for (const op of operations.filter((op) => !isTus(op) && !isPublicLogo(op))) {
      const name = `${op.method} ${op.path}`;
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const body: { payload: object; status?: number; message?: string } | undefined =
        known[name] ?? (op.requestBody ? { payload: {} } : undefined);
      for (const scenario of pathParams.length > 0 ? a.scenarios : [a.scenarios[0]!]) {
        let url = op.path;
        for (const param of pathParams) {
          const value = pathValue(op.path, param, a, scenario);
          if (value === undefined) {
            problems.push(`${name}: no way to fill path parameter {${param}} with A's id; teach pathValue()`);
            continue;
          }
          url = url.replace(`{${param}}`, encodeURIComponent(value));
        }
        if (url.includes('{')) continue;
        const headers = await credentialOf(schemeOf(op), 'B');
        const res = await inject({
          method: op.method as InjectOptions['method'],
          url,
          headers,
          ...(body && { payload: body.payload }),
        });
        covered.push(`${name} -> ${res.statusCode}`);
        const found = leaks(res, `${url} ${JSON.stringify(body?.payload ?? '')}`);
        if (found.length > 0) problems.push(`${name} (${url}): B got A's ${found.join(', ')}`);
        if (res.statusCode >= 500) problems.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (pathParams.length > 0 && ![401, 403, 404].includes(res.statusCode))
          problems.push(`${name} (${url}) on A's resource: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (body?.status !== undefined && res.statusCode !== body.status)
          problems.push(`${name}: ${res.statusCode} instead of ${body.status}: ${res.body.slice(0, 200)}`);
        if (body?.message !== undefined && res.json<{ message?: string }>().message !== body.message)
          problems.push(`${name}: message ${res.body.slice(0, 200)}`);
      }
    }
    console.log(`cross-tenant: ${covered.length} calls as B\n  ${covered.join('\n  ')}`);
    expect(problems).toEqual([]);
    expect(await rowsOfA()).toBe(before);
    // The document did list the tenant-owned operations (so the loop above was not vacuous).
    expect(
      operations.filter((op) => op.parameters?.some((p) => p.in === 'path')).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it("answers A the same requests with A's data: the ids the test used are A's live resources", async () => {
    const problems: string[] = [];
    // Deletions last: revoking A's share link first would close the shared routes to A's own token.
    const deletionsLast = operations
      .filter((op) => !isTus(op) && !isPublicLogo(op))
      .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    for (const op of deletionsLast) {
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      if (pathParams.length === 0) continue;
      for (const scenario of a.scenarios) {
        let url = op.path;
        for (const param of pathParams)
          url = url.replace(`{${param}}`, pathValue(op.path, param, a, scenario)!);
        const name = `${op.method} ${op.path}`;
        const payload =
          name === 'POST /portal/api/inspections/{id}/changes'
            ? { ...(await changeDecisionOfA(scenario)), media_id: scenario.media }
            : bodyOfA(name);
        const res = await inject({
          method: op.method as InjectOptions['method'],
          url,
          headers: {
            ...(await credentialOf(schemeOf(op), 'A', scenario)),
            ...(Buffer.isBuffer(payload) && { 'content-type': 'image/jpeg' }),
          },
          ...(payload && { payload }),
        });
        if (res.statusCode < 200 || res.statusCode > 299)
          problems.push(`${op.method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  // The resumable uploads (tus) need a real socket, which inject() does not give: they are called here
  // over HTTP. B's link token never reaches an upload of A's link.
  it("never lets B's link reach A's unfinished upload (tus, over real HTTP)", async () => {
    // Every tus operation of the document is one of these.
    expect(operations.filter(isTus).map((op) => `${op.method} ${op.path}`)).toEqual([
      'POST /app/api/uploads',
      'HEAD /app/api/uploads/{id}',
      'PATCH /app/api/uploads/{id}',
      'DELETE /app/api/uploads/{id}',
    ]);
    const before = await rowsOfA();
    const asB = { authorization: `Bearer ${bLinkToken}` };
    const attempts = [
      await tus('HEAD', a.tusUpload, asB),
      await tus(
        'PATCH',
        a.tusUpload,
        { ...asB, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        FRONT,
      ),
      await tus('DELETE', a.tusUpload, asB),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(leaks(res)).toEqual([]);
    }
    const own = await tus('HEAD', a.tusUpload, { authorization: `Bearer ${a.openLinkToken}` });
    expect(own.statusCode).toBe(200);
    expect(own.headers['upload-offset']).toBe('0');
    expect(await rowsOfA()).toBe(before);
  });
});
