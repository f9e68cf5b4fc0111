// The newcomer's webhook loop (README.md#quick-start, ADR 12), as real processes: `walkaround serve` with
// its defaults (SQLite, in-process worker, ALLOW_PRIVATE_NETWORKS off), `walkaround webhooks listen`, and
// uploads with `callback_url=http://localhost:<port>/hook`: refused while nothing listens, delivered,
// verified and printed by the listener while it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { testEnvironment, type TestEnvironment } from '../helpers/backends.js';
import { photo } from '../helpers/media.js';
import {
  demoKey,
  freePort,
  runCli,
  startCli,
  startServer,
  type RunningCli,
  type RunningServer,
} from '../helpers/process.js';
import { uploadClient } from '../helpers/upload-client.js';

interface Printed {
  type: string;
  id: string;
  verified: boolean;
  error: string | null;
  summary: Record<string, unknown>;
}

describe('walkaround webhooks listen', () => {
  let environment: TestEnvironment;
  let env: Record<string, string>;
  let server: RunningServer;
  let api: ReturnType<typeof uploadClient>;
  let key: string;
  let demoId: string;
  const listeners: RunningCli[] = [];

  beforeAll(async () => {
    environment = await testEnvironment('sqlite');
    // Only what a newcomer has: a data folder. Everything else is the embedded default.
    env = { DATA_DIR: environment.dataDir };
    server = await startServer(env);
    api = uploadClient(server.url);
    key = demoKey(server.output())!;
    demoId = /client id:\s+(\S+)/.exec(server.output())![1]!;
  });
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.stop()));
    await server?.stop();
    await environment?.cleanup();
  });

  const upload = async (callback: string, apiKey = key) => {
    const c = await api.credentials(apiKey);
    const fields = { type: 'file', session: c.session, case_id: 'newcomer-1', callback_url: callback };
    return api.files(c.refresh_token, fields, [{ name: 'front.jpg', content: photo('home.jpg') }]);
  };
  const listen = async (port: number, ...args: string[]) => {
    const listener = startCli(['webhooks', 'listen', '--port', String(port), ...args], env);
    listeners.push(listener);
    await listener.waitFor((out) => out.includes(`http://localhost:${port}/hook`));
    return listener;
  };
  const printed = (output: string): Printed[] =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{"type"'))
      .map((line) => JSON.parse(line) as Printed);

  it('the first-start banner says how to receive webhooks on this machine', () => {
    expect(server.output()).toContain('npx walkaround webhooks listen');
    expect(server.output()).toContain('callback_url=http://localhost:9000/hook');
  });

  it('an upload to localhost is refused while nothing listens, naming ALLOW_PRIVATE_NETWORKS', async () => {
    const res = await upload(`http://localhost:${await freePort()}/hook`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('ALLOW_PRIVATE_NETWORKS=true');
    expect(res.body.message).toContain('walkaround webhooks listen');
  });

  it('prints a verified inspection.completed with its status, media count and flags', async () => {
    const port = await freePort();
    const listener = await listen(port);
    expect(listener.output()).toContain(`Listening for the webhooks of Demo client (${demoId})`);
    const res = await upload(`http://localhost:${port}/hook`);
    expect(res.status).toBe(200);
    const output = await listener.waitFor((out) => out.includes('inspection.completed'));
    const lines = output.split('\n');
    expect(lines.find((l) => l.includes('inspection.received'))).toMatch(
      /inspection\.received {2}msg_\w+ {2}verified {2}queued, 1 media \(image\), case newcomer-1$/,
    );
    expect(lines.find((l) => l.includes('inspection.completed'))).toMatch(
      /inspection\.completed {2}msg_\w+ {2}verified {2}completed, version 1, 1 media, (no flags|flags: [a-z_, ]+), case newcomer-1$/,
    );
    expect(await listener.stop()).toBe(0);
    // Stopped: the URL is refused again at once.
    expect((await upload(`http://localhost:${port}/hook`)).status).toBe(400);
  });

  it('--json prints one object a line; a delivery it cannot verify is printed as such and answered 400', async () => {
    const port = await freePort();
    const listener = await listen(port, '--json');
    const [first] = listener.output().trim().split('\n');
    expect(JSON.parse(first!)).toEqual({
      listening: `http://localhost:${port}/hook`,
      client_id: demoId,
      client_name: 'Demo client',
    });
    expect((await upload(`http://127.0.0.1:${port}/elsewhere`)).status).toBe(200);
    await listener.waitFor((out) => printed(out).some((p) => p.type === 'inspection.completed'));
    const completed = printed(listener.output()).find((p) => p.type === 'inspection.completed')!;
    expect(completed).toMatchObject({ verified: true, error: null });
    expect(completed.id).toMatch(/^msg_/);
    expect(completed.summary).toMatchObject({ status: 'completed', media_count: 1, case_id: 'newcomer-1' });
    expect(Array.isArray(completed.summary.flags)).toBe(true);

    // Signed with another secret: not verified, and the sender is told so.
    const body = JSON.stringify({ type: 'inspection.failed', timestamp: '', data: {} });
    const forged = new Webhook('whsec_' + Buffer.alloc(24).toString('base64'));
    const answer = await fetch(`http://127.0.0.1:${port}/hook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': forged.sign('msg_forged', new Date(), body),
      },
      body,
    });
    expect(answer.status).toBe(400);
    await listener.waitFor((out) => out.includes('msg_forged'));
    const rejected = printed(listener.output()).find((p) => p.id === 'msg_forged')!;
    expect(rejected).toMatchObject({ type: 'inspection.failed', verified: false });
    expect(rejected.error).toMatch(/signature/i);
  });

  it("another client's upload may not name a listener of the demo client", async () => {
    const port = await freePort();
    await listen(port);
    const created = await runCli(['clients', 'create', '--name', 'Other', '--json'], env);
    const other = JSON.parse(created.stdout) as { api_key: string };
    const res = await upload(`http://localhost:${port}/hook`, other.api_key);
    expect(res.status).toBe(400);
  });

  it("the CLI refuses a private webhook URL, but takes a live listener's URL for its own client", async () => {
    const port = await freePort();
    const url = `http://localhost:${port}/hook`;
    const refused = await runCli(['clients', 'update', demoId, '--webhook-url', url], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`walkaround: webhook URL ${url} points to a private address`);
    expect(refused.stderr).toContain('ALLOW_PRIVATE_NETWORKS=true');

    const listener = await listen(port, '--client', demoId);
    const taken = await runCli(['clients', 'update', demoId, '--webhook-url', url, '--json'], env);
    expect(taken.code).toBe(0);
    expect(JSON.parse(taken.stdout)).toMatchObject({ webhook_url: url });
    // Uploads without callback_url now go to the client's webhook URL: the listener.
    const c = await api.credentials(key);
    const fields = { type: 'file', session: c.session, case_id: 'by-webhook-url' };
    const res = await api.files(c.refresh_token, fields, [{ name: 'a.jpg', content: photo('home.jpg') }]);
    expect(res.status).toBe(200);
    await listener.waitFor((out) => /inspection\.completed .* verified .*case by-webhook-url/.test(out));
  });
});
