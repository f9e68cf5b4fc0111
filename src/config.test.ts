import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs with no settings at all: SQLite under ./data, port 8080', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data/walkaround.db') });
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

  it('treats empty settings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(8080);
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid setting PORT="abc": expected an integer from 1 to 65535.'],
    [{ PORT: '70000' }, 'Invalid setting PORT="70000": expected an integer from 1 to 65535.'],
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
  ])('stops on %j with one line naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never shows a secret value in its message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@x' })).toThrow(/^(?!.*hunter2)/);
  });
});
