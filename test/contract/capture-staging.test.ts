// The CaptureStaging contract, run against every adapter: tus's file store on the local disk and tus's S3
// store in a real S3-protocol server. The tus server drives the data store the way these tests do: it
// creates an upload, asks its offset (HEAD), appends at that offset (PATCH), and once the last byte is in
// the service reads the upload and removes it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTusS3Staging } from '../../src/adapters/storage/tus-s3-staging.js';
import { createTusStaging } from '../../src/adapters/storage/tus-staging.js';
import type { CaptureStaging } from '../../src/ports/capture-staging.js';
import { startS3Server } from '../helpers/s3.js';

const MiB = 1024 * 1024;
/** The time an unfinished upload may wait (the service's is a day). */
const TTL_MS = 3600_000;

interface Harness {
  /** The staging of one api process; each call opens another process's over the same store. */
  open(): CaptureStaging;
  /** Makes the unfinished upload `id` look started at `when`. */
  backdate(id: string, when: Date): void;
  /** What the stagings logged as warnings (their sweeps' failures). */
  warnings: string[];
  close(): Promise<void>;
}

function opened(make: () => CaptureStaging) {
  const all: CaptureStaging[] = [];
  return {
    open: () => {
      const staging = make();
      all.push(staging);
      return staging;
    },
    closeAll: () => Promise.all(all.map((s) => s.close())),
  };
}

async function diskHarness(): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-staging-'));
  const directory = path.join(dir, 'capture-uploads');
  const warnings: string[] = [];
  const logger = { warn: (_obj: object, msg: string) => void warnings.push(msg) };
  const stagings = opened(() => createTusStaging({ directory, ttlMs: TTL_MS, logger }));
  return {
    open: stagings.open,
    backdate(id, when) {
      // tus's file store keeps each upload's description, its start included, in `<id>.json`.
      const file = path.join(directory, `${id}.json`);
      const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify({ ...info, creation_date: when.toISOString() }));
    },
    warnings,
    async close() {
      await stagings.closeAll();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function s3Harness(): Promise<Harness> {
  const server = await startS3Server();
  const warnings: string[] = [];
  const logger = { warn: (_obj: object, msg: string) => void warnings.push(msg) };
  const stagings = opened(() => createTusS3Staging({ s3: server.settings, ttlMs: TTL_MS, logger }));
  return {
    open: stagings.open,
    backdate: (id, when) => server.backdateUpload(id, when),
    warnings,
    async close() {
      await stagings.closeAll();
      await server.close();
    },
  };
}

const ADAPTERS = { disk: diskHarness, s3: s3Harness } as const;

/** A link id no other test uses: every test names its uploads `<link>_<step>.<random>`, as the service does. */
const newLink = () => `l${crypto.randomBytes(6).toString('hex')}`;
const uploadId = (link: string, step = 'front') =>
  `${link}_${step}.${crypto.randomBytes(16).toString('hex')}`;

/** A new upload as the tus server makes it on POST. */
const newUpload = (id: string, size: number, metadata: Record<string, string> = { step: 'front' }) =>
  new Upload({ id, size, offset: 0, metadata });

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Bytes compared by length and hash (comparing megabytes element by element takes the matcher minutes). */
const digest = (data: Buffer) => ({
  bytes: data.length,
  sha256: crypto.createHash('sha256').update(data).digest('hex'),
});

/** The bytes of `data` as a request body arrives: in small chunks. */
const body = (data: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
    })(),
  );

/** What tus's stores throw for an id they do not hold: the server answers it 404. */
const NOT_FOUND = { status_code: 404 };

