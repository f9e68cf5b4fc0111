import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs with no settings at all: SQLite under ./data, port 8080', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: path.resolve('data/walkaround.db'),
      modes: { file: 0o600, dir: 0o700 },
    });
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.superappUrl).toBe('http://localhost:8080/app');
    expect(config.outbound.allowPrivateNetworks).toBe(false);
    expect(config.refreshTokenTtlSeconds).toBe(3600);
    expect(config.accessTokenTtlSeconds).toBe(86400);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads and converts the settings it is given', () => {
    const config = loadConfig({
      PORT: '9000',
      URLGEN_PORT: '9001',
      DATABASE_URL: 'postgres://u@db:5432/w',
      PUBLIC_BASE_URL: 'https://inspect.example.com/',
      ALLOW_PRIVATE_NETWORKS: 'true',
      REFRESH_TOKEN_TTL: '30m',
      SECRET_KEY: 'a'.repeat(64),
    });
    expect(config.port).toBe(9000);
    expect(config.urlgenPort).toBe(9001);
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/w' });
    expect(config.publicBaseUrl).toBe('https://inspect.example.com');
    expect(config.superappUrl).toBe('https://inspect.example.com/app');
    expect(config.outbound.allowPrivateNetworks).toBe(true);
    expect(config.refreshTokenTtlSeconds).toBe(1800);
    expect(config.secretKey?.length).toBe(32);
  });

  it('leaves the analysis threads to the pool unless ANALYSIS_THREADS is set', () => {
    expect(loadConfig({}).analysisThreads).toBeUndefined();
    expect(loadConfig({ ANALYSIS_THREADS: '3' }).analysisThreads).toBe(3);
  });

  it('treats empty settings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(8080);
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid setting PORT="abc": expected an integer from 1 to 65535.'],
    [{ PORT: '70000' }, 'Invalid setting PORT="70000": expected an integer from 1 to 65535.'],
    [{ ANALYSIS_THREADS: '0' }, 'Invalid setting ANALYSIS_THREADS="0": expected an integer from 1 to 64.'],
    [
      { DATABASE_URL: 'mysql://x' },
      'Invalid setting DATABASE_URL=(hidden): expected a URL starting with sqlite: or postgres://.',
    ],
    [
      { ALLOW_PRIVATE_NETWORKS: 'maybe' },
      'Invalid setting ALLOW_PRIVATE_NETWORKS="maybe": expected true or false.',
    ],
    [
      { REFRESH_TOKEN_TTL: '1 hour' },
      'Invalid setting REFRESH_TOKEN_TTL="1 hour": expected a duration such as 3600, 90s, 30m, 1h or 2d.',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid setting LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent.',
    ],
    [
      { SECRET_KEY: 'short' },
      'Invalid setting SECRET_KEY=(hidden): expected 32 bytes as base64 (43-44 characters) or hex (64 characters).',
    ],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'Invalid setting PUBLIC_BASE_URL="ftp://x": expected an http(s) URL.'],
    // An origin, not a way into the rest of the content security policy.
    [{ EMBED_ORIGINS: "https://a.example; script-src 'unsafe-inline'" }, 'Invalid setting EMBED_ORIGINS='],
    [{ EMBED_ORIGINS: 'https://a.example/page' }, 'Invalid setting EMBED_ORIGINS='],
  ])('stops on %j with one line naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the origins that may frame the capture app; none by default', () => {
    expect(loadConfig({}).embedOrigins).toEqual([]);
    expect(loadConfig({ EMBED_ORIGINS: 'https://a.example, http://localhost:5173' }).embedOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
  });

  it('never shows a secret value in its message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@x' })).toThrow(/^(?!.*hunter2)/);
  });
});

