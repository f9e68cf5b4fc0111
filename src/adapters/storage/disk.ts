// Media on the local disk (embedded default), content-addressed by SHA-256. Bytes are staged in a
// folder of this process (`.staging/<host>-<pid>`), fsynced, then renamed into place: a content path
// only ever holds a whole file, and a crash leaves at most a staging file that `sweep` recognises.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileModes } from '../../config.js';
import { stagedObject } from './staging.js';
import {
  contentKey,
  ObjectNotFoundError,
  type MediaStorage,
  type StagedObject,
  type StoredObject,
} from '../../ports/media-storage.js';

const STAGING = '.staging';

/**
 * `modes`: of the stored files and their folders (FILE_MODE): a customer's photos are nobody else's on
 * the machine.
 */
export function createDiskStorage(opts: { root: string; modes: FileModes }): MediaStorage {
  const root = path.resolve(opts.root);
  const host = os.hostname();
  const stagingDir = path.join(root, STAGING, `${host}-${process.pid}`);
  /** The file of a key, or undefined when the key cannot name a stored object (outside root, staging). */
  const fileOf = (key: string): string | undefined => {
    const file = path.resolve(root, key);
    const relative = path.relative(root, file);
    const top = relative.split(path.sep)[0];
    if (!relative || path.isAbsolute(relative) || top === '..' || top === STAGING) return undefined;
    return file;
  };

  const storage: MediaStorage = {
    async stage(source: Readable): Promise<StagedObject> {
      await fs.promises.mkdir(stagingDir, { recursive: true, mode: opts.modes.dir });
      const temp = path.join(stagingDir, crypto.randomUUID());
      // Opened here rather than by the writer, so that on a source error the file surely exists when
      // it is removed: a stream still opening it could recreate it.
      const handle = await fs.promises.open(temp, 'wx', opts.modes.file);
      const writer = hashingFileWriter(handle);
      try {
        // Not fsynced yet: that waits for commit, so a request's files reach the disk together, once
        // every check has passed, instead of one flush per file while the body streams in.
        await pipeline(source, writer);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
      const { sha256, bytes } = writer.result();
      return stagedObject(sha256, bytes, {
        publish: () => publish(temp, sha256, bytes),
        drop: () => fs.promises.rm(temp, { force: true }),
      });
    },

    async put(source) {
      return (await storage.stage(source)).commit();
    },

    async get(key, range) {
      const file = fileOf(key);
      if (!file) throw new ObjectNotFoundError(key);
      // Opened before returning, so a missing object is an ObjectNotFoundError and not a stream error.
      const handle = await fs.promises.open(file, 'r').catch((error: unknown) => {
        throw isMissing(error) ? new ObjectNotFoundError(key) : error;
      });
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        throw new ObjectNotFoundError(key);
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async exists(key) {
      const file = fileOf(key);
      return file !== undefined && (await isFile(file));
    },

    async delete(key) {
      const file = fileOf(key);
      if (file) await fs.promises.rm(file, { force: true });
    },

    async sweep(olderThanMs) {
      const base = path.join(root, STAGING);
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      for (const dir of await listDir(base)) {
        const full = path.join(base, dir);
        if (full !== stagingDir && isDeadLocalProcess(dir, host)) {
          removed += (await listDir(full)).length;
          await fs.promises.rm(full, { recursive: true, force: true });
          continue;
        }
        // A live process (this one included) or another host: only files idle for long are leftovers.
        for (const name of await listDir(full)) {
          const file = path.join(full, name);
          const stat = await fs.promises.stat(file).catch(() => undefined);
          if (stat?.isFile() && stat.mtimeMs < cutoff) {
            await fs.promises.rm(file, { force: true });
            removed++;
          }
        }
      }
      return removed;
    },
  };

  /** Renames a staged file to its content path; a content path that exists already holds these bytes. */
  async function publish(temp: string, sha256: string, bytes: number): Promise<StoredObject> {
    const key = contentKey(sha256);
    const target = path.join(root, key);
    const dir = path.dirname(target);
    const createdDir = await fs.promises.mkdir(dir, { recursive: true, mode: opts.modes.dir });
    if (createdDir !== undefined) await fsyncParents(dir, createdDir);
    if (await isFile(target)) {
      await fs.promises.rm(temp, { force: true });
      return { key, sha256, bytes, created: false };
    }
    await fsyncPath(temp);
    await fs.promises.rename(temp, target);
    // The rename is only durable once the folder holding the new name is synced.
    await fsyncPath(dir);
    return { key, sha256, bytes, created: true };
  }

  return storage;
}

/** Staging folders are named `<host>-<pid>`; a folder of this host whose process is gone is garbage. */
function isDeadLocalProcess(dir: string, host: string): boolean {
  if (!dir.startsWith(`${host}-`)) return false;
  const pid = Number(dir.slice(host.length + 1));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const listDir = (dir: string): Promise<string[]> => fs.promises.readdir(dir).catch(() => []);

const isFile = (file: string): Promise<boolean> =>
  fs.promises.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );

const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** fsync of a file, or of a folder so that a name created in it survives a crash. */
async function fsyncPath(target: string): Promise<void> {
  const handle = await fs.promises.open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Syncs the parent of every folder `mkdir` created, from `dir` up to `createdTop`. */
async function fsyncParents(dir: string, createdTop: string): Promise<void> {
  for (let current = dir; ; current = path.dirname(current)) {
    await fsyncPath(path.dirname(current));
    if (current === createdTop || current === path.dirname(current)) return;
  }
}

/**
 * Hashes and writes in one stream (one hop less per chunk than a hashing transform piped into a file
 * stream): chunks that arrive while a write is under way go to the disk together, in one writev.
 * Closes the file once everything is written.
 */
function hashingFileWriter(
  handle: fs.promises.FileHandle,
): Writable & { result(): { sha256: string; bytes: number } } {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const writer = new Writable({
    highWaterMark: 256 * 1024,
    writev(chunks, done) {
      const buffers = chunks.map(({ chunk }) => chunk as Buffer);
      for (const buffer of buffers) {
        hash.update(buffer);
        bytes += buffer.length;
      }
      writeAll(handle, buffers).then(() => done(), done);
    },
    final(done) {
      handle.close().then(() => done(), done);
    },
  });
  return Object.assign(writer, { result: () => ({ sha256: hash.digest('hex'), bytes }) });
}

/** writev until every byte is written (a write may be partial, like write(2)). */
async function writeAll(handle: fs.promises.FileHandle, buffers: Buffer[]): Promise<void> {
  let pending = buffers;
  while (pending.length > 0) {
    let { bytesWritten } = await handle.writev(pending);
    while (pending.length > 0 && bytesWritten >= pending[0]!.length) {
      bytesWritten -= pending[0]!.length;
      pending = pending.slice(1);
    }
    if (pending.length > 0 && bytesWritten > 0)
      pending = [pending[0]!.subarray(bytesWritten), ...pending.slice(1)];
  }
}
