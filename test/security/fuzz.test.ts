// Property-based fuzzing of the surfaces that take untrusted bodies: POST /api/upload (JSON and
// multipart), POST /superappToken and the capture API (flow, quality, tus uploads, submit). Inputs range
// from valid to hostile: wrong types, huge and unicode strings, deep nesting, missing and extra fields,
// wrong content types, broken multipart framing, random tus headers and metadata.
//
// The rule for every request: no 5xx (and on the upload, not its unexpected-failure 404 either), no log
// line at error level or above, no file left behind (staging, scratch and unfinished uploads are
// accounted for; only the stored media of accepted uploads stay), and /healthz still answers 200.
//
// Runs are reproducible: FUZZ_SEED (printed with every result) replays them, FUZZ_RUNS changes how many.
// On a failure fast-check shrinks the input and reports the smallest counterexample it found.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersona } from '../../src/services/personas/manage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';
import { photo } from '../helpers/media.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
/** A request unanswered this long counts as a hang. */
const ANSWER_WITHIN_MS = 10_000;
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------------
// Compact stand-ins in the generated inputs, so a counterexample prints as `deep(5001, object)` and not
// as 25 KB of braces; they become text only when the request is built.

/** Text of `length` characters. */
class Huge {
  constructor(
    readonly length: number,
    readonly char = 'x',
  ) {}
  [fc.toStringMethod]() {
    return `huge(${this.length})`;
  }
}
/** A JSON value nested `depth` levels deep. */
class Deep {
  constructor(
    readonly depth: number,
    readonly kind: 'object' | 'array',
  ) {}
  [fc.toStringMethod]() {
    return `deep(${this.depth}, ${this.kind})`;
  }
  text() {
    return this.kind === 'object'
      ? '{"a":'.repeat(this.depth) + '1' + '}'.repeat(this.depth)
      : '['.repeat(this.depth) + ']'.repeat(this.depth);
  }
}
/** Something of the test's own, filled in at request time (a session, a key, a persona id, a URL). */
class Live {
  constructor(readonly name: string) {}
  [fc.toStringMethod]() {
    return `<${this.name}>`;
  }
}

type Lookup = (name: string) => unknown;

