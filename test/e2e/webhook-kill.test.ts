// At least once (docs/webhooks.md#answering-retries-and-duplicates): a worker killed while a delivery is in
// flight; the message is still delivered, with the same webhook-id, by the worker that takes the job over.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { photo } from '../helpers/media.js';
import { runCli, startServer, type RunningServer } from '../helpers/process.js';
import { uploadClient } from '../helpers/upload-client.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

describe('a worker killed with a delivery in flight', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-webhook-kill-'));
  // The receiver is on loopback; a short lease lets the next worker take the job over within seconds.
  const env = { DATA_DIR: dataDir, JOB_LEASE: '2s', ALLOW_PRIVATE_NETWORKS: 'true' };
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('still delivers the message, with the same webhook-id', { timeout: 120_000 }, async () => {
    let secret = '';
    const receiver = await startReceiver(() => secret);
    try {
      const created = await runCli(
        [
          'clients',
          'create',
          '--name',
          'kill',
          '--webhook-url',
          `http://127.0.0.1:${receiver.port}/hooks`,
          '--webhook-events',
          'inspection.received',
          '--json',
        ],
        env,
      );
      const client = JSON.parse(created.stdout) as { api_key: string; webhook_secret: string };
      secret = client.webhook_secret;
      const apiServer = await startServer(env, ['--role', 'api']);
      servers.push(apiServer);
      const doomed = await startServer(env, ['--role', 'worker']);
      servers.push(doomed);

      receiver.script.push('hang'); // the first attempt never gets an answer
      const api = uploadClient(apiServer.url);
      const c = await api.credentials(client.api_key);
      const res = await api.files(c.refresh_token, { type: 'file', session: c.session, case_id: 'k' }, [
        { name: 'a.jpg', content: photo('home.jpg') },
      ]);
      expect(res.status).toBe(200);
      const [inFlight] = await receiver.waitFor(1);
      await doomed.kill();

      servers.push(await startServer(env, ['--role', 'worker']));
      const [, delivered] = await receiver.waitFor(2);
      expect(delivered!.id).toBe(inFlight!.id);
      expect(delivered!.verified).toBe(true);
      expect(delivered!.status).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});
