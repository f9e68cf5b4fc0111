// Where media bytes live: the local disk (embedded default) or an S3-compatible bucket (scale mode).
// Every adapter passes the one contract suite in test/contract/storage.test.ts.
import type { Readable } from 'node:stream';

export interface StoredObject {
  /** Content address of the object: `sha256/<first two hex>/<sha256>`. */
  key: string;
  /** SHA-256 of the bytes, lowercase hex. */
  sha256: string;
  bytes: number;
  /** False when an object with the same content was already stored (the write was a no-op). */
  created: boolean;
}

/** Bytes written and hashed but not yet visible under their content address. */
export interface StagedObject {
  sha256: string;
  bytes: number;
  /** Moves the bytes to their content address (a no-op when that content is stored already). */
  commit(): Promise<StoredObject>;
  /** Drops the staged bytes; never touches a stored object. Safe to call more than once. */
  discard(): Promise<void>;
}

/** Bytes `start` to `end` of an object, both included (as in an HTTP `Range` header). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaStorage {
  /**
   * Streams `source` into a staging area while hashing it. Nothing is visible under a content address
   * until `commit()`. When `source` errors, the promise rejects with that error and nothing is left.
   * Lets a request store all its files first and publish them only once every check has passed.
   */
  stage(source: Readable): Promise<StagedObject>;
  /**
   * Streams `source` into storage while hashing it; the object becomes visible under its content
   * address only once every byte is written (never a partial object). When `source` errors (a size
   * limit, a client gone), the promise rejects with that error and nothing is left behind.
   */
  put(source: Readable): Promise<StoredObject>;
  /**
   * The object's bytes as a stream, or only bytes `start` to `end` (inclusive, within the object) of it;
   * rejects with `ObjectNotFoundError` when there is none.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes what interrupted writes left behind (staging files of a killed process, incomplete
   * uploads) older than `olderThanMs`, and the staging leftovers of dead processes on this host at
   * any age. Returns how many were removed.
   */
  sweep(olderThanMs: number): Promise<number>;
}

export class ObjectNotFoundError extends Error {
  override name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
  }
}

/** The content address both adapters use. */
export const contentKey = (sha256: string): string => `sha256/${sha256.slice(0, 2)}/${sha256}`;