/** JSON text of a generated value, with the stand-ins expanded. */
function render(value: unknown, live: Lookup): string {
  if (value instanceof Huge) return JSON.stringify(value.char.repeat(value.length));
  if (value instanceof Deep) return value.text();
  if (value instanceof Live) return render(live(value.name), live);
  if (Array.isArray(value)) return `[${value.map((v) => render(v, live) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${render(v, live)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
/** A text field's value: strings as they are, anything else as its JSON text. */
const textOf = (value: unknown, live: Lookup): string => {
  if (value instanceof Live) return textOf(live(value.name), live);
  if (value instanceof Huge) return value.char.repeat(value.length);
  return typeof value === 'string' ? value : render(value, live);
};

// ---------------------------------------------------------------------------------------------------
// Generators shared by the surfaces.

const huge = fc
  .oneof(fc.integer({ min: 1_000, max: 20_000 }), fc.integer({ min: 200_000, max: 1_200_000 }))
  .chain((n) => fc.constantFrom('x', 'é', '😀', '\u0000').map((c) => new Huge(n, c)));
const deep = fc
  .tuple(
    fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 300_000 })),
    fc.constantFrom('object' as const, 'array' as const),
  )
  .map(([depth, kind]) => new Deep(depth, kind));
const unicode = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '\u202e',
    '\ud800',
    'a\u0000b',
    '𝕏',
    '\r\n',
    '../../etc/passwd',
    "' OR 1=1 --",
    '%00',
    '${x}',
  ),
);
const shortText = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 30 }) }, unicode);
/** A value of any type, hostile as often as not. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  shortText,
  fc.jsonValue({ maxDepth: 3 }),
  huge,
  deep,
  fc.array(shortText, { maxLength: 5 }),
);
/** Mostly the field's plausible value, sometimes anything at all. */
const field = <T>(plausible: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: anything });
const metadata = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(
      fc.string({ maxLength: 20 }),
      fc.oneof(shortText, fc.integer(), fc.boolean(), fc.constant(null)),
      { maxKeys: 6 },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: deep },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.constant('v'), { minKeys: 40, maxKeys: 120 }),
  },
  { weight: 1, arbitrary: fc.record({ licensePlate: huge }) },
);
const contentTypeOf = (usual: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(usual) },
    fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/octet-stream',
      'application/json, text/plain',
      '',
    ),
    fc.string({ maxLength: 40 }),
  );
/** Bodies that are not the JSON object expected. */
const rawBody = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '{',
    '[',
    '{"type":',
    'null',
    '[]',
    '"urls"',
    '1e999',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '\ufeff{}',
  ),
  deep,
  huge,
);

/** The media a part or body may carry: real photos made small, and things that are not photos. */
const MEDIA_KINDS = ['jpeg', 'png', 'heic', 'truncated-jpeg', 'text', 'empty', 'random', 'mp4-head'] as const;
type MediaKind = (typeof MEDIA_KINDS)[number];
const mediaKind = fc.oneof(
  { weight: 4, arbitrary: fc.constant<MediaKind>('jpeg') },
  { weight: 1, arbitrary: fc.constantFrom(...MEDIA_KINDS) },
);

// ---------------------------------------------------------------------------------------------------

// Each surface runs a fixed number of requests: bounded by count, not by a clock that a busy machine
// would run out of.
describe('fuzz', { timeout: 180_000 }, () => {
  let t: TestApp;
  let logs: LogCapture;
  let base: string;
  let media: { url: string; close(): Promise<void> };
  let client: { id: string; apiKey: string };
  let other: { id: string; apiKey: string };
  let photoPersona: number;
  let videoPersona: number;
  let otherPersona: number;
  let bodies: Record<MediaKind, Buffer>;
  const counts = new Map<string, number>();
  const failures = new Map<string, number>();
  /** The statuses answered, per surface: shows that the fuzz reaches acceptance as well as refusals. */
  const byStatus: Record<string, Record<number, number>> = {};
  /** tus uploads the fuzz created: their files may wait in the staging until finished or dropped. */
  const created = new Set<string>();
  let address = 0;
  const nextAddress = () => `198.18.${(++address >> 8) % 256}.${address % 256}`;

  beforeAll(async () => {
    logs = captureLogs();
    t = await startTestApp('sqlite', { LOG_LEVEL: 'warn' }, { logDestination: logs.destination });
    base = await t.listen();
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/fuzz', quotaPerHour: 1_000_000 });
    other = await t.newClient({ name: 'Other' });
    const steps = [
      { id: 'front', label: 'Front', instructions: 'The front.', required: true, overlay: 'front' },
      { id: 'plate', label: 'Plate', instructions: 'The plate.', required: false, overlay: 'plate' },
    ];
    photoPersona = (
      await createPersona(t.deps, {
        clientId: client.id,
        kind: 'photo',
        steps,
        allowGallery: true,
        askLocation: true,
      })
    ).id;
    videoPersona = (await createPersona(t.deps, { clientId: client.id, kind: 'video' })).id;
    otherPersona = (await createPersona(t.deps, { clientId: other.id, kind: 'photo' })).id;
    // Real photos, made a few KB so that thousands of requests stay fast.
    const jpeg = await sharp(photo('home.jpg')).resize(160).jpeg({ quality: 70 }).toBuffer();
    bodies = {
      jpeg,
      png: await sharp(photo('scenetext01.jpg')).resize(96).png().toBuffer(),
      heic: photo('scene.heic'),
      'truncated-jpeg': jpeg.subarray(0, Math.floor(jpeg.length / 2)),
      text: Buffer.from('just some text, not a photo\n'),
      empty: Buffer.alloc(0),
      random: Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251)),
      'mp4-head': Buffer.from('0000001c667479706973736f6d0000020069736f6d69736f326d703431', 'hex'),
    };
    media = await mediaServer(bodies);
  });

  afterAll(async () => {
    agent.destroy();
    await t?.close();
    await media?.close();
  });

  // -------------------------------------------------------------------------------------------------
  // The rule every request is held to.

  const dataDir = () => t.environment.dataDir;
  const filesUnder = (dir: string): string[] =>
    fs.existsSync(dir)
      ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
          fs.statSync(path.join(dir, f)).isFile(),
        )
      : [];
  /** Files no request should have left: media staging, scratch, and staging of uploads nobody created. */
  const leftovers = () => [
    ...filesUnder(path.join(dataDir(), 'media', '.staging')).map((f) => `media/.staging/${f}`),
    ...filesUnder(path.join(dataDir(), 'tmp')).map((f) => `tmp/${f}`),
    // One flat folder that grows with every created upload: names only, no stat of each.
    ...(fs.existsSync(path.join(dataDir(), 'capture-uploads'))
      ? fs.readdirSync(path.join(dataDir(), 'capture-uploads'))
      : []
    )
      .filter((f) => !created.has(f.replace(/\.json$/, '')))
      .map((f) => `capture-uploads/${f}`),
  ];

  interface Answer {
    status: number;
    body: string;
    headers: Record<string, string | string[] | number | undefined>;
  }

  const within = async <T>(what: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)),
        ANSWER_WITHIN_MS,
      );
    });
    try {
      return await Promise.race([what, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const inject = async (request: InjectOptions): Promise<Answer> => {
    const res = await within(t.app.inject({ remoteAddress: nextAddress(), ...request }));
    return { status: res.statusCode, body: res.body, headers: res.headers };
  };

  /**
   * Sends one fuzzed request and holds its answer to the rule; throws, with every broken part, so that
   * fast-check records the input as a counterexample.
   */
  async function judged(surface: string, send: () => Promise<Answer>, opts: { upload?: boolean } = {}) {
    counts.set(surface, (counts.get(surface) ?? 0) + 1);
    const mark = logs.lines.length;
    const problems: string[] = [];
    let answer: Answer | undefined;
    try {
      answer = await send();
    } catch (error) {
      problems.push(`request failed: ${(error as Error).message}`);
    }
    if (answer) {
      const statuses = (byStatus[surface] ??= {});
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }
    if (answer && answer.status >= 500)
      problems.push(`answered ${answer.status} ${answer.body.slice(0, 300)}`);
    if (answer && opts.upload && answer.status === 404)
      problems.push(`answered the upload's unexpected-failure 404 ${answer.body.slice(0, 300)}`);
    // An upload this request created (its Location) may wait in the staging from now on.
    const location = answer?.headers.location;
    if (typeof location === 'string' && answer?.status === 201) created.add(location.split('/').pop()!);
    let left = leftovers();
    // Files of a refused request may be dropped just after its answer: give them a moment.
    for (let wait = 0; left.length > 0 && wait < 20; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      left = leftovers();
    }
    if (left.length > 0) problems.push(`left files behind: ${left.join(', ')}`);
    for (const line of logs.errorsSince(mark)) {
      const err = line.err as { type?: string; message?: string } | undefined;
      problems.push(
        `logged at level ${line.level}: ${line.msg ?? ''} ${err?.type ?? ''}: ${err?.message?.slice(0, 200) ?? ''}`,
      );
    }
    const health = await t.app.inject({ url: '/healthz' });
    if (health.statusCode !== 200) problems.push(`/healthz answered ${health.statusCode} afterwards`);
    if (problems.length > 0) {
      failures.set(surface, (failures.get(surface) ?? 0) + 1);
      throw new Error(`${surface}: ${problems.join('\n  ')}`);
    }
    return answer!;
  }

  /** Runs a property with the fixed seed and prints what it did, pass or fail. */
  async function fuzz<T>(
    surfaces: string[],
    arbitrary: fc.Arbitrary<T>,
    run: (input: T) => Promise<void>,
    numRuns = RUNS,
  ) {
    const started = Date.now();
    try {
      await fc.assert(fc.asyncProperty(arbitrary, run), { numRuns, seed: SEED });
      for (const surface of surfaces) expect(counts.get(surface)).toBeGreaterThanOrEqual(RUNS);
    } catch (error) {
      console.log(`fuzz: FAILED with FUZZ_SEED=${SEED} (replay it with that variable)`);
      throw error;
    } finally {
      for (const surface of surfaces)
        console.log(
          `fuzz: ${surface} ${counts.get(surface) ?? 0} requests, ${failures.get(surface) ?? 0} failures (seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(byStatus[surface] ?? {})})`,
        );
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Credentials.

  interface Credentials {
    session: string;
    access_token: string;
    refresh_token: string;
  }
  let credentials: Credentials | undefined;
  /** A session is spent by an accepted upload only; a rejected one gives it back. */
  const currentCredentials = async () => {
    credentials ??= (
      await t.app.inject({ method: 'POST', url: '/api/authenticate', payload: { key: client.apiKey } })
    ).json<Credentials>();
    return credentials;
  };
  const tokenKind = fc.oneof(
    { weight: 8, arbitrary: fc.constant('valid' as const) },
    fc.constantFrom('missing' as const, 'garbage' as const, 'access' as const),
  );
  const bearer = (
    kind: 'valid' | 'missing' | 'garbage' | 'access',
    c: Credentials,
  ): Record<string, string> =>
    kind === 'missing'
      ? {}
      : {
          authorization: `Bearer ${kind === 'valid' ? c.refresh_token : kind === 'access' ? c.access_token : 'x.y.z'}`,
        };

  // -------------------------------------------------------------------------------------------------
  // POST /api/upload, JSON.

  const mediaUrl = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom('/small.jpg', '/small.png', '/missing', '/text.txt')
        .map((p) => new Live(`media${p}`)),
    },
    fc.constantFrom(
      'http://10.0.0.1/a.jpg',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/a.jpg',
      'http://127.0.0.1:1/a.jpg',
      'http://0.0.0.0/a.jpg',
      'http://[::ffff:10.0.0.1]/a.jpg',
      'file:///etc/passwd',
      'ftp://media.test/a.jpg',
      'data:image/jpeg;base64,/9j/4AAQ',
      'javascript:alert(1)',
      'http://user:pass@10.0.0.2/a.jpg',
      'https://',
    ),
    shortText,
  );
  const fileName = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('front.jpg', 'rear.JPEG', 'p.png', 's.heic', 'v.mp4', 'x.jfif') },
    fc.constantFrom(
      'x.exe',
      'noext',
      '../../etc/passwd.jpg',
      'a.jpg\u0000.exe',
      '',
      '.jpg',
      'a.jpg ',
      'ü.jpg',
    ),
    shortText,
  );
  const uploadJson = fc.record({
    token: tokenKind,
    contentType: contentTypeOf('application/json'),
    body: fc.oneof(
      {
        // What an integrator sends: every field plausible, the URLs fetchable.
        weight: 3,
        arbitrary: fc.record(
          {
            type: fc.constant('urls'),
            session: fc.constant(new Live('session')),
            case_id: shortText,
            urls: fc.array(fc.constantFrom(new Live('media/small.jpg'), new Live('media/small.png')), {
              minLength: 1,
              maxLength: 3,
            }),
            inputMetaData: metadata,
            callback_url: fc.constant('https://hooks.example.com/x'),
          },
          { requiredKeys: ['type', 'session', 'case_id', 'urls'] },
        ),
      },
      {
        weight: 8,
        arbitrary: fc.record(
          {
            type: field(fc.constant('urls')),
            session: field(fc.constant(new Live('session'))),
            case_id: field(shortText),
            urls: field(fc.array(mediaUrl, { maxLength: 4 })),
            url_pairs: field(fc.array(fc.tuple(mediaUrl, mediaUrl), { maxLength: 2 })),
            original_Id: field(fc.array(fileName, { maxLength: 4 })),
            original_pair_Id: field(fc.array(shortText, { maxLength: 2 })),
            auth: field(shortText),
            callback_url: field(
              fc.constantFrom('https://hooks.example.com/x', 'http://10.0.0.1/h', 'ftp://x', ''),
            ),
            inputMetaData: field(metadata),
            agent_id: field(shortText),
            agent_name: field(shortText),
            email_id: field(fc.constantFrom('claims@example.com', 'not an address')),
            extra: fc.option(anything, { nil: undefined }),
          },
          { requiredKeys: ['type', 'session', 'case_id'] },
        ),
      },
      {
        weight: 1,
        arbitrary: fc.record(
          { type: fc.constant('urls'), session: fc.constant(new Live('session')) },
          { requiredKeys: [] },
        ),
      },
      { weight: 2, arbitrary: rawBody.map((raw) => ({ raw })) },
    ),
  });

  /** The test's own values behind the stand-ins. */
  const lookup =
    (c: Credentials): Lookup =>
    (name) => {
      if (name === 'session') return c.session;
      if (name === 'apiKey') return client.apiKey;
      if (name === 'clientId') return client.id;
      if (name === 'persona') return photoPersona;
      if (name === 'videoPersona') return videoPersona;
      if (name === 'otherPersona') return otherPersona;
      if (name.startsWith('media/')) return `${media.url}/${name.slice('media/'.length)}`;
      throw new Error(`no live value ${name}`);
    };
  const bodyText = (body: { raw?: unknown } | Record<string, unknown>, live: Lookup) =>
    'raw' in body && Object.keys(body).length === 1 ? textOf(body.raw, live) : render(body, live);

  it('POST /api/upload, JSON: never a 5xx, an error log, a leftover file or a dead process', async () => {
    await fuzz(['POST /api/upload (JSON)'], uploadJson, async ({ token, contentType, body }) => {
      const c = await currentCredentials();
      const answer = await judged(
        'POST /api/upload (JSON)',
        () =>
          inject({
            method: 'POST',
            url: '/api/upload',
            headers: { ...bearer(token, c), 'content-type': contentType },
            payload: bodyText(body, lookup(c)),
          }),
        { upload: true },
      );
      if (answer.status === 200) credentials = undefined;
    });
  });

  // -------------------------------------------------------------------------------------------------
  // POST /api/upload, multipart.

  const FRAMINGS = [
    'no boundary parameter',
    'another boundary',
    'no closing boundary',
    'cut short',
    'LF line ends',
    'a preamble',
    'a part without headers',
    'a 200-character boundary',
    'an empty body',
    'multipart/mixed',
    'a quoted boundary',
    'a header line without a colon',
    'a part without a blank line',
    'a disposition without a name',
  ] as const;
  const framing = fc.oneof(
    { weight: 6, arbitrary: fc.constant('well formed' as const) },
    { weight: 4, arbitrary: fc.constantFrom(...FRAMINGS) },
  );
  const filePart = fc.record({
    name: fc.oneof({ weight: 6, arbitrary: fc.constant('files') }, shortText),
    filename: fileName,
    contentType: fc.option(
      fc.constantFrom('image/jpeg', 'application/octet-stream', 'text/plain', 'video/mp4'),
      { nil: undefined },
    ),
    content: mediaKind,
  });
  const uploadMultipart = fc.record({
    token: tokenKind,
    framing,
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
    filesFirst: fc.boolean(),
    fields: fc.oneof(
      fc.record(
        {
          type: fc.constant('file'),
          session: fc.constant(new Live('session')),
          case_id: shortText,
          inputMetaData: fc.option(metadata, { nil: undefined }),
        },
        { requiredKeys: ['type', 'session', 'case_id'] },
      ),
      fc.record(
        {
          type: field(fc.constant('file')),
          session: field(fc.constant(new Live('session'))),
          case_id: field(shortText),
          callback_url: field(fc.constantFrom('https://hooks.example.com/x', 'notaurl')),
          inputMetaData: field(metadata),
          agent_id: field(shortText),
          email_id: field(fc.constantFrom('claims@example.com', 'x')),
        },
        { requiredKeys: [] },
      ),
    ),
    extra: fc.array(fc.tuple(shortText, shortText), { maxLength: 3 }),
    files: fc.array(filePart, { maxLength: 4 }),
  });
  type MultipartSpec = typeof uploadMultipart extends fc.Arbitrary<infer T> ? T : never;

  /** The multipart body of a spec, framed as the spec says (well or badly); and its content type. */
  function multipart(spec: MultipartSpec, live: Lookup): { contentType: string; body: Buffer } {
    const broken = spec.framing;
    const boundary = broken === 'a 200-character boundary' ? 'b'.repeat(200) : 'fuzz-boundary-7MA4YWxk';
    const eol = broken === 'LF line ends' ? '\n' : '\r\n';
    const quote = (s: string) => s.replace(/"/g, '%22').replace(/[\r\n]/g, ' ');
    const head = (name: string, filename?: string, type?: string) => {
      if (broken === 'a part without headers') return '';
      const disposition =
        broken === 'a disposition without a name'
          ? 'Content-Disposition: form-data'
          : `Content-Disposition: form-data; name="${quote(name)}"${filename === undefined ? '' : `; filename="${quote(filename)}"`}`;
      const junk = broken === 'a header line without a colon' ? `this is not a header${eol}` : '';
      return `${disposition}${eol}${junk}${type ? `Content-Type: ${type}${eol}` : ''}`;
    };
    const part = (headers: string, content: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}${eol}${headers}${broken === 'a part without a blank line' ? '' : eol}`),
        content,
        Buffer.from(eol),
      ]);
    const fieldParts = Object.entries(spec.fields)
      .filter(([, v]) => v !== undefined)
      .map(([name, value]) => part(head(name), Buffer.from(textOf(value, live))));
    const extraParts = spec.extra.map(([name, value]) => part(head(name), Buffer.from(value)));
    const fileParts = spec.files.map((f) => part(head(f.name, f.filename, f.contentType), bodies[f.content]));
    const parts = spec.filesFirst
      ? [...fileParts, ...fieldParts, ...extraParts]
      : [...fieldParts, ...extraParts, ...fileParts];
    let body = Buffer.concat([
      Buffer.from(broken === 'a preamble' ? `this is a preamble${eol}` : ''),
      ...parts,
      Buffer.from(broken === 'no closing boundary' ? '' : `--${boundary}--${eol}`),
    ]);
    if (broken === 'cut short') body = body.subarray(0, Math.floor(body.length * spec.cut));
    if (broken === 'an empty body') body = Buffer.alloc(0);
    const contentType =
      broken === 'no boundary parameter'
        ? 'multipart/form-data'
        : broken === 'another boundary'
          ? 'multipart/form-data; boundary=not-the-one'
          : broken === 'multipart/mixed'
            ? `multipart/mixed; boundary=${boundary}`
            : broken === 'a quoted boundary'
              ? `multipart/form-data; boundary="${boundary}"`
              : `multipart/form-data; boundary=${boundary}`;
    return { contentType, body };
  }

  it('POST /api/upload, multipart: never a 5xx, an error log, a leftover file or a dead process', async () => {
    await fuzz(['POST /api/upload (multipart)'], uploadMultipart, async (spec) => {
      const c = await currentCredentials();
      const { contentType, body } = multipart(spec, lookup(c));
      // Over real HTTP: inject() never answers some framings (a headerless part over 1 MB) that a socket
      // answers at once, so it would report hangs that do not exist.
      const answer = await judged(
        'POST /api/upload (multipart)',
        () => request('POST', '/api/upload', { ...bearer(spec.token, c), 'content-type': contentType }, body),
        { upload: true },
      );
      if (answer.status === 200) credentials = undefined;
    });
  });

  // -------------------------------------------------------------------------------------------------
  // POST /superappToken.

  const superappToken = fc.record({
    keyIn: fc.constantFrom('body', 'body', 'body', 'header', 'both', 'none'),
    contentType: contentTypeOf('application/json'),
    body: fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record(
          {
            apiKey: field(
              fc.oneof(
                { weight: 4, arbitrary: fc.constant(new Live('apiKey')) },
                fc.constantFrom('wk_live_' + 'A'.repeat(32), ''),
              ),
            ),
            personaId: field(
              fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom(new Live('persona'), new Live('videoPersona')) },
                fc.constantFrom(new Live('otherPersona'), '1', '0', -1, 0, 1.5, 1e20, '1e3', ' 1', '０'),
              ),
            ),
            clientId: field(fc.constantFrom(new Live('clientId'), 'someone-else')),
            caseId: field(shortText),
            userDetails: field(
              fc.record(
                {
                  phone: field(fc.constantFrom('+33612345678', '+15005550006', '0612345678', '+')),
                  email: field(fc.constantFrom('customer@example.com', 'not-an-email', 'a@b')),
                },
                { requiredKeys: [] },
              ),
            ),
            inputMetaData: field(metadata),
            extra: fc.option(anything, { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 2, arbitrary: rawBody.map((raw) => ({ raw })) },
    ),
  });

  it('POST /superappToken: never a 5xx, an error log, a leftover file or a dead process', async () => {
    await fuzz(['POST /superappToken'], superappToken, async ({ keyIn, contentType, body }) => {
      const live = lookup({ session: '', access_token: '', refresh_token: '' });
      const withKey =
        keyIn === 'none' || keyIn === 'header' || 'raw' in body
          ? body
          : { ...body, apiKey: 'apiKey' in body ? body.apiKey : new Live('apiKey') };
      const headers: Record<string, string> = { 'content-type': contentType };
      if (keyIn === 'header' || keyIn === 'both') headers['x-api-key'] = client.apiKey;
      await judged('POST /superappToken', () =>
        inject({ method: 'POST', url: '/superappToken', headers, payload: bodyText(withKey, live) }),
      );
    });
  });

  // -------------------------------------------------------------------------------------------------
  // The capture API: each run opens a fresh link and sends it one to four requests.

  const linkTokenKind = fc.oneof(
    { weight: 8, arbitrary: fc.constant('link' as const) },
    fc.constantFrom('missing' as const, 'garbage' as const, 'upload token' as const),
  );
  const tusHeaders = fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    fc.record(
      {
        'tus-resumable': fc.oneof(
          { weight: 6, arbitrary: fc.constant('1.0.0') },
          fc.constantFrom('0.2.2', '2.0.0', ''),
          shortText,
        ),
        'x-http-method-override': fc.constantFrom('DELETE', 'PATCH', 'HEAD', 'GET', 'POST'),
        'upload-defer-length': fc.constantFrom('1', '0', 'x'),
        'upload-concat': fc.constantFrom('partial', 'final;/app/api/uploads/a /app/api/uploads/b', 'x'),
        'content-type': fc.constantFrom('application/offset+octet-stream', 'application/json', 'text/plain'),
        'x-forwarded-host': fc.constantFrom('evil.example', ''),
      },
      { requiredKeys: [] },
    ),
  );
  const metadataValue = fc.oneof(
    fc.constantFrom(
      'front',
      'plate',
      'camera',
      'gallery',
      '2026-11-23T10:05:12.345+01:00',
      'portrait-primary',
      '48.85',
      '2.35',
      '10',
      '',
      '-91',
      'NaN',
    ),
    shortText,
    // Kept under 1,000 characters: Node refuses request headers over 16 KB before the app sees them.
    huge.map((h) => new Huge(Math.min(h.length, 1_000), h.char)),
  );
  /** What the capture app sends: a known step and well-formed capture metadata. */
  const appMetadata = fc
    .tuple(
      fc.record(
        {
          step: fc.constantFrom('front', 'plate'),
          source: fc.constantFrom('camera', 'gallery'),
          captured_at: fc.constant('2026-11-23T10:05:12.345+01:00'),
          orientation: fc.constant('portrait-primary'),
          filename: fc.constant('front.jpg'),
        },
        { requiredKeys: ['step'] },
      ),
      fc.option(fc.constant({ latitude: '48.85', longitude: '2.35', accuracy: '10' }), { nil: undefined }),
    )
    .map(([app, location]) => ({ ...app, ...location }));
  const tusMetadata = fc.oneof(
    { weight: 6, arbitrary: appMetadata },
    {
      weight: 4,
      arbitrary: fc.record(
        {
          step: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('front', 'plate') }, metadataValue),
          source: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('camera', 'gallery') }, metadataValue),
          captured_at: fc.oneof(
            { weight: 3, arbitrary: fc.constant('2026-11-23T10:05:12.345+01:00') },
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            metadataValue,
          ),
          orientation: fc.oneof({ weight: 3, arbitrary: fc.constant('portrait-primary') }, metadataValue),
          latitude: fc.oneof(fc.double({ min: -100, max: 100 }).map(String), metadataValue),
          longitude: fc.oneof(fc.double({ min: -200, max: 200 }).map(String), metadataValue),
          accuracy: fc.oneof(fc.double({ min: -5, max: 1e6 }).map(String), metadataValue),
          filename: fileName,
        },
        { requiredKeys: ['step'] },
      ),
    },
    {
      weight: 3,
      arbitrary: fc.dictionary(
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc.constantFrom(
              'step',
              'source',
              'captured_at',
              'orientation',
              'latitude',
              'longitude',
              'accuracy',
              'filename',
              'filetype',
            ),
          },
          fc.string({ maxLength: 12 }),
        ),
        fc.option(metadataValue, { nil: undefined }),
        { maxKeys: 8 },
      ),
    },
    { weight: 1, arbitrary: shortText.map((raw) => ({ raw })) },
  );
  const createOp = fc.record({
    op: fc.constant('create' as const),
    token: linkTokenKind,
    length: fc.oneof(
      { weight: 4, arbitrary: fc.constant('exact' as const) },
      fc.integer({ min: -5, max: 200 * MB }).map(String),
      fc.constantFrom('', '1e3', '0x10', ' 5', '99999999999999999999'),
    ),
    metadata: tusMetadata,
    headers: tusHeaders,
    content: mediaKind,
  });
  const tusOp = fc.record({
    op: fc.constantFrom('patch' as const, 'head' as const, 'delete' as const),
    token: linkTokenKind,
    target: fc.constantFrom('created', 'created', 'created', 'made up', 'traversal', 'another link'),
    offset: fc.oneof(
      { weight: 4, arbitrary: fc.constant('0') },
      fc.integer({ min: -5, max: 100_000 }).map(String),
      shortText,
    ),
    headers: tusHeaders,
    content: mediaKind,
    chunked: fc.boolean(),
  });
  const submitOp = fc.record({ op: fc.constant('submit' as const), token: linkTokenKind });
  const captureOp = fc.oneof(
    fc.record({
      op: fc.constant('flow' as const),
      token: linkTokenKind,
      query: fc.option(shortText, { nil: undefined }),
    }),
    fc.record({
      op: fc.constant('quality' as const),
      token: linkTokenKind,
      contentType: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom(
            'image/jpeg',
            'image/png',
            'image/heic',
            'image/heif',
            'application/octet-stream',
          ),
        },
        fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', ''),
      ),
      content: mediaKind,
      width: fc.option(fc.oneof(fc.integer({ min: -10, max: 200_000 }).map(String), shortText), {
        nil: undefined,
      }),
      height: fc.option(fc.oneof(fc.integer({ min: -10, max: 200_000 }).map(String), shortText), {
        nil: undefined,
      }),
    }),
    createOp,
    tusOp,
    submitOp,
  );
  /** Create, send, look, submit: the path a phone takes, each step as fuzzed as the others. */
  const capturePath = fc
    .tuple(createOp, tusOp, tusOp, submitOp)
    .map(([create, patch, head, submit]) => [
      create,
      { ...patch, op: 'patch' as const, target: 'created', content: create.content },
      { ...head, op: 'head' as const, target: 'created' },
      submit,
    ]);
  const captureRun = fc.record({
    persona: fc.constantFrom('photo', 'photo', 'photo', 'video'),
    ops: fc.oneof(fc.array(captureOp, { minLength: 1, maxLength: 4 }), capturePath),
  });

  /** One request over real HTTP: @tus/server reads the request as a socket stream, which inject() does not give it. */
  const request = (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer,
    chunked = false,
  ): Promise<Answer> => within(send(method, url, headers, body, chunked, true));
  /** Once more on a fresh connection when a kept-alive one was closed by the server meanwhile. */
  const send = (
    method: string,
    url: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    chunked: boolean,
    retry: boolean,
  ) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(new URL(url, base), {
        method,
        headers: {
          ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, headerSafe(v)])),
          ...(body && !chunked && { 'content-length': String(body.length) }),
        },
        agent,
      });
      req.on('error', (error) => {
        if (retry && req.reusedSocket) resolve(send(method, url, headers, body, chunked, false));
        else reject(error);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
      });
      req.end(body);
    });
  const encodeMetadata = (metadata: Record<string, unknown> | { raw: string }, live: Lookup) =>
    'raw' in metadata && typeof metadata.raw === 'string' && Object.keys(metadata).length === 1
      ? metadata.raw
      : Object.entries(metadata)
          .map(([k, v]) => (v === undefined ? k : `${k} ${Buffer.from(textOf(v, live)).toString('base64')}`))
          .join(',');

  it('the capture API: never a 5xx, an error log, a leftover file or a dead process', async () => {
    const live = lookup({ session: '', access_token: '', refresh_token: '' });
    const uploadToken = (await currentCredentials()).refresh_token;
    const otherLink = await newLink(photoPersona);
    const otherUpload = (
      await request('POST', '/app/api/uploads', {
        authorization: `Bearer ${otherLink}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(bodies.jpeg.length),
        'upload-metadata': `step ${Buffer.from('plate').toString('base64')}`,
      })
    ).headers.location as string;
    created.add(otherUpload.split('/').pop()!);

    async function newLink(personaId: number) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/superappToken',
        payload: { apiKey: client.apiKey, personaId },
      });
      return res.json<{ token: string }>().token;
    }

    await fuzz(
      ['capture API'],
      captureRun,
      async ({ persona, ops }) => {
        const link = await newLink(persona === 'photo' ? photoPersona : videoPersona);
        let location: string | undefined;
        const auth = (kind: (typeof ops)[number]['token']): Record<string, string> =>
          kind === 'missing'
            ? {}
            : {
                authorization: `Bearer ${kind === 'link' ? link : kind === 'garbage' ? 'not-a-token' : uploadToken}`,
              };
        for (const op of ops) {
          const surface = 'capture API';
          counts.set(`capture: ${op.op}`, (counts.get(`capture: ${op.op}`) ?? 0) + 1);
          if (op.op === 'flow') {
            await judged(surface, () =>
              inject({
                method: 'GET',
                url: `/app/api/flow${op.query === undefined ? '' : `?${encodeURIComponent(Buffer.from(op.query).toString())}`}`,
                headers: auth(op.token),
              }),
            );
          } else if (op.op === 'submit') {
            await judged(surface, () =>
              inject({ method: 'POST', url: '/app/api/submit', headers: auth(op.token) }),
            );
          } else if (op.op === 'quality') {
            const query = new URLSearchParams({
              ...(op.width !== undefined && { width: op.width }),
              ...(op.height !== undefined && { height: op.height }),
            }).toString();
            await judged(surface, () =>
              inject({
                method: 'POST',
                url: `/app/api/quality${query ? `?${query}` : ''}`,
                headers: { ...auth(op.token), 'content-type': op.contentType },
                payload: bodies[op.content],
              }),
            );
          } else if (op.op === 'create') {
            const length = op.length === 'exact' ? String(bodies[op.content].length) : op.length;
            const answer = await judged(surface, () =>
              request('POST', '/app/api/uploads', {
                'tus-resumable': '1.0.0',
                ...op.headers,
                ...auth(op.token),
                'upload-length': length,
                'upload-metadata': encodeMetadata(op.metadata, live),
              }),
            );
            const made = answer.headers.location;
            if (typeof made === 'string') location = made;
          } else {
            const target =
              op.target === 'created' && location
                ? location
                : op.target === 'another link'
                  ? otherUpload
                  : op.target === 'traversal'
                    ? '/app/api/uploads/..%2F..%2Fmedia'
                    : '/app/api/uploads/made-up-id';
            const method = op.op.toUpperCase();
            await judged(surface, () =>
              request(
                method,
                target,
                {
                  'tus-resumable': '1.0.0',
                  ...(op.op === 'patch' && { 'content-type': 'application/offset+octet-stream' }),
                  ...op.headers,
                  ...auth(op.token),
                  ...(op.op === 'patch' && { 'upload-offset': op.offset }),
                },
                op.op === 'patch' ? bodies[op.content] : undefined,
                op.chunked,
              ),
            );
          }
        }
      },
      // A run sends one to four requests (three on average): half as many runs still make RUNS requests.
      Math.ceil(RUNS / 2),
    );
    const byRoute = [...counts]
      .filter(([name]) => name.startsWith('capture: '))
      .map(([name, n]) => `${name.slice(9)} ${n}`);
    console.log(`fuzz: capture API by operation: ${byRoute.join(', ')}`);
  });
});

/** A header value as a client can send it: the characters HTTP forbids in headers replaced. */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
const agent = new http.Agent({ keepAlive: true });

/** Serves the small test bodies at media.test (the test guard resolves it to loopback). */
async function mediaServer(bodies: Record<MediaKind, Buffer>) {
  const server = http.createServer((req, res) => {
    const body =
      req.url === '/small.jpg'
        ? bodies.jpeg
        : req.url === '/small.png'
          ? bodies.png
          : req.url === '/text.txt'
            ? bodies.text
            : undefined;
    res.writeHead(body ? 200 : 404, { 'content-length': body?.length ?? 0 });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://media.test:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
