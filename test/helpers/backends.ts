// Runs a suite against every database backend: SQLite in a temporary folder and a throwaway PostgreSQL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { createPostgresDatabase } from './postgres.js';

export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface TestEnvironment {
  env: Record<string, string>;
  config: Readonly<Config>;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** Settings for a fresh, empty installation on `backend`; `extra` adds or overrides settings. */
export async function testEnvironment(
  backend: Backend,
  extra: Record<string, string> = {},
): Promise<TestEnvironment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-test-'));
  const postgres = backend === 'postgres' ? await createPostgresDatabase() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Every answer of every test is checked against the OpenAPI document (test/helpers/contract.ts).
    RESPONSE_CONTRACT: 'enforce',
    // The test files run side by side, each with its own service: one analysis thread each, so that
    // no file loads the models twice.
    ANALYSIS_THREADS: '1',
    ...(postgres && { DATABASE_URL: postgres.url }),
    ...extra,
  };
  return {
    env,
    config: loadConfig(env),
    dataDir,
    async cleanup() {
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Where the limiters' counters live, for the tests that race them: the service's own database (SQLite,
 * PostgreSQL) and Redis when the global setup found one answering (`redisUrl`).
 */
export function limiterStores(redisUrl: string | null) {
  return [
    ['SQLite', 'sqlite', {}],
    ['PostgreSQL', 'postgres', {}],
    ...(redisUrl ? [['Redis', 'sqlite', { REDIS_URL: redisUrl }] as const] : []),
  ] as const;
}

/** A client address no other test uses, so that counters shared through Redis do not mix. */
export const freshAddress = () =>
  `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
