// Composition root: the one place that picks adapters from the configuration.
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createSecretBox, loadMasterKey, type SecretBox } from './adapters/crypto/secret-box.js';
import { migrate, openDatabase, type Database } from './adapters/db/connect.js';
import type { Db } from './adapters/db/schema.js';
import { createAttemptLimiter } from './adapters/rate-limit/attempt-limiter.js';
import type { AttemptLimiter } from './ports/attempt-limiter.js';
import { createLogger, type Logger } from './logger.js';
import type { TokenSettings } from './services/credentials.js';
import { createKeyRing, ensureSigningKey, type KeyRing } from './services/signing-keys.js';

export interface Deps {
  config: Readonly<Config>;
  logger: Logger;
  database: Database;
  db: Db;
  secrets: SecretBox;
  keys: KeyRing;
  tokens: TokenSettings;
  failedAttempts: AttemptLimiter;
  now: () => number;
  close(): Promise<void>;
}

/** Opens the database and secrets only: what the operator CLI needs. */
export async function buildStorageDeps(config: Readonly<Config>, opts: { migrate: boolean }) {
  const logger = createLogger(config.logLevel);
  const database = openDatabase(config.database, (err) => logger.warn({ err }, 'database connection lost'));
  try {
    if (opts.migrate) await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const secrets = createSecretBox(loadMasterKey(config.secretKey, config.dataDir));
  return { config, logger, database, db: database.db, secrets, now: Date.now };
}

/** Everything the service needs; migrates the database and makes sure a signing key exists. */
export async function buildDeps(config: Readonly<Config>): Promise<Deps> {
  const storage = await buildStorageDeps(config, { migrate: true });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', (err) => storage.logger.warn({ err }, 'redis connection error'));
  try {
    await ensureSigningKey(storage);
    const keys = createKeyRing(storage, { cacheMs: config.signingKeyCacheMs });
    await keys.signer(); // fails now, with its reason, if the keys cannot be read
    const failedAttempts = await createAttemptLimiter(
      { database: storage.database, redis },
      {
        name: 'auth_failures',
        maxFailures: config.authFailureLimit,
        windowSeconds: config.authFailureWindowSeconds,
      },
    );
    return {
      ...storage,
      keys,
      tokens: {
        issuer: 'walkaround',
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      },
      failedAttempts,
      async close() {
        redis?.disconnect();
        await storage.database.close();
      },
    };
  } catch (error) {
    redis?.disconnect();
    await storage.database.close();
    throw error;
  }
}
