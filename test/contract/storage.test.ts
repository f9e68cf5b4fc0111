// The MediaStorage contract, run against every adapter: the local disk and a real S3-protocol server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskStorage } from '../../src/adapters/storage/disk.js';
import { createS3Storage } from '../../src/adapters/storage/s3.js';
import { contentKey, ObjectNotFoundError, type MediaStorage } from '../../src/ports/media-storage.js';
import { startS3Server } from '../helpers/s3.js';

const MiB = 1024 * 1024;
/** Sweep age of the tests: S3 dates objects to the second, so a fresh object must be kept at 2 s. */
const SWEEP_AGE_MS = 2000;

interface Harness {
  storage: MediaStorage;
  /** A storage whose backend refuses every write, and what its error says. */
  broken: { storage: MediaStorage; message: RegExp };
  /** Every file or object present, staging included, as the names `leave…` return. */
  listAll(): Promise<string[]>;
  /** Leaves what an interrupted write leaves, older than SWEEP_AGE_MS; returns its name. */
  leaveOldStagingLeftover(): Promise<string>;
  close(): Promise<void>;
  /** The folder of the disk adapter (its staging folders are made by hand to stand for other processes). */
  diskRoot?: string;
}

async function diskHarness(): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-disk-'));
  const root = path.join(dir, 'media');
  fs.mkdirSync(root);
  // Next to the root, where a key like `../outside` would lead.
  fs.writeFileSync(path.join(dir, 'outside'), 'not media');
  fs.writeFileSync(path.join(dir, 'a-file'), '');
  return {
    storage: createDiskStorage({ root, modes: { file: 0o600, dir: 0o700 } }),
    broken: {
      storage: createDiskStorage({ root: path.join(dir, 'a-file'), modes: { file: 0o600, dir: 0o700 } }),
      message: /ENOTDIR/,
    },
    listAll: async () =>
      fs
        .readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((f) => fs.statSync(path.join(root, f)).isFile()),
    async leaveOldStagingLeftover() {
      // Another host's process is alive as far as we know: only the file's age makes it a leftover.
      const name = path.join('.staging', 'other-host-123', 'interrupted');
      fs.mkdirSync(path.join(root, path.dirname(name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), 'half a file');
      const anHourAgo = new Date(Date.now() - 3600_000);
      fs.utimesSync(path.join(root, name), anHourAgo, anHourAgo);
      return name;
    },
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
    diskRoot: root,
  };
}

async function s3Harness(): Promise<Harness> {
  const server = await startS3Server();
  const { settings } = server;
  const client = new S3Client({ ...settings, endpoint: settings.endpoint! });
  const Bucket = settings.bucket;
  return {
    storage: createS3Storage(settings),
    broken: { storage: createS3Storage({ ...settings, bucket: 'no-such-bucket' }), message: /bucket/i },
    async listAll() {
      const page = await client.send(new ListObjectsV2Command({ Bucket }));
      return (page.Contents ?? []).map((o) => o.Key!);
    },
    async leaveOldStagingLeftover() {
      const Key = 'staging/interrupted';
      await client.send(new PutObjectCommand({ Bucket, Key, Body: 'half a file' }));
      // S3 has no way to backdate an object: let it age.
      await sleep(SWEEP_AGE_MS + 600);
      return Key;
    },
    async close() {
      client.destroy();
      await server.close();
    },
  };
}

const ADAPTERS = { disk: diskHarness, s3: s3Harness } as const;

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `mebibytes` random MiB produced as they are read (never one big buffer), then `failure` if given. */
function generated(mebibytes: number, hash: crypto.Hash, failure?: Error): Readable {
  return Readable.from(
    (async function* () {
      for (let i = 0; i < mebibytes; i++) {
        const chunk = crypto.randomBytes(MiB);
        hash.update(chunk);
        yield chunk;
      }
      if (failure) throw failure;
    })(),
  );
}

