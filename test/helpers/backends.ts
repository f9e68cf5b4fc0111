// Runs a suite against every database backend: SQLite in a temporary folder and a throwaway PostgreSQL.
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
