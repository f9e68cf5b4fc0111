// What the service writes on disk is its own by default (issue: the SQLite database, which holds personal
// data, password hashes and sealed secrets, was created 0644 under the usual umask, while secret.key is
// 0600): DATA_DIR 0700, the database and its WAL 0600, media 0600 in 0700 folders; FILE_MODE changes it
// (640 → 750 for folders), and a data folder or database made looser earlier is set to it at start.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildDeps } from '../../src/deps.js';
import { testEnvironment, type TestEnvironment } from '../helpers/backends.js';

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

/** The modes of what a started service wrote: data folder, database and WAL, a stored photo and its folder. */
async function writtenModes(environment: TestEnvironment, extra: Record<string, string> = {}) {
  const deps = await buildDeps(loadConfig({ ...environment.env, ...extra }));
  try {
    const stored = await deps.storage.put(Readable.from([Buffer.from('a photo of a car')]));
    await deps.db.selectFrom('clients').selectAll().execute();
    const media = path.join(environment.dataDir, 'media', stored.key);
    const db = path.join(environment.dataDir, 'walkaround.db');
    return {
      dataDir: modeOf(environment.dataDir),
      database: modeOf(db),
      wal: modeOf(`${db}-wal`),
      media: modeOf(media),
      mediaFolder: modeOf(path.dirname(media)),
    };
  } finally {
    await deps.close();
  }
}

describe('files and folders the service writes', () => {
  const environments: TestEnvironment[] = [];
  const umask = process.umask();
  beforeAll(() => void process.umask(0o022)); // the usual umask: files 0644 unless the service says
  afterEach(() => void process.umask(0o022));
  afterAll(async () => {
    process.umask(umask);
    for (const environment of environments) await environment.cleanup();
  });
  const fresh = async () => {
    const environment = await testEnvironment('sqlite');
    environments.push(environment);
    return environment;
  };

  it('are the service user’s alone by default: 0700 folders, 0600 files', async () => {
    expect(await writtenModes(await fresh())).toEqual({
      dataDir: '700',
      database: '600',
      wal: '600',
      media: '600',
      mediaFolder: '700',
    });
  });

  it('follow FILE_MODE: 640 files in 750 folders', async () => {
    expect(await writtenModes(await fresh(), { FILE_MODE: '640' })).toEqual({
      dataDir: '750',
      database: '640',
      wal: '640',
      media: '640',
      mediaFolder: '750',
    });
  });

  it('tightens a data folder and a database made looser before', async () => {
    const environment = await fresh();
    fs.chmodSync(environment.dataDir, 0o755);
    fs.writeFileSync(path.join(environment.dataDir, 'walkaround.db'), '', { mode: 0o644 });
    fs.chmodSync(path.join(environment.dataDir, 'walkaround.db'), 0o644);
    const modes = await writtenModes(environment);
    expect([modes.dataDir, modes.database, modes.wal]).toEqual(['700', '600', '600']);
  });

  it('refuses a FILE_MODE with an execute bit or without owner read-write, naming it', () => {
    for (const bad of ['755', '400', 'rw-------', '0700'])
      expect(() => loadConfig({ FILE_MODE: bad }), bad).toThrow(/FILE_MODE/);
  });
});
