// Unfinished capture uploads on the local disk of the api process (tus's FileStore under DATA_DIR), with
// an hourly sweep (and one at start) of uploads left untouched past their time.
import fs from 'node:fs';
import { FileStore } from '@tus/file-store';
import type { CaptureStaging } from '../../ports/capture-staging.js';

export function createTusStaging(opts: {
  directory: string;
  /** An unfinished upload untouched this long is dropped. */
  ttlMs: number;
  logger: { warn(obj: object, msg: string): void };
}): CaptureStaging {
  const datastore = new FileStore({ directory: opts.directory, expirationPeriodInMilliseconds: opts.ttlMs });
  const sweep = () =>
    datastore
      .deleteExpired()
      .catch((err: unknown) => opts.logger.warn({ err }, 'capture upload sweep failed'));
  const sweeper = setInterval(() => void sweep(), 3600_000).unref();
  void sweep();
  return {
    datastore,
    async countUnfinished(prefix) {
      const names = await fs.promises.readdir(opts.directory).catch(() => []);
      // Each upload is a data file and its `.json` description: count the data files.
      return names.filter((name) => name.startsWith(prefix) && !name.endsWith('.json')).length;
    },
    read: (id) => Promise.resolve(datastore.read(id)),
    remove: (id) => datastore.remove(id),
    close: async () => clearInterval(sweeper),
  };
}
