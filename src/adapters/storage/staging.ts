// What both storage adapters share: hashing the bytes as they stream to staging, and the life cycle of
// a staged object (commit once, retry a failed commit, discard).
import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import type { StagedObject, StoredObject } from '../../ports/media-storage.js';

/** The commit/discard life cycle of one staged object, given how to publish and how to drop it. */
export function stagedObject(
  sha256: string,
  bytes: number,
  actions: { publish(): Promise<StoredObject>; drop(): Promise<void> },
): StagedObject {
  let committing: Promise<StoredObject> | undefined;
  let discarded = false;
  return {
    sha256,
    bytes,
    commit() {
      if (discarded) return Promise.reject(new Error('The staged object was discarded'));
      // A failed commit leaves the staged bytes in place, for another commit or a discard.
      committing ??= actions.publish().catch((error: unknown) => {
        committing = undefined;
        throw error;
      });
      return committing;
    },
    async discard() {
      if (committing || discarded) return;
      discarded = true;
      await actions.drop();
    },
  };
}

/** A pass-through that hashes and counts what flows through it. */
export function hashingStream(): Transform & { result(): { sha256: string; bytes: number } } {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(stream, { result: () => ({ sha256: hash.digest('hex'), bytes }) });
}