describe('reporting every bad setting at once', () => {
  const caught = (env: Record<string, string>): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('loadConfig accepted the settings');
  };

  it('names a schema error, a derived error and a secret setting in one error, each once', () => {
    const error = caught({ PORT: 'abc', JOB_LEASE: '0s', SMTP_URL: 'not a url' });
    expect(error.problems).toEqual([
      'Invalid setting PORT="abc": expected an integer from 1 to 65535.',
      'Invalid setting JOB_LEASE="0s": expected a positive duration.',
      'Invalid setting SMTP_URL=(hidden): expected a URL such as smtp://user:password@mail.example.com:587 or smtps://mail.example.com:465.',
    ]);
    expect(error.message).toBe(
      [
        '3 settings are invalid:',
        '  Invalid setting PORT="abc": expected an integer from 1 to 65535.',
        '  Invalid setting JOB_LEASE="0s": expected a positive duration.',
        '  Invalid setting SMTP_URL=(hidden): expected a URL such as smtp://user:password@mail.example.com:587 or smtps://mail.example.com:465.',
      ].join('\n'),
    );
  });

  it('reports a setting with several schema errors once, and skips its derived checks', () => {
    // LOG_LEVEL fails every member of its union; SMS_PROVIDER fails its schema, so the derived
    // "SMS_PROVIDER required with SMS_FROM" is not reported as well.
    const error = caught({ LOG_LEVEL: 'loud', SMS_PROVIDER: 'pigeon', SMS_FROM: 'Acme' });
    expect(error.problems).toEqual([
      'Invalid setting SMS_PROVIDER="pigeon": expected twilio or json.',
      'Invalid setting LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent.',
    ]);
  });

  it('collects the derived checks of different settings together', () => {
    const error = caught({
      DAMAGE_MODEL_PATH: '/m.onnx',
      SMS_PROVIDER: 'twilio',
      SMS_FROM: '+15005550006',
      WEBHOOK_RETRY_SCHEDULE: '0,0',
    });
    expect(error.problems).toEqual([
      'Invalid setting DAMAGE_LABELS_PATH: required with DAMAGE_MODEL_PATH.',
      'Invalid setting WEBHOOK_RETRY_SCHEDULE="0": expected a positive duration.',
      'Invalid setting SMS_ACCOUNT_SID: required with SMS_PROVIDER=twilio.',
      'Invalid setting SMS_AUTH_TOKEN: required with SMS_PROVIDER=twilio.',
    ]);
  });

  it('never shows a secret value among several problems', () => {
    const error = caught({
      PORT: '0',
      DATABASE_URL: 'mysql://user:hunter2@x',
      REDIS_URL: 'http://:hunter2@r',
      SMTP_URL: 'smtp://u:hunter2@mail.example.com:99999',
      SMS_PROVIDER: 'json',
      SMS_URL: 'https://u:hunter2@sms.example.com',
      SMS_AUTH_TOKEN: 'hunter2',
    });
    expect(error.problems).toHaveLength(5);
    expect(error.message).not.toContain('hunter2');
  });

  it('gives a single bad setting exactly the one line it gave before', () => {
    const error = caught({ JOB_LEASE: '0s' });
    expect(error.problems).toEqual(['Invalid setting JOB_LEASE="0s": expected a positive duration.']);
    expect(error.message).toBe('Invalid setting JOB_LEASE="0s": expected a positive duration.');
  });
});

