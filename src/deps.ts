// Composition root: the one place that picks adapters from the configuration.
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createSecretBox, loadMasterKey, type SecretBox } from './adapters/crypto/secret-box.js';
import { migrate, openDatabase, type Database } from './adapters/db/connect.js';
import type { Db } from './adapters/db/schema.js';
import { createAttemptLimiter } from './adapters/rate-limit/attempt-limiter.js';
import path from 'node:path';
import { createSafeFetch, type SafeFetch } from './adapters/fetch/safe-fetch.js';
import { createDbQueue } from './adapters/queue/db-queue.js';
import { createGraphileQueue } from './adapters/queue/graphile-queue.js';
import { createUploadQuota } from './adapters/rate-limit/upload-quota.js';
import { createDiskStorage } from './adapters/storage/disk.js';
import { createS3Storage } from './adapters/storage/s3.js';
import type { AttemptLimiter } from './ports/attempt-limiter.js';
import type { JobQueue } from './ports/job-queue.js';
import type { MediaStorage } from './ports/media-storage.js';
import type { UploadQuota } from './ports/upload-quota.js';
import { analysisAvailability } from './services/workers.js';
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
  storage: MediaStorage;
  queue: JobQueue;
  uploadQuota: UploadQuota;
  /** The one way out to the network (media URLs, webhooks, providers). */
  safeFetch: SafeFetch & { close(): Promise<void> };
  /** Whether a live worker can take analysis work (D4's 503 when not). */
  analysisAvailable: () => Promise<boolean>;
  now: () => number;
  close(): Promise<void>;
}

/** The job queue: graphile-worker on PostgreSQL (ADR 4), the service's own table on SQLite. */
export async function createQueue(
  base: Awaited<ReturnType<typeof buildStorageDeps>>,
  config: Readonly<Config>,
) {
  const { driver } = base.database;
  if (driver.kind === 'postgres')
    return createGraphileQueue({ ...base, pool: driver.handle, deadAfterMs: config.jobLeaseMs });
  return createDbQueue({ ...base, dialect: base.database.dialect, leaseMs: config.jobLeaseMs });
}

/** Media storage of the configuration: an S3-compatible bucket, else the local disk. */
export function createStorage(config: Readonly<Config>): MediaStorage {
  return config.s3
    ? createS3Storage(config.s3)
    : createDiskStorage({ root: path.join(config.dataDir, 'media') });
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
  const base = await buildStorageDeps(config, { migrate: true });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', (err) => base.logger.warn({ err }, 'redis connection error'));
  try {
    await ensureSigningKey(base);
    const keys = createKeyRing(base, { cacheMs: config.signingKeyCacheMs });
    await keys.signer(); // fails now, with its reason, if the keys cannot be read
    const failedAttempts = await createAttemptLimiter(
      { database: base.database, redis },
      {
        name: 'auth_failures',
        maxFailures: config.authFailureLimit,
        windowSeconds: config.authFailureWindowSeconds,
      },
    );
    const deps: Deps = {
      ...base,
      storage: createStorage(config),
      queue: await createQueue(base, config),
      uploadQuota: createUploadQuota({ database: base.database, redis }),
      safeFetch: createSafeFetch(config.outbound),
      analysisAvailable: analysisAvailability(base),
      keys,
      tokens: {
        issuer: 'walkaround',
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      },
      failedAttempts,
      async close() {
        await deps.safeFetch.close();
        await deps.queue.close();
        redis?.disconnect();
        await base.database.close();
      },
    };
    return deps;
  } catch (error) {
    redis?.disconnect();
    await base.database.close();
    throw error;
  }
}