/** Reading `id` fails, whether the promise rejects or the stream it gives errors. */
async function readFails(staging: CaptureStaging, id: string): Promise<boolean> {
  try {
    await read(await staging.read(id));
    return false;
  } catch {
    return true;
  }
}

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe.each(Object.keys(ADAPTERS) as (keyof typeof ADAPTERS)[])('capture staging on %s', (name) => {
  let h: Harness;
  let staging: CaptureStaging;
  beforeAll(async () => {
    h = await ADAPTERS[name]();
    staging = h.open();
  });
  afterAll(async () => h?.close());

  it('creates an upload at offset 0 with its size and metadata, counted as unfinished', async () => {
    const link = newLink();
    const id = uploadId(link);
    const metadata = { step: 'front', filetype: 'image/jpeg', capture: '{"heading":12.5}', name: 'Zoé' };
    await staging.datastore.create(newUpload(id, 1000, metadata));
    expect(await staging.datastore.getUpload(id)).toMatchObject({ id, size: 1000, offset: 0, metadata });
    expect(await staging.countUnfinished(`${link}_front.`)).toBe(1);
  });

  it('appends at the offset, reports each new offset, and reads back every byte once finished', async () => {
    // Three PATCHes of 3, 3 and 1 MiB: on S3 a part (5 MiB) ends inside the second and the last one is short.
    const data = crypto.randomBytes(7 * MiB);
    const id = uploadId(newLink());
    await staging.datastore.create(newUpload(id, data.length));
    const offsets: number[] = [];
    for (const [start, end] of [
      [0, 3 * MiB],
      [3 * MiB, 6 * MiB],
      [6 * MiB, 7 * MiB],
    ] as const) {
      expect((await staging.datastore.getUpload(id)).offset).toBe(start);
      offsets.push(await staging.datastore.write(body(data.subarray(start, end)), id, start));
    }
    expect(offsets).toEqual([3 * MiB, 6 * MiB, 7 * MiB]);
    expect(await staging.datastore.getUpload(id)).toMatchObject({ offset: data.length, size: data.length });
    expect(digest(await read(await staging.read(id)))).toEqual(digest(data));
  });

  it('reads back an upload finished in one PATCH', async () => {
    const data = crypto.randomBytes(300_000);
    const id = uploadId(newLink());
    await staging.datastore.create(newUpload(id, data.length));
    expect(await staging.datastore.write(body(data), id, 0)).toBe(data.length);
    expect(digest(await read(await staging.read(id)))).toEqual(digest(data));
  });

  it('reads back an empty upload, finished at its creation', async () => {
    // tus finishes an upload of length 0 on its POST, without a PATCH; the service then reads it.
    const id = uploadId(newLink());
    await staging.datastore.create(newUpload(id, 0));
    expect(await staging.datastore.getUpload(id)).toMatchObject({ offset: 0, size: 0 });
    expect(await read(await staging.read(id))).toEqual(Buffer.alloc(0));
  });

  it('resumes on another api process: it sees the offset and the metadata, and finishes the upload', async () => {
    const data = crypto.randomBytes(2 * MiB);
    const id = uploadId(newLink());
    const metadata = { step: 'front', filetype: 'image/jpeg' };
    await staging.datastore.create(newUpload(id, data.length, metadata));
    await staging.datastore.write(body(data.subarray(0, MiB)), id, 0);

    const other = h.open();
    expect(await other.datastore.getUpload(id)).toMatchObject({ offset: MiB, size: data.length, metadata });
    expect(await other.datastore.write(body(data.subarray(MiB)), id, MiB)).toBe(data.length);
    expect(digest(await read(await other.read(id)))).toEqual(digest(data));
    // And the first process sees it finished too.
    expect((await staging.datastore.getUpload(id)).offset).toBe(data.length);
  });

  it('after an interrupted PATCH, resuming at the offset it reports gives back the right bytes', async () => {
    const data = crypto.randomBytes(2 * MiB);
    const id = uploadId(newLink());
    await staging.datastore.create(newUpload(id, data.length));
    const cut = Readable.from(
      (async function* () {
        yield data.subarray(0, MiB);
        throw new Error('the phone lost its connection');
      })(),
    );
    await expect(staging.datastore.write(cut, id, 0)).rejects.toBeDefined();
    const { offset } = await staging.datastore.getUpload(id);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(MiB);
    expect(await staging.datastore.write(body(data.subarray(offset)), id, offset)).toBe(data.length);
    expect(digest(await read(await staging.read(id)))).toEqual(digest(data));
  });

  it('counts the uploads of one prefix only, from their creation until they are removed', async () => {
    const link = newLink();
    const front = [uploadId(link, 'front'), uploadId(link, 'front')];
    const back = uploadId(link, 'back');
    // Another link whose id starts with this one's, and a step whose name starts with `front`.
    const neighbour = uploadId(`${link}0`, 'front');
    const longer = uploadId(link, 'front2');
    for (const id of [...front, back, neighbour, longer])
      await staging.datastore.create(newUpload(id, 200_000));
    // Half written (on S3 the bytes wait in an object of their own beside the upload).
    await staging.datastore.write(body(crypto.randomBytes(100_000)), front[0]!, 0);
    expect(await staging.countUnfinished(`${link}_front.`)).toBe(2);
    expect(await staging.countUnfinished(`${link}_back.`)).toBe(1);
    expect(await staging.countUnfinished(`${link}_`)).toBe(4);
    expect(await staging.countUnfinished(`${newLink()}_`)).toBe(0);
    // Another process counts the same.
    expect(await h.open().countUnfinished(`${link}_front.`)).toBe(2);

    // Finished but not yet read into media storage: still in staging, still counted.
    await staging.datastore.write(body(crypto.randomBytes(100_000)), front[0]!, 100_000);
    expect(await staging.countUnfinished(`${link}_front.`)).toBe(2);
    await staging.remove(front[0]!);
    expect(await staging.countUnfinished(`${link}_front.`)).toBe(1);
    await staging.remove(front[1]!);
    expect(await staging.countUnfinished(`${link}_front.`)).toBe(0);
    expect(await staging.countUnfinished(`${link}_`)).toBe(2);
  });

  it('removes a finished upload: it is no longer found, counted or readable', async () => {
    const link = newLink();
    const id = uploadId(link);
    const data = crypto.randomBytes(50_000);
    await staging.datastore.create(newUpload(id, data.length));
    await staging.datastore.write(body(data), id, 0);
    await staging.remove(id);
    await expect(staging.datastore.getUpload(id)).rejects.toMatchObject(NOT_FOUND);
    expect(await staging.countUnfinished(`${link}_`)).toBe(0);
    expect(await readFails(staging, id)).toBe(true);
    // Gone for the other processes too.
    await expect(h.open().datastore.getUpload(id)).rejects.toMatchObject(NOT_FOUND);
  });

  it('removes an unfinished upload, half-written or not', async () => {
    const link = newLink();
    const empty = uploadId(link);
    const half = uploadId(link);
    await staging.datastore.create(newUpload(empty, 100_000));
    await staging.datastore.create(newUpload(half, 100_000));
    await staging.datastore.write(body(crypto.randomBytes(40_000)), half, 0);
    await staging.remove(empty);
    await staging.remove(half);
    await expect(staging.datastore.getUpload(empty)).rejects.toMatchObject(NOT_FOUND);
    await expect(staging.datastore.getUpload(half)).rejects.toMatchObject(NOT_FOUND);
    expect(await staging.countUnfinished(`${link}_`)).toBe(0);
  });

  it('answers an unknown or removed upload as not found', async () => {
    const unknown = uploadId(newLink());
    await expect(staging.datastore.getUpload(unknown)).rejects.toMatchObject(NOT_FOUND);
    await expect(staging.remove(unknown)).rejects.toMatchObject(NOT_FOUND);
    expect(await readFails(staging, unknown)).toBe(true);

    const id = uploadId(newLink());
    await staging.datastore.create(newUpload(id, 10));
    await staging.remove(id);
    await expect(staging.remove(id)).rejects.toMatchObject(NOT_FOUND);
  });

  it('sweeps unfinished uploads past their time when a process starts, and keeps the others', async () => {
    const link = newLink();
    const old = uploadId(link, 'front');
    const oldHalf = uploadId(link, 'back');
    const fresh = uploadId(link, 'side');
    for (const id of [old, oldHalf, fresh]) await staging.datastore.create(newUpload(id, 100_000));
    await staging.datastore.write(body(crypto.randomBytes(30_000)), oldHalf, 0);
    await staging.datastore.write(body(crypto.randomBytes(30_000)), fresh, 0);
    const longAgo = new Date(Date.now() - 2 * TTL_MS);
    h.backdate(old, longAgo);
    h.backdate(oldHalf, longAgo);
    expect(await staging.countUnfinished(`${link}_`)).toBe(3);

    const restarted = h.open();
    await until(async () => (await restarted.countUnfinished(`${link}_`)) === 1);
    await expect(restarted.datastore.getUpload(old)).rejects.toMatchObject(NOT_FOUND);
    await expect(restarted.datastore.getUpload(oldHalf)).rejects.toMatchObject(NOT_FOUND);
    expect(await restarted.datastore.getUpload(fresh)).toMatchObject({ offset: 30_000, size: 100_000 });
    expect(await restarted.countUnfinished(`${link}_side.`)).toBe(1);
  });

  it('sweeps without failing', () => {
    // Every staging opened above swept once at its start.
    expect(h.warnings).toEqual([]);
  });
});
