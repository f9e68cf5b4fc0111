// Composition root: the one place that picks adapters from the configuration. The adapters only some
// configurations use (S3, Redis, graphile-worker on PostgreSQL) are loaded when chosen, so that the CLI
// and the embedded default start without them.
import fs from 'node:fs';
import type { Config } from './config.js';
import { createSecretBox, loadMasterKey } from './adapters/crypto/secret-box.js';
import type { SecretBox } from './ports/secret-box.js';
import { migrate, openDatabase, type Database } from './adapters/db/connect.js';
import type { Db } from './ports/database.js';
import {
  createActionLimiter,
  createAttemptLimiter,
  type LimiterStore,
} from './adapters/rate-limit/attempt-limiter.js';
import path from 'node:path';
import { createOperatorFetch, operatorGuard } from './adapters/fetch/operator-fetch.js';
import { createListenerFetch } from './adapters/fetch/listener-fetch.js';
import { createSafeFetch, createUrlAdmission } from './adapters/fetch/safe-fetch.js';
import type { ListenerFetch, SafeFetch } from './ports/outbound-fetch.js';
import { createNotifier } from './adapters/notify/notifier.js';
import { createJsonSms } from './adapters/notify/sms-json.js';
import { createTwilioSms } from './adapters/notify/sms-twilio.js';
import { createSmtpSender } from './adapters/notify/smtp.js';
import { createDbQueue } from './adapters/queue/db-queue.js';
import { createPrometheusMetrics } from './adapters/metrics/prometheus.js';
import type { Metrics, MetricsExposition } from './ports/metrics.js';
import { createUploadQuota } from './adapters/rate-limit/upload-quota.js';
import { createDiskStorage } from './adapters/storage/disk.js';
import { createTusStaging } from './adapters/storage/tus-staging.js';
import type { ActionLimiter, AttemptLimiter } from './ports/attempt-limiter.js';
import type { CaptureStaging } from './ports/capture-staging.js';
import type { JobQueue } from './ports/job-queue.js';
import type { MediaStorage } from './ports/media-storage.js';
import type { Notifier } from './ports/notifier.js';
import type { PhotoQuality } from './ports/photo-quality.js';
import type { UploadQuota } from './ports/upload-quota.js';
import { analysisAvailability } from './services/worker-heartbeat.js';
import { createLogger, type DestinationStream, type Logger } from './logger.js';
import type { TokenSettings } from './services/session-tokens.js';
import {
  createKeyRing,
  ensureSigningKey,
  longestTokenLifetime,
  type KeyRing,
} from './services/signing-keys.js';
import { sealLegacyOutboxTokens } from './services/outbox/seal-tokens.js';
import { outboxBacklog } from './services/outbox/backlog.js';
import { VERSION } from './version.js';
import type { SessionDeps } from './services/portal/sessions.js';
import { createQualityPool } from './threads/quality-pool.js';

/** An unfinished capture upload untouched this long is dropped: a customer resumes within days, not weeks. */
const UNFINISHED_CAPTURE_TTL_MS = 8 * 24 * 3600 * 1000;
/** Re-sends a client may ask for in a minute: plenty by hand, too few to make us a flooding tool. */
const RESENDS_PER_MINUTE = 60;
/**
 * Failed portal sign-ins allowed per 15 minutes: per account (a guessed password) and per address (one
 * address trying many accounts; an office behind one address gets more).
 */
const SIGN_IN_FAILURES = { account: 5, address: 20, windowSeconds: 15 * 60 } as const;
/** Invitations one client admin may send an hour: each tells whether an address is taken. */
const INVITATIONS_PER_HOUR = 30;

