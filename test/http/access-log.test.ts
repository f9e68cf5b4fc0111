// One access log line per answered request, with the request id, and none for probes and scrapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { captureLogs, type LogCapture } from '../helpers/log-capture.js';

describe('access log', () => {
  let t: TestApp;
  let logs: LogCapture;
  beforeAll(async () => {
    logs = captureLogs();
    t = await startTestApp('sqlite', { LOG_LEVEL: 'info' }, { logDestination: logs.destination });
  });
  afterAll(async () => t?.close());

  it('logs each answered request once, when answered, with its method, URL, status, time and id', async () => {
    const from = logs.lines.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      payload: { key: 'wk_live_nope' },
    });
    const lines = logs.lines.slice(from).filter((line) => line.request_id === res.headers['x-request-id']);
    expect(lines.map((line) => line.msg)).toEqual(['request completed']);
    expect(lines[0]).toMatchObject({
      level: 30,
      req: { method: 'POST', url: '/api/authenticate' },
      res: { statusCode: 401 },
      responseTime: expect.any(Number) as number,
    });
  });

  it('does not log probes and scrapes', async () => {
    const from = logs.lines.length;
    await t.app.inject({ url: '/healthz' });
    await t.app.inject({ url: '/metrics' });
    expect(logs.lines.slice(from).filter((line) => line.msg === 'request completed')).toEqual([]);
  });
});
