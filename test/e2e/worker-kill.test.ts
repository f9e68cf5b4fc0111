// A worker killed with SIGKILL mid-job loses no job: the job runs again on another worker and the
// inspection completes once (one result version), with the job's attempts showing the second run. The
// copies of the photos it was analysing were under DATA_DIR/scratch (not /tmp), and the next worker to
// start removes them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/backends.js';
import { photo } from '../helpers/media.js';
import { createPostgresDatabase } from '../helpers/postgres.js';
import { demoKey, startServer, type RunningServer } from '../helpers/process.js';
import { uploadClient } from '../helpers/upload-client.js';

describe.each(BACKENDS)('a worker killed in the middle of a job on %s', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-worker-kill-'));
  // A short lease: the dead worker's job is taken again within seconds.
  const env: Record<string, string> = { DATA_DIR: dataDir, JOB_LEASE: '2s' };
  const servers: RunningServer[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no job: it runs again and completes once', { timeout: 150_000 }, async () => {
    if (backend === 'postgres') {
      const database = await createPostgresDatabase();
      env.DATABASE_URL = database.url;
      dropDatabase = () => database.drop();
    }
    const apiServer = await startServer(env, ['--role', 'api']);
    servers.push(apiServer);
    const key = demoKey(apiServer.output())!;
    const doomed = await startServer(env, ['--role', 'worker']);
    servers.push(doomed);

    const api = uploadClient(apiServer.url);
    const c = await api.credentials(key);
    const names = ['home.jpg', 'exif.jpg', 'scenetext01.jpg', 'licenseplate_motion.jpg', 'scene.heic'];
    const files = [...names, ...names].map((name, i) => ({ name: `${i}-${name}`, content: photo(name) }));
    const res = await api.files(
      c.refresh_token,
      { type: 'file', session: c.session, case_id: 'kill', callback_url: 'https://hooks.example.com/x' },
      files,
    );
    expect(res.status).toBe(200);

    const status = async () => {
      const r = await fetch(`${apiServer.url}/api/inspections/${c.session}`, {
        headers: { 'x-api-key': key },
      });
      return (await r.json()) as { status: string; result: { version: number } | null };
    };
    const waitFor = async (wanted: string, ms: number) => {
      const deadline = Date.now() + ms;
      while ((await status()).status !== wanted) {
        if (Date.now() > deadline)
          throw new Error(
            `inspection never became ${wanted}:\n${servers
              .map((s) => s.output())
              .join('\n---\n')
              .slice(-6000)}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await waitFor('processing', 30_000);
    // The photos being analysed are copied into the worker's own scratch folder under DATA_DIR.
    const scratch = path.join(dataDir, 'scratch');
    const copies = () =>
      fs.existsSync(scratch)
        ? (fs.readdirSync(scratch, { recursive: true }) as string[]).filter((f) =>
            // A file may go between the listing and this look (the task removing its copies).
            fs.statSync(path.join(scratch, f), { throwIfNoEntry: false })?.isFile(),
          )
        : [];
    const deadline = Date.now() + 30_000;
    while (copies().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const doomedFolders = fs.readdirSync(scratch);
    expect(copies().length).toBeGreaterThan(0);
    await doomed.kill();

    servers.push(await startServer(env, ['--role', 'worker']));
    // The new worker swept the dead one's folder at start (before it took the job again).
    expect(fs.readdirSync(scratch).filter((name) => doomedFolders.includes(name))).toEqual([]);
    await waitFor('completed', 90_000);
    expect((await status()).result?.version).toBe(1);
    // Once the analysis is done, nothing of the photos is left in scratch space. The task stores the
    // result, then removes its copies: give it the moment between the two.
    const cleaned = Date.now() + 10_000;
    while (copies().length > 0 && Date.now() < cleaned) await new Promise((r) => setTimeout(r, 25));
    expect(copies()).toEqual([]);

    if (backend === 'sqlite') {
      // The second run is the job's second attempt (graphile-worker deletes succeeded jobs).
      const db = new Database(path.join(dataDir, 'walkaround.db'), { readonly: true });
      const job = db
        .prepare('select status, attempts from jobs where key = ?')
        .get(`analyse-inspection:${c.session}`);
      db.close();
      expect(job).toEqual({ status: 'completed', attempts: 2 });
    }
  });
});