export interface Deps {
  config: Readonly<Config>;
  logger: Logger;
  database: Database;
  db: Db;
  secrets: SecretBox;
  keys: KeyRing;
  tokens: TokenSettings;
  failedAttempts: AttemptLimiter;
  /** Re-sends of webhook messages per client (docs/api.md#deliveries). */
  resendLimiter: ActionLimiter;
  /** Invitations per client admin (docs/security.md#portal-accounts). */
  inviteLimiter: ActionLimiter;
  /** Portal sign-in and sessions (docs/portal.md#signing-in). */
  portalSessions: SessionDeps;
  storage: MediaStorage;
  queue: JobQueue;
  uploadQuota: UploadQuota;
  /**
   * The way out for URLs that tenants supply (media URLs, callback and webhook URLs), behind the SSRF
   * guard. Operator endpoints (SMTP, SMS provider, model server, S3) never go through it, and tenant URLs
   * never go anywhere else.
   */
  safeFetch: SafeFetch & { close(): Promise<void> };
  /** Webhook deliveries to a local listener the operator runs (`walkaround webhooks listen`, ADR 12). */
  listenerFetch: ListenerFetch & { close(): Promise<void> };
  /** Link messages (docs/messages.md#providers): e-mail and SMS providers of the configuration. */
  notifier: Notifier;
  /** Whether a live worker can take analysis work (uploads answer 503 when not). */
  analysisAvailable: () => Promise<boolean>;
  /** Unfinished resumable uploads behind links, on this process's disk. */
  captureStaging: CaptureStaging;
  /** The capture app's photo quality pre-check, on a thread of its own. */
  photoQuality: PhotoQuality;
  /** Scratch space for request bodies that are checked and dropped (quality pre-checks). */
  scratchDir: string;
  /** What this process counts for the operator, served at GET /metrics (docs/ops/metrics.md). */
  metrics: Metrics & MetricsExposition;
  now: () => number;
  close(): Promise<void>;
}

/** The job queue: graphile-worker on PostgreSQL (ADR 4), the service's own table on SQLite. */
export async function createQueue(
  base: Awaited<ReturnType<typeof buildStorageDeps>>,
  config: Readonly<Config>,
) {
  const { driver } = base.database;
  if (driver.kind === 'postgres') {
    const { createGraphileQueue } = await import('./adapters/queue/graphile-queue.js');
    return createGraphileQueue({ ...base, pool: driver.handle, deadAfterMs: config.jobLeaseMs });
  }
  return createDbQueue({ ...base, dialect: base.database.dialect, leaseMs: config.jobLeaseMs });
}

/**
 * Where unfinished capture uploads wait: in the S3 bucket when media go to S3 (any api process can resume
 * any upload), else on the local disk under DATA_DIR (shared by the api processes only if DATA_DIR is).
 */
async function createCaptureStaging(config: Readonly<Config>, logger: Logger): Promise<CaptureStaging> {
  const common = { ttlMs: UNFINISHED_CAPTURE_TTL_MS, logger };
  if (!config.s3)
    return createTusStaging({ directory: path.join(config.dataDir, 'capture-uploads'), ...common });
  const { createTusS3Staging } = await import('./adapters/storage/tus-s3-staging.js');
  return createTusS3Staging({ s3: config.s3, ...common });
}

/** Media storage of the configuration: an S3-compatible bucket, else the local disk. */
export async function createStorage(config: Readonly<Config>): Promise<MediaStorage> {
  if (!config.s3)
    return createDiskStorage({ root: path.join(config.dataDir, 'media'), modes: config.fileModes });
  const { createS3Storage } = await import('./adapters/storage/s3.js');
  return createS3Storage(config.s3);
}

/**
 * The notifier of the configuration: SMTP for e-mail, the SMS provider's HTTP API. Both are endpoints
 * the operator configured, so they are trusted (private addresses allowed, whatever
 * ALLOW_PRIVATE_NETWORKS says) and reached through the operator's fetch, never the tenant one.
 */
export function createNotifierFor(config: Readonly<Config>): Notifier {
  const { smtp, sms } = config.messages;
  const fetch = createOperatorFetch(config.outbound); // a pool: no connection until an SMS is sent
  return createNotifier({
    email:
      smtp &&
      createSmtpSender(smtp, {
        guard: operatorGuard,
        connectTimeoutMs: config.outbound.connectTimeoutMs,
        socketTimeoutMs: 30_000,
      }),
    sms: sms && (sms.provider === 'twilio' ? createTwilioSms(sms, fetch) : createJsonSms(sms, fetch)),
    close: () => fetch.close(),
  });
}

/** The Redis of scale mode (`REDIS_URL`), or undefined without one. */
export async function openRedis(config: Readonly<Config>, logger: Logger) {
  if (!config.redisUrl) return undefined;
  const redis = new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  redis.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  return redis;
}

