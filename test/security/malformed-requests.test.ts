// Client mistakes are answered as client mistakes: a broken multipart body or metadata nested beyond
// reason gets a 400 with a clear message, never "Something Went Worng", never an error-level log, and
// leaves nothing behind (docs/security.md#request-bodies-and-uploads).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { captureLogs } from '../helpers/log-capture.js';
import { photo } from '../helpers/media.js';

const BOUNDARY = 'walkaround-test-boundary';
const FRAMED = `multipart/form-data; boundary=${BOUNDARY}`;
const INVALID = 'multipart body is invalid';

type Part = { name: string; value: string | Buffer; filename?: string };

/** A multipart body with the given parts, closed unless `close` is false. */
function multipart(parts: Part[], close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename ? `; filename="${part.filename}"\r\ncontent-type: image/jpeg` : '';
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${part.name}"${file}\r\n\r\n`),
    );
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const fields = (session: string): Part[] => [
  { name: 'type', value: 'file' },
  { name: 'session', value: session },
  { name: 'case_id', value: 'case-1' },
];
const aPhoto: Part = { name: 'files', filename: 'home.jpg', value: photo('home.jpg') };

/** `{"a":{"a":…1}}`, `depth` objects deep. */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Every file under the data folder's media root (stored objects and staging leftovers). */
function mediaFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  const entries = fs.readdirSync(root, { recursive: true }) as string[];
  return entries.filter((entry) => fs.statSync(path.join(root, entry)).isFile());
}

describe('malformed upload requests', () => {
  let t: TestApp;
  const logs = captureLogs();
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { LOG_LEVEL: 'info' }, { logDestination: logs.destination });
    ({ apiKey } = await t.newClient({ webhookUrl: 'https://hooks.example.com/walkaround' }));
  });
  afterAll(async () => t?.close());

  /** Sends an upload with a fresh session; returns the answer and the error-level lines it logged. */
  async function upload(contentType: string, body: (session: string) => Buffer | string) {
    const auth = await t.app.inject({ method: 'POST', url: '/api/authenticate', payload: { key: apiKey } });
    // Uploads are authorised by the refresh_token (docs/api.md#deliberate-quirks).
    const { session, refresh_token } = auth.json<{ session: string; refresh_token: string }>();
    const before = logs.lines.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { authorization: `Bearer ${refresh_token}`, 'content-type': contentType },
      payload: body(session),
    });
    const errorLogs = logs.errorsSince(before);
    return { res, session, message: res.json<{ message: string }>().message, errorLogs };
  }

  const cutInsideTheFile = (s: string) => multipart([...fields(s), aPhoto], false).subarray(0, -5000);
  const cases: Array<[string, string, (session: string) => Buffer | string, string]> = [
    ['no boundary parameter', 'multipart/form-data', (s) => multipart(fields(s)), INVALID],
    ['an empty boundary', 'multipart/form-data; boundary=', (s) => multipart(fields(s)), INVALID],
    [
      'a boundary not in the body',
      'multipart/form-data; boundary=other',
      (s) => multipart(fields(s)),
      INVALID,
    ],
    ['garbage for a body', FRAMED, () => 'not a multipart body at all', INVALID],
    ['no closing boundary after the fields', FRAMED, (s) => multipart(fields(s), false), INVALID],
    ['no closing boundary after a file', FRAMED, (s) => multipart([...fields(s), aPhoto], false), INVALID],
    ['a body cut inside a file', FRAMED, cutInsideTheFile, INVALID],
    // Well-formed framing around nothing of use is answered by the upload's own rules.
    ['an empty body', FRAMED, () => '', 'type is required'],
    [
      'a part without headers',
      FRAMED,
      () => `--${BOUNDARY}\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`,
      'type is required',
    ],
  ];

  it.each(cases)(
    'multipart with %s answers 400, logged below error level',
    async (_name, type, body, expected) => {
      const { res, message, errorLogs } = await upload(type, body);
      expect({ status: res.statusCode, message }).toEqual({ status: 400, message: expected });
      expect(errorLogs).toEqual([]);
    },
  );

  it('a body cut inside a file leaves no inspection, media row or file behind', async () => {
    const { session, message } = await upload(FRAMED, cutInsideTheFile);
    expect(message).toBe(INVALID);
    const inspections = await t.deps.db
      .selectFrom('inspections')
      .select('id')
      .where('id', '=', session)
      .execute();
    const media = await t.deps.db
      .selectFrom('media')
      .select('id')
      .where('inspection_id', '=', session)
      .execute();
    expect({ inspections: inspections.length, media: media.length }).toEqual({ inspections: 0, media: 0 });
    expect(mediaFiles(t.environment.dataDir)).toEqual([]);
  });

  it.each([
    ['JSON', 'application/json'],
    ['multipart', FRAMED],
  ])(
    'inputMetaData nested 40,000 deep in a %s upload answers 400 "inputMetaData is invalid"',
    async (_kind, type) => {
      const meta = nested(40_000);
      const { res, session, errorLogs } = await upload(type, (s) =>
        type === 'application/json'
          ? `{"type":"urls","session":"${s}","case_id":"c","urls":["https://media.example.com/a.jpg"],"inputMetaData":${meta}}`
          : multipart([...fields(s), { name: 'inputMetaData', value: meta }, aPhoto]),
      );
      expect({ status: res.statusCode, body: res.json<unknown>() }).toMatchObject({
        status: 400,
        body: { status: 'error', message: 'inputMetaData is invalid', id: session },
      });
      expect(errorLogs).toEqual([]);
    },
  );

  it('inputMetaData within the documented depth is accepted', async () => {
    const { message, res } = await upload(FRAMED, (s) =>
      multipart([...fields(s), { name: 'inputMetaData', value: nested(8) }, aPhoto]),
    );
    expect({ status: res.statusCode, message }).toEqual({ status: 200, message: '' });
  });
});
