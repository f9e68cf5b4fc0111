// Where resumable uploads behind a link (tus) wait until they are finished: each upload is named
// `<link id>_<random>`, so a link's unfinished uploads are found by their prefix. A finished upload is
// read once into media storage, then removed; unfinished ones past their time are swept.
import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/server';

export interface CaptureStaging {
  /** The tus data store that holds the unfinished uploads (the tus server writes through it). */
  readonly datastore: DataStore;
  /** How many unfinished uploads have ids starting with `prefix`. */
  countUnfinished(prefix: string): Promise<number>;
  /** The bytes of a finished upload. */
  read(id: string): Promise<Readable>;
  /** Drops an upload. */
  remove(id: string): Promise<void>;
  /** Stops sweeping. */
  close(): Promise<void>;
}