describe.each(Object.keys(ADAPTERS) as (keyof typeof ADAPTERS)[])('media storage on %s', (name) => {
  let h: Harness;
  beforeAll(async () => {
    h = await ADAPTERS[name]();
  });
  afterAll(async () => h?.close());

  it('stores, hashes and returns the bytes under their content address', async () => {
    const data = crypto.randomBytes(300_000);
    const stored = await h.storage.put(Readable.from([data]));
    expect(stored).toEqual({
      key: contentKey(sha256(data)),
      sha256: sha256(data),
      bytes: data.length,
      created: true,
    });
    expect(await read(await h.storage.get(stored.key))).toEqual(data);
    expect(await h.storage.exists(stored.key)).toBe(true);
  });

  it('returns a byte range of an object (a video seeked to)', async () => {
    const data = crypto.randomBytes(200_000);
    const stored = await h.storage.put(Readable.from([data]));
    expect(await read(await h.storage.get(stored.key, { start: 1000, end: 1999 }))).toEqual(
      data.subarray(1000, 2000),
    );
    expect(await read(await h.storage.get(stored.key, { start: 199_990, end: 199_999 }))).toEqual(
      data.subarray(199_990),
    );
  });

  it('stores an empty object', async () => {
    const stored = await h.storage.put(Readable.from([]));
    expect(stored).toMatchObject({ sha256: sha256(Buffer.alloc(0)), bytes: 0 });
    expect(await read(await h.storage.get(stored.key))).toEqual(Buffer.alloc(0));
  });

  it('stores the same content once: the second write is a no-op under the same key', async () => {
    const data = crypto.randomBytes(1000);
    const first = await h.storage.put(Readable.from([data]));
    const second = await h.storage.put(Readable.from([data]));
    expect(first.created).toBe(true);
    expect(second).toEqual({ ...first, created: false });
    expect((await h.listAll()).filter((k) => k.includes(first.sha256))).toHaveLength(1);
  });

  it('keeps staged bytes invisible until commit; discard leaves nothing', async () => {
    const data = crypto.randomBytes(5000);
    const before = await h.listAll();
    const dropped = await h.storage.stage(Readable.from([data]));
    expect(dropped).toMatchObject({ sha256: sha256(data), bytes: data.length });
    expect(await h.storage.exists(contentKey(dropped.sha256))).toBe(false);
    await dropped.discard();
    await dropped.discard();
    expect(await h.listAll()).toEqual(before);

    const kept = await h.storage.stage(Readable.from([data]));
    expect(await h.storage.exists(contentKey(kept.sha256))).toBe(false);
    const stored = await kept.commit();
    await kept.discard();
    expect(await read(await h.storage.get(stored.key))).toEqual(data);
  });

  it('streams a large object (multipart on S3) with the right hash', async () => {
    const hash = crypto.createHash('sha256');
    const stored = await h.storage.put(generated(20, hash));
    expect(stored.sha256).toBe(hash.digest('hex'));
    expect(stored.bytes).toBe(20 * MiB);
    const back = crypto.createHash('sha256');
    let bytes = 0;
    for await (const chunk of await h.storage.get(stored.key)) {
      back.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    expect({ sha256: back.digest('hex'), bytes }).toEqual({ sha256: stored.sha256, bytes: stored.bytes });
  });

  it('rejects with the source’s own error when it fails half-way, leaving nothing', async () => {
    const before = await h.listAll();
    const failure = new Error('client went away');
    // 12 MiB: past the first 8 MiB part, so S3 has a multipart upload to abort.
    await expect(h.storage.put(generated(12, crypto.createHash('sha256'), failure))).rejects.toBe(failure);
    expect(await h.listAll()).toEqual(before);
  });

  it('rejects with the backend’s own error when the backend fails', async () => {
    // 40 MiB: more than the parts S3 reads ahead, so the store gives up while the source still flows.
    const error = await h.broken.storage
      .put(generated(40, crypto.createHash('sha256')))
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(h.broken.message);
    expect((error as Error).name).not.toBe('AbortError');
  });

  it('answers a missing object as not found, and deletes quietly', async () => {
    const key = contentKey('0'.repeat(64));
    await expect(h.storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(h.storage.get(key)).rejects.toMatchObject({ key });
    expect(await h.storage.exists(key)).toBe(false);
    await h.storage.delete(key);

    const stored = await h.storage.put(Readable.from([crypto.randomBytes(10)]));
    await h.storage.delete(stored.key);
    expect(await h.storage.exists(stored.key)).toBe(false);
    await expect(h.storage.get(stored.key)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('never reaches outside the stored objects through a key', async () => {
    for (const key of ['../outside', 'sha256/../../outside', 'sha256', '']) {
      expect(await h.storage.exists(key)).toBe(false);
      await expect(h.storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    }
  });

  it('sweeps old leftovers of interrupted writes and reports them, keeping fresh staged bytes', async () => {
    const leftover = await h.leaveOldStagingLeftover();
    expect(await h.listAll()).toContain(leftover);
    const data = crypto.randomBytes(100);
    const fresh = await h.storage.stage(Readable.from([data]));
    expect(await h.storage.sweep(SWEEP_AGE_MS)).toBe(1);
    expect(await h.listAll()).not.toContain(leftover);
    const stored = await fresh.commit();
    expect(await read(await h.storage.get(stored.key))).toEqual(data);
  });
});

describe('disk media storage', () => {
  let h: Awaited<ReturnType<typeof diskHarness>>;
  beforeAll(async () => {
    h = await diskHarness();
  });
  afterAll(async () => h?.close());

  it('sweeps the staging folder of a dead process of this host at any age, and no live one', async () => {
    const root = h.diskRoot!;
    const dead = path.join(root, '.staging', `${os.hostname()}-2147483646`);
    fs.mkdirSync(dead, { recursive: true });
    fs.writeFileSync(path.join(dead, 'interrupted'), 'half a file');
    // A live process of this host (this one's parent) whose file is fresh.
    const live = path.join(root, '.staging', `${os.hostname()}-${process.ppid}`);
    fs.mkdirSync(live, { recursive: true });
    fs.writeFileSync(path.join(live, 'in-flight'), 'arriving');
    const fresh = await h.storage.stage(Readable.from([crypto.randomBytes(100)]));
    // This process's own folder may hold files of an earlier process with the same host name and pid
    // (a restarted container): old ones go too.
    const own = path.join(root, '.staging', `${os.hostname()}-${process.pid}`, 'earlier-life');
    fs.writeFileSync(own, 'half a file');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(own, twoHoursAgo, twoHoursAgo);

    expect(await h.storage.sweep(3600_000)).toBe(2);
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(own)).toBe(false);
    expect(fs.existsSync(path.join(live, 'in-flight'))).toBe(true);
    expect((await fresh.commit()).created).toBe(true);
  });
});