describe('link message settings', () => {
  it('has no provider by default: messages are held; retries at 30s, 2m, 10m, 1h, 6h', () => {
    const { messages } = loadConfig({});
    expect(messages.smtp).toBeUndefined();
    expect(messages.sms).toBeUndefined();
    expect(messages.retrySchedule).toEqual([30, 120, 600, 3600, 21600]);
  });

  it('reads the mail server from SMTP_URL, credentials decoded, ports by scheme', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:p%40ss%2Fword@mail.example.com' }).messages.smtp).toEqual({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      requireTls: true,
      auth: { user: 'mailer', pass: 'p@ss/word' },
      from: 'Walkaround <no-reply@localhost>',
    });
    expect(
      loadConfig({
        SMTP_URL: 'smtp://relay.internal:25',
        SMTP_FROM: 'Acme <a@example.com>',
        SMTP_REQUIRE_TLS: 'false',
      }).messages.smtp,
    ).toEqual({
      host: 'relay.internal',
      port: 25,
      secure: false,
      requireTls: false,
      auth: undefined,
      from: 'Acme <a@example.com>',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://[::1]' }).messages.smtp).toMatchObject({ host: '::1', port: 587 });
  });

  it('reads a Twilio provider, with the public API as the default base URL', () => {
    const env = {
      SMS_PROVIDER: 'twilio',
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 'tok',
      SMS_FROM: '+15005550006',
    };
    expect(loadConfig(env).messages.sms).toEqual({
      provider: 'twilio',
      url: 'https://api.twilio.com',
      accountSid: 'AC1',
      authToken: 'tok',
      from: '+15005550006',
    });
    expect(loadConfig({ ...env, SMS_URL: 'http://sms.internal:8080/' }).messages.sms).toMatchObject({
      url: 'http://sms.internal:8080',
    });
  });

  it('reads a JSON provider; its token and sender are optional', () => {
    expect(
      loadConfig({ SMS_PROVIDER: 'json', SMS_URL: 'https://sms.example.com/send' }).messages.sms,
    ).toEqual({
      provider: 'json',
      url: 'https://sms.example.com/send',
      authToken: undefined,
      from: undefined,
    });
  });

  it('reads MESSAGE_RETRY_SCHEDULE with the webhook schedule parser', () => {
    expect(loadConfig({ MESSAGE_RETRY_SCHEDULE: '100ms, 1s,2m' }).messages.retrySchedule).toEqual([
      0.1, 1, 120,
    ]);
  });

  it.each([
    [
      { SMTP_URL: 'http://mail.example.com' },
      'Invalid setting SMTP_URL=(hidden): expected a URL such as smtp://user:password@mail.example.com:587 or smtps://mail.example.com:465.',
    ],
    [{ SMTP_URL: 'smtp://mail.example.com:99999' }, 'Invalid setting SMTP_URL=(hidden): not a valid URL.'],
    [
      { SMTP_FROM: 'nobody' },
      'Invalid setting SMTP_FROM="nobody": expected an address such as Walkaround <no-reply@example.com>.',
    ],
    [
      { SMS_PROVIDER: 'carrier-pigeon' },
      'Invalid setting SMS_PROVIDER="carrier-pigeon": expected twilio or json.',
    ],
    [
      { SMS_PROVIDER: 'twilio', SMS_AUTH_TOKEN: 'tok', SMS_FROM: '+15005550006' },
      'Invalid setting SMS_ACCOUNT_SID: required with SMS_PROVIDER=twilio.',
    ],
    [
      { SMS_PROVIDER: 'twilio', SMS_ACCOUNT_SID: 'AC1', SMS_FROM: '+15005550006' },
      'Invalid setting SMS_AUTH_TOKEN: required with SMS_PROVIDER=twilio.',
    ],
    [
      { SMS_PROVIDER: 'twilio', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 'tok' },
      'Invalid setting SMS_FROM: required with SMS_PROVIDER=twilio.',
    ],
    [
      { SMS_PROVIDER: 'json' },
      'Invalid setting SMS_URL: required with SMS_PROVIDER=json (the endpoint SMS are POSTed to).',
    ],
    [
      { SMS_URL: 'https://sms.example.com' },
      'Invalid setting SMS_PROVIDER: required with SMS_URL (twilio or json).',
    ],
    [
      { SMS_PROVIDER: 'json', SMS_URL: 'https://user:secret@sms.example.com' },
      'Invalid setting SMS_URL=(hidden): credentials go in SMS_ACCOUNT_SID and SMS_AUTH_TOKEN, not in the URL.',
    ],
    [
      { MESSAGE_RETRY_SCHEDULE: '30s,soon' },
      'Invalid setting MESSAGE_RETRY_SCHEDULE="30s,soon": expected comma-separated durations such as 30s,2m,10m.',
    ],
    [
      { MESSAGE_RETRY_SCHEDULE: '30s,0' },
      'Invalid setting MESSAGE_RETRY_SCHEDULE="0": expected a positive duration.',
    ],
  ])('stops on %j with one line naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never shows the SMTP password or the SMS token', () => {
    expect(() => loadConfig({ SMTP_URL: 'ftp://u:hunter2@x' })).toThrow(/^(?!.*hunter2)/);
    expect(() => loadConfig({ SMS_AUTH_TOKEN: 'hunter2' })).toThrow(/^(?!.*hunter2)/);
  });
});