/** The portal's sign-in limits (docs/security.md#signing-in): failures per account and per address. */
export async function createSignInLimits(store: LimiterStore): Promise<SessionDeps['signInLimits']> {
  const limiter = (scope: 'account' | 'address') =>
    createAttemptLimiter(store, {
      name: `portal_sign_in_${scope}`,
      maxFailures: SIGN_IN_FAILURES[scope],
      windowSeconds: SIGN_IN_FAILURES.windowSeconds,
    });
  return { account: await limiter('account'), address: await limiter('address') };
}

/**
 * DATA_DIR and everything in it is the service's alone by default (FILE_MODE): the database, the media,
 * the capture uploads, the secret key. A folder made with looser permissions earlier is set to them.
 */
function protectDataDir(config: Readonly<Config>): void {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: config.fileModes.dir });
  fs.chmodSync(config.dataDir, config.fileModes.dir);
}

/** Opens the database and secrets only: what the operator CLI needs. */
export async function buildStorageDeps(
  config: Readonly<Config>,
  opts: { migrate: boolean; logDestination?: DestinationStream },
) {
  const logger = createLogger(config.logLevel, opts.logDestination);
  protectDataDir(config);
  const database = openDatabase(config.database, (err) => logger.warn({ err }, 'database connection lost'));
  try {
    if (opts.migrate) await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const secrets = createSecretBox(loadMasterKey(config.secretKey, config.dataDir));
  // The tenant guard's verdict on a webhook URL an operator sets (buildDeps puts the whole fetch here).
  const safeFetch: Pick<SafeFetch, 'admit'> = createUrlAdmission(config.outbound);
  return { config, logger, database, db: database.db, secrets, safeFetch, now: Date.now };
}

/** Everything the service needs; migrates the database and makes sure a signing key exists. */
export async function buildDeps(
  config: Readonly<Config>,
  opts: { logDestination?: DestinationStream } = {},
): Promise<Deps> {
  const base = await buildStorageDeps(config, { migrate: true, ...opts });
  const redis = await openRedis(config, base.logger);
  try {
    await ensureSigningKey(base, {
      alg: config.jwtAlgorithm,
      verifyForSeconds: longestTokenLifetime(config),
    });
    const sealed = await sealLegacyOutboxTokens(base);
    if (sealed > 0) base.logger.info({ sealed }, 'sealed the link tokens of earlier outbox messages');
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
    const portalSessions: SessionDeps = {
      db: base.db,
      now: base.now,
      signInLimits: await createSignInLimits({ database: base.database, redis }),
      sessions: { idleMs: config.portalSessionIdleMs, maxMs: config.portalSessionMaxMs },
    };
    const inviteLimiter = await createActionLimiter(
      { database: base.database, redis },
      { name: 'portal_invitations', limit: INVITATIONS_PER_HOUR, windowSeconds: 3600 },
    );
    const resendLimiter = await createActionLimiter(
      { database: base.database, redis },
      { name: 'webhook_resends', limit: RESENDS_PER_MINUTE, windowSeconds: 60 },
    );
    const queue = await createQueue(base, config);
    const deps: Deps = {
      ...base,
      storage: await createStorage(config),
      queue,
      metrics: createPrometheusMetrics({
        version: VERSION,
        logger: base.logger,
        read: { queue: () => queue.stats(), outbox: () => outboxBacklog(base.db) },
        readEveryMs: config.metricsReadIntervalMs,
      }),
      uploadQuota: createUploadQuota({ database: base.database, redis }),
      safeFetch: createSafeFetch(config.outbound),
      listenerFetch: createListenerFetch(config.outbound),
      notifier: createNotifierFor(config),
      analysisAvailable: analysisAvailability(base),
      captureStaging: await createCaptureStaging(config, base.logger),
      photoQuality: createQualityPool(),
      scratchDir: path.join(config.dataDir, 'tmp'),
      keys,
      tokens: {
        issuer: 'walkaround',
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      },
      failedAttempts,
      resendLimiter,
      inviteLimiter,
      portalSessions,
      async close() {
        await deps.captureStaging.close();
        await deps.photoQuality.close();
        await deps.notifier.close();
        await deps.safeFetch.close();
        await deps.listenerFetch.close();
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
