// The only reader of process.env. Every setting is declared once in `settingsSchema` (type, default,
// description, example); the same schema validates the environment and generates
// docs/configuration.md, so the reference cannot drift from the code.
import path from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseDuration } from './domain/duration.js';

const DURATION = '^\\d+(ms|s|m|h|d)?$';
const DURATION_LIST = '^\\s*\\d+(ms|s|m|h|d)?(\\s*,\\s*\\d+(ms|s|m|h|d)?)*\\s*$';

/** Extra keys on a setting's schema: `hint` explains a bad value, `secret` keeps it out of messages. */
interface SettingMeta {
  description: string;
  examples?: string[];
  hint?: string;
  secret?: boolean;
}
const setting = <T extends TSchema>(schema: (opts: SettingMeta) => T, meta: SettingMeta): T => schema(meta);

export const settingsSchema = Type.Object({
  PORT: setting((o) => Type.Integer({ minimum: 1, maximum: 65535, default: 8080, ...o }), {
    description: 'Port of the main HTTP listener (API, link generator, docs, health).',
    examples: ['8080'],
    hint: 'an integer from 1 to 65535',
  }),
  URLGEN_PORT: Type.Optional(
    setting((o) => Type.Integer({ minimum: 1, maximum: 65535, ...o }), {
      description: 'When set, a second listener on this port serves only `POST /superappToken`.',
      examples: ['8081'],
      hint: 'an integer from 1 to 65535',
    }),
  ),
  HOST: setting((o) => Type.String({ minLength: 1, default: '0.0.0.0', ...o }), {
    description: 'Address the listeners bind to.',
    examples: ['127.0.0.1'],
  }),
  DATA_DIR: setting((o) => Type.String({ minLength: 1, default: './data', ...o }), {
    description: 'Folder for the embedded SQLite database, local media and the generated secret key.',
    examples: ['/var/lib/walkaround'],
  }),
  FILE_MODE: setting((o) => Type.String({ pattern: '^0?[67][0-7][0-7]$', default: '600', ...o }), {
    description:
      'Permissions of the files the service writes under DATA_DIR and of its SQLite database (with its WAL): octal, owner read and write at least, no execute bit; folders get the matching search bits (600 → 700, 640 → 750).',
    examples: ['600', '640'],
    hint: 'an octal mode such as 600 or 640 (owner read-write, no execute bits)',
  }),
  DATABASE_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^(sqlite:.+|postgres(ql)?://.+)$', ...o }), {
      description:
        'Database. Default: SQLite at `$DATA_DIR/walkaround.db`. `sqlite:<path>` or `postgres://user@host:5432/db`.',
      examples: ['postgres://walkaround@db:5432/walkaround', 'sqlite:./data/walkaround.db'],
      hint: 'a URL starting with sqlite: or postgres://',
      secret: true,
    }),
  ),
  PUBLIC_BASE_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$', ...o }), {
      description:
        'External address of the service, used in links and the API reference. Default: `http://localhost:$PORT`.',
      examples: ['https://inspections.example.com'],
      hint: 'an http(s) URL',
    }),
  ),
  SUPERAPP_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$', ...o }), {
      description:
        'Address of the capture app; customer links are `$SUPERAPP_URL/#<token>`. Default: `$PUBLIC_BASE_URL/app`.',
      examples: ['https://capture.example.com'],
      hint: 'an http(s) URL',
    }),
  ),
  EMBED_ORIGINS: setting(
    (o) =>
      Type.String({
        // Origins only (scheme, host, port): nothing that could end the frame-ancestors directive.
        pattern: '^\\s*(https?://[A-Za-z0-9.-]+(:\\d+)?(\\s*,\\s*https?://[A-Za-z0-9.-]+(:\\d+)?)*)?\\s*$',
        default: '',
        ...o,
      }),
    {
      description:
        'Web origins allowed to show the capture app in a frame (docs/embedding.md), comma-separated. Default: none, the app cannot be framed.',
      examples: ['https://app.example.com,https://www.example.com'],
      hint: 'comma-separated origins such as https://app.example.com',
    },
  ),
  ALLOW_PRIVATE_NETWORKS: setting((o) => Type.Boolean({ default: false, ...o }), {
    description:
      'Allow requests to URLs that clients supply (media URLs, `callback_url`, client webhook URLs) to reach private, loopback and link-local addresses. Endpoints of this configuration (mail server, SMS provider, damage model server, S3) are trusted and reached whatever this says.',
    examples: ['false'],
    hint: 'true or false',
  }),
  BODY_TIMEOUT: setting((o) => Type.String({ pattern: DURATION, default: '30s', ...o }), {
    description:
      'A request body that delivers less than 16 KiB (and does not end) in this time is answered 408 and its connection closed.',
    examples: ['30s', '2m'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  TRUST_PROXY: setting((o) => Type.Boolean({ default: false, ...o }), {
    description: 'Take the client address from `X-Forwarded-For` (set when behind a reverse proxy).',
    examples: ['true'],
    hint: 'true or false',
  }),
  SECRET_KEY: Type.Optional(
    setting((o) => Type.String({ pattern: '^[A-Za-z0-9+/_-]{43}=?$|^[0-9a-fA-F]{64}$', ...o }), {
      description:
        'Key (32 bytes, base64 or hex) that encrypts signing keys and webhook secrets at rest. Default: generated once into `$DATA_DIR/secret.key`. Set the same value on every process that shares a database.',
      examples: ['openssl rand -base64 32'],
      hint: '32 bytes as base64 (43-44 characters) or hex (64 characters)',
      secret: true,
    }),
  ),
  REFRESH_TOKEN_TTL: setting((o) => Type.String({ pattern: DURATION, default: '1h', ...o }), {
    description: 'Lifetime of the `refresh_token` (the upload credential).',
    examples: ['1h', '30m'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  ACCESS_TOKEN_TTL: setting((o) => Type.String({ pattern: DURATION, default: '24h', ...o }), {
    description: 'Lifetime of the `access_token` (renews a session once through `POST /api/refresh`).',
    examples: ['24h'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  SIGNING_KEY_CACHE_TTL: setting((o) => Type.String({ pattern: DURATION, default: '60s', ...o }), {
    description:
      'How long a process caches the JWT signing keys before reading them again (rotation reaches every process within this time).',
    examples: ['60s'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  JWT_ALGORITHM: setting(
    (o) => Type.Union([Type.Literal('ES256'), Type.Literal('EdDSA')], { default: 'ES256', ...o }),
    {
      description:
        'Signature algorithm of the session JWTs. A change starts a new signing key at the next start; tokens signed before stay valid until they expire.',
      examples: ['ES256', 'EdDSA'],
      hint: 'ES256 or EdDSA',
    },
  ),
  PORTAL_SESSION_IDLE: setting((o) => Type.String({ pattern: DURATION, default: '30m', ...o }), {
    description: 'A portal session with no request for this long ends (the user signs in again).',
    examples: ['30m', '2h'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  PORTAL_SESSION_MAX: setting((o) => Type.String({ pattern: DURATION, default: '12h', ...o }), {
    description: 'A portal session ends this long after sign-in, however active.',
    examples: ['12h', '1d'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  PORTAL_PASSWORD_LINK_TTL: setting((o) => Type.String({ pattern: DURATION, default: '72h', ...o }), {
    description:
      'How long a set-password link of the portal (an invitation, or a password reset an administrator sends) can be used.',
    examples: ['72h', '1d'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  AUTH_FAILURE_LIMIT: setting((o) => Type.Integer({ minimum: 1, default: 10, ...o }), {
    description: 'Failed authentication attempts allowed per client address per window before 429.',
    examples: ['10'],
    hint: 'a positive integer',
  }),
  AUTH_FAILURE_WINDOW: setting((o) => Type.String({ pattern: DURATION, default: '15m', ...o }), {
    description: 'Window of `AUTH_FAILURE_LIMIT`.',
    examples: ['15m'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  REDIS_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^rediss?://.+$', ...o }), {
      description:
        'When set, rate-limit counters live in Redis (shared by every api process); otherwise in the database.',
      examples: ['redis://127.0.0.1:6379'],
      hint: 'a URL starting with redis:// or rediss://',
      secret: true,
    }),
  ),
  S3_BUCKET: Type.Optional(
    setting((o) => Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', ...o }), {
      description:
        'When set, media is stored in this S3-compatible bucket instead of `$DATA_DIR/media` (scale mode).',
      examples: ['walkaround-media'],
      hint: 'an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)',
    }),
  ),
  S3_ENDPOINT: Type.Optional(
    setting((o) => Type.String({ pattern: '^https?://[^\\s]+$', ...o }), {
      description: 'Endpoint of the S3-compatible store. Default: AWS S3 of `S3_REGION`.',
      examples: ['http://minio:9000'],
      hint: 'an http(s) URL',
    }),
  ),
  S3_REGION: setting((o) => Type.String({ minLength: 1, default: 'us-east-1', ...o }), {
    description: 'Region of the bucket.',
    examples: ['eu-west-1'],
  }),
  S3_ACCESS_KEY_ID: Type.Optional(
    setting((o) => Type.String({ minLength: 1, ...o }), {
      description: "Access key id. Default: the AWS SDK's own chain (environment, instance role).",
      examples: ['AKIA…'],
      secret: true,
    }),
  ),
  S3_SECRET_ACCESS_KEY: Type.Optional(
    setting((o) => Type.String({ minLength: 1, ...o }), {
      description: 'Secret access key, with `S3_ACCESS_KEY_ID`.',
      examples: ['…'],
      secret: true,
    }),
  ),
  S3_FORCE_PATH_STYLE: setting((o) => Type.Boolean({ default: false, ...o }), {
    description: 'Address the bucket as `endpoint/bucket` (MinIO and most self-hosted stores need it).',
    examples: ['true'],
    hint: 'true or false',
  }),
  FETCH_CONNECT_TIMEOUT: setting((o) => Type.String({ pattern: DURATION, default: '5s', ...o }), {
    description: 'Connect timeout of outbound requests (media URLs, webhooks, providers).',
    examples: ['5s'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  FETCH_TIMEOUT: setting((o) => Type.String({ pattern: DURATION, default: '60s', ...o }), {
    description: 'Total time allowed to fetch one media URL, body included.',
    examples: ['60s'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  FETCH_CONCURRENCY: setting((o) => Type.Integer({ minimum: 1, maximum: 64, default: 8, ...o }), {
    description: 'Media URLs of one upload fetched at the same time.',
    examples: ['8'],
    hint: 'an integer from 1 to 64',
  }),
  FETCH_MAX_REDIRECTS: setting((o) => Type.Integer({ minimum: 0, maximum: 20, default: 5, ...o }), {
    description:
      'Redirects followed per outbound request (media URLs, providers); each target is checked again. Webhook deliveries follow none.',
    examples: ['5'],
    hint: 'an integer from 0 to 20',
  }),
  DAMAGE_MODEL_PATH: Type.Optional(
    setting((o) => Type.String({ minLength: 1, ...o }), {
      description:
        'Local ONNX damage model (YOLO-style detection output). With `DAMAGE_LABELS_PATH`. Unset: no local model.',
      examples: ['/models/damage.onnx'],
    }),
  ),
  DAMAGE_LABELS_PATH: Type.Optional(
    setting((o) => Type.String({ minLength: 1, ...o }), {
      description: 'Labels of the damage model, one per line, in class order (`part:type` or `type`).',
      examples: ['/models/damage.labels'],
    }),
  ),
  DAMAGE_KSERVE_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^https?://[^\\s]+$', ...o }), {
      description:
        'Remote damage model on an Open Inference Protocol (KServe v2 / Triton HTTP) server, for example `http://triton:8000`.',
      examples: ['http://triton:8000'],
      hint: 'an http(s) URL',
    }),
  ),
  DAMAGE_KSERVE_MODEL: setting((o) => Type.String({ minLength: 1, default: 'damage', ...o }), {
    description: 'Model name on the KServe v2 server.',
    examples: ['damage'],
  }),
  DAMAGE_MIN_CONFIDENCE: setting((o) => Type.Number({ minimum: 0, maximum: 1, default: 0.35, ...o }), {
    description: 'Damage detections below this confidence are dropped.',
    examples: ['0.35'],
    hint: 'a number from 0 to 1',
  }),
  JOB_LEASE: setting((o) => Type.String({ pattern: DURATION, default: '30s', ...o }), {
    description:
      'How long a worker holds a job without renewing its claim; a job of a worker that died runs again after this.',
    examples: ['30s'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  ANALYSIS_THREADS: Type.Optional(
    setting((o) => Type.Integer({ minimum: 1, maximum: 64, ...o }), {
      description:
        'Threads one worker process analyses media on, each with its own copy of the models (300–400 MB), loaded on its first photo and kept. Default: one per CPU core, at most 4.',
      examples: ['2'],
      hint: 'an integer from 1 to 64',
    }),
  ),
  WORKER_CONCURRENCY: setting((o) => Type.Integer({ minimum: 1, maximum: 64, default: 2, ...o }), {
    description: 'Inspections one worker process analyses at the same time.',
    examples: ['2'],
    hint: 'an integer from 1 to 64',
  }),
  MESSAGE_CONCURRENCY: setting((o) => Type.Integer({ minimum: 1, maximum: 256, default: 16, ...o }), {
    description:
      'Webhook deliveries, link messages and link expiries one worker process runs at the same time, on a lane of their own that never waits behind analysis.',
    examples: ['16'],
    hint: 'an integer from 1 to 256',
  }),
  METRICS_READ_INTERVAL: setting((o) => Type.String({ pattern: DURATION, default: '10s', ...o }), {
    description:
      'How often a scrape of `/metrics` may read the job queue and the outbox from the database; scrapes in between answer the last reading (docs/ops/metrics.md).',
    examples: ['30s'],
    hint: 'a duration such as 3600, 90s, 30m, 1h or 2d',
  }),
  WEBHOOK_RETRY_SCHEDULE: setting(
    (o) =>
      Type.String({
        pattern: DURATION_LIST,
        default: '5s,5m,30m,2h,5h,10h,10h',
        ...o,
      }),
    {
      description:
        'Waits before each retry of a webhook delivery that failed; after the last, the message is marked failed.',
      examples: ['5s,5m,30m,2h,5h,10h,10h'],
      hint: 'comma-separated durations such as 5s,5m,30m',
    },
  ),
  SMTP_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^smtps?://[^\\s/?#]+/?$', ...o }), {
      description:
        'Mail server for link e-mails: `smtp://` (STARTTLS, port 587; see SMTP_REQUIRE_TLS) or `smtps://` (TLS from the start, port 465), with optional `user:password@`. Unset: e-mails stay in the outbox (`held`).',
      examples: ['smtps://mailer:password@mail.example.com:465', 'smtp://relay.internal:25'],
      hint: 'a URL such as smtp://user:password@mail.example.com:587 or smtps://mail.example.com:465',
      secret: true,
    }),
  ),
  SMTP_REQUIRE_TLS: setting((o) => Type.Boolean({ default: true, ...o }), {
    description:
      'With `smtp://`, refuse to send unless the server upgrades the connection with STARTTLS (so the password and the links never travel in clear). Set to false only for a relay on a trusted network.',
    examples: ['true'],
    hint: 'true or false',
  }),
  SMTP_FROM: setting(
    (o) =>
      Type.String({ pattern: '^[^\\r\\n]*@[^\\r\\n]+$', default: 'Walkaround <no-reply@localhost>', ...o }),
    {
      description: 'Sender of link e-mails.',
      examples: ['Acme Inspections <inspections@example.com>'],
      hint: 'an address such as Walkaround <no-reply@example.com>',
    },
  ),
  SMS_PROVIDER: Type.Optional(
    setting((o) => Type.Union([Type.Literal('twilio'), Type.Literal('json')], o), {
      description:
        'HTTP provider of link SMS: `twilio` (the Twilio Messages API or a compatible one) or `json` (a generic JSON webhook, `SMS_URL`). Unset: SMS stay in the outbox (`held`).',
      examples: ['twilio', 'json'],
      hint: 'twilio or json',
    }),
  ),
  SMS_URL: Type.Optional(
    setting((o) => Type.String({ pattern: '^https?://[^\\s]+$', ...o }), {
      description:
        'With `SMS_PROVIDER=twilio`: base URL of the API (default `https://api.twilio.com`). With `json` (required): the endpoint each SMS is POSTed to.',
      examples: ['https://api.twilio.com', 'https://sms.example.com/send'],
      hint: 'an http(s) URL',
    }),
  ),
  SMS_ACCOUNT_SID: Type.Optional(
    setting((o) => Type.String({ pattern: '^[^\\s/?#]+$', ...o }), {
      description: 'Account id of the SMS provider (required with `twilio`; the user of HTTP basic auth).',
      examples: ['AC0123456789abcdef0123456789abcdef'],
      hint: 'an account id without spaces or slashes',
    }),
  ),
  SMS_AUTH_TOKEN: Type.Optional(
    setting((o) => Type.String({ minLength: 1, ...o }), {
      description:
        'Secret of the SMS provider: the basic-auth password with `twilio` (required), a bearer token with `json` (optional).',
      examples: ['…'],
      secret: true,
    }),
  ),
  SMS_FROM: Type.Optional(
    setting((o) => Type.String({ pattern: '^[^\\r\\n]+$', ...o }), {
      description:
        'Sender of link SMS: a phone number in E.164 form or an alphanumeric sender id (required with `twilio`).',
      examples: ['+15005550006', 'Acme'],
      hint: 'a phone number such as +15005550006 or a sender id',
    }),
  ),
  MESSAGE_RETRY_SCHEDULE: setting(
    (o) => Type.String({ pattern: DURATION_LIST, default: '30s,2m,10m,1h,6h', ...o }),
    {
      description:
        'Waits before each retry of a link message (e-mail or SMS) that failed; after the last, the message is marked failed.',
      examples: ['30s,2m,10m,1h,6h'],
      hint: 'comma-separated durations such as 30s,2m,10m',
    },
  ),
  RESPONSE_CONTRACT: setting(
    (o) =>
      Type.Union([Type.Literal('off'), Type.Literal('log'), Type.Literal('enforce')], {
        default: 'off',
        ...o,
      }),
    {
      description:
        'Check every API answer against the OpenAPI document (`/openapi.json`): its status must be declared for the operation, and its JSON body must match that response exactly, with no field the document does not name. `log` logs each mismatch as an error; `enforce` also answers 500 in its place (what the test suite runs with). For development and tests; `off` costs nothing.',
      examples: ['enforce'],
      hint: 'off, log or enforce',
    },
  ),
  LOG_LEVEL: setting(
    (o) =>
      Type.Union(
        ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
        { default: 'info', ...o },
      ),
    {
      description: 'Log level of the structured (JSON) logs.',
      examples: ['info'],
      hint: 'one of fatal, error, warn, info, debug, trace, silent',
    },
  ),
});

type Settings = Static<typeof settingsSchema>;

/** Permissions of what the service writes on disk: files, and the folders holding them. */
export interface FileModes {
  file: number;
  dir: number;
}

export type DatabaseTarget =
  { kind: 'sqlite'; file: string; modes: FileModes } | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  urlgenPort: number | undefined;
  host: string;
  dataDir: string;
  /** FILE_MODE: what the service writes under DATA_DIR, and the SQLite database. */
  fileModes: FileModes;
  database: DatabaseTarget;
  publicBaseUrl: string;
  superappUrl: string;
  /** Origins whose pages may frame the capture app (`frame-ancestors`); empty: none may. */
  embedOrigins: string[];
  trustProxy: boolean;
  /** Each window of this length must bring 16 KiB of a request body, or its end. */
  bodyTimeoutMs: number;
  /** Explicit master key; undefined means "the one in $DATA_DIR/secret.key". */
  secretKey: Buffer | undefined;
  refreshTokenTtlSeconds: number;
  accessTokenTtlSeconds: number;
  signingKeyCacheMs: number;
  jwtAlgorithm: 'ES256' | 'EdDSA';
  portalSessionIdleMs: number;
  portalSessionMaxMs: number;
  /** How long an invitation or reset link of the portal can be used (PORTAL_PASSWORD_LINK_TTL). */
  portalPasswordLinkMs: number;
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  redisUrl: string | undefined;
  /** Object storage; undefined means the local disk under `$DATA_DIR/media`. */
  s3: S3Settings | undefined;
  outbound: OutboundSettings;
  damageModel: DamageModelSettings;
  jobLeaseMs: number;
  /** Seconds before each webhook retry. */
  webhookRetrySchedule: number[];
  /** Link messages (docs/messages.md): e-mail and SMS providers, each optional, and their retry schedule. */
  messages: MessageSettings;
  /** Analysis threads of one worker process (ANALYSIS_THREADS); undefined: the pool's default. */
  analysisThreads: number | undefined;
  workerConcurrency: number;
  messageConcurrency: number;
  /** How often a scrape may read the database gauges (METRICS_READ_INTERVAL). */
  metricsReadIntervalMs: number;
  logLevel: Settings['LOG_LEVEL'];
  responseContract: Settings['RESPONSE_CONTRACT'];
}

export interface S3Settings {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

/** Limits of every outbound request (safe-fetch). */
export interface OutboundSettings {
  allowPrivateNetworks: boolean;
  connectTimeoutMs: number;
  timeoutMs: number;
  concurrency: number;
  maxRedirects: number;
}

export interface MessageSettings {
  /** Undefined: no mail server; e-mails are held in the outbox. */
  smtp: SmtpSettings | undefined;
  /** Undefined: no SMS provider; SMS are held in the outbox. */
  sms: SmsSettings | undefined;
  /** Seconds before each retry of a message that failed. */
  retrySchedule: number[];
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the start (smtps://); otherwise STARTTLS, required unless `requireTls` is false. */
  secure: boolean;
  requireTls: boolean;
  auth: { user: string; pass: string } | undefined;
  from: string;
}

export type SmsSettings =
  | { provider: 'twilio'; url: string; accountSid: string; authToken: string; from: string }
  | { provider: 'json'; url: string; authToken: string | undefined; from: string | undefined };

/**
 * Where damage detection comes from: a local ONNX file, a KServe v2 server, or nothing
 * (docs/result.md#what-it-holds; the settings are in docs/configuration.md).
 */
export type DamageModelSettings = (
  | { kind: 'onnx'; modelPath: string; labelsPath: string }
  | { kind: 'kserve'; url: string; model: string }
  | { kind: 'none' }
) & { minConfidence: number };

/**
 * Every bad setting found by `loadConfig`, one line each in `problems`. With one problem the message is
 * that line; with several, a heading followed by one indented line per problem.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: string[];

  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : [...problems];
    super(
      list.length === 1
        ? list[0]
        : [`${list.length} settings are invalid:`, ...list.map((p) => `  ${p}`)].join('\n'),
    );
    this.problems = list;
  }
}

type Env = Record<string, string | undefined>;

const SETTING_NAMES = Object.keys(settingsSchema.properties);

/**
 * Collects the problems of one `loadConfig` pass instead of stopping at the first. It keeps one problem
 * per setting (the first reported), so a value the schema refused is not reported again by a derived
 * check, and lists them in the order of the schema.
 */
class Problems {
  readonly #byName = new Map<string, string>();

  report(name: string, message: string): void {
    if (!this.#byName.has(name)) this.#byName.set(name, message);
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  throwIfAny(): void {
    if (this.#byName.size === 0) return;
    const order = (name: string) => SETTING_NAMES.indexOf(name);
    const sorted = [...this.#byName].sort(([a], [b]) => order(a) - order(b));
    throw new ConfigError(sorted.map(([, message]) => message));
  }
}

/** Applies the defaults and converts the text values to the schema's types; the result is not yet checked. */
const convert = (raw: Record<string, string>): unknown =>
  Value.Convert(settingsSchema, Value.Default(settingsSchema, { ...raw }));

/**
 * Reads the settings from `env`, validates them and returns a frozen Config, or throws one ConfigError
 * naming every bad setting.
 */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const raw: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const value = env[name]?.trim();
    if (value) raw[name] = value;
  }
  const problems = new Problems();
  for (const error of Value.Errors(settingsSchema, convert(raw))) {
    const name = error.path.split('/')[1] ?? error.path;
    problems.report(name, describeError(name, raw));
  }
  // The derived checks below see the settings the schema refused as unset (or at their default), so
  // each bad value is reported once and the other settings are still checked.
  const valid = Object.fromEntries(Object.entries(raw).filter(([name]) => !problems.has(name)));
  const s = convert(valid) as Settings;

  const port = s.PORT;
  const modes = fileModes(s.FILE_MODE, problems);
  const publicBaseUrl = stripSlash(s.PUBLIC_BASE_URL ?? `http://localhost:${port}`);
  const config: Config = {
    port,
    urlgenPort: s.URLGEN_PORT,
    host: s.HOST,
    dataDir: path.resolve(s.DATA_DIR),
    fileModes: modes,
    database: databaseTarget(s.DATABASE_URL, s.DATA_DIR, modes),
    publicBaseUrl,
    superappUrl: stripSlash(s.SUPERAPP_URL ?? `${publicBaseUrl}/app`),
    embedOrigins: s.EMBED_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    trustProxy: s.TRUST_PROXY,
    bodyTimeoutMs: durationSeconds('BODY_TIMEOUT', s.BODY_TIMEOUT, problems) * 1000,
    secretKey: s.SECRET_KEY === undefined ? undefined : decodeSecretKey(s.SECRET_KEY, problems),
    refreshTokenTtlSeconds: durationSeconds('REFRESH_TOKEN_TTL', s.REFRESH_TOKEN_TTL, problems),
    accessTokenTtlSeconds: durationSeconds('ACCESS_TOKEN_TTL', s.ACCESS_TOKEN_TTL, problems),
    signingKeyCacheMs: durationSeconds('SIGNING_KEY_CACHE_TTL', s.SIGNING_KEY_CACHE_TTL, problems) * 1000,
    jwtAlgorithm: s.JWT_ALGORITHM,
    portalSessionIdleMs: durationSeconds('PORTAL_SESSION_IDLE', s.PORTAL_SESSION_IDLE, problems) * 1000,
    portalSessionMaxMs: durationSeconds('PORTAL_SESSION_MAX', s.PORTAL_SESSION_MAX, problems) * 1000,
    portalPasswordLinkMs:
      durationSeconds('PORTAL_PASSWORD_LINK_TTL', s.PORTAL_PASSWORD_LINK_TTL, problems) * 1000,
    authFailureLimit: s.AUTH_FAILURE_LIMIT,
    authFailureWindowSeconds: durationSeconds('AUTH_FAILURE_WINDOW', s.AUTH_FAILURE_WINDOW, problems),
    redisUrl: s.REDIS_URL,
    s3: s3Settings(s, problems),
    damageModel: damageModelSettings(s, problems),
    jobLeaseMs: durationSeconds('JOB_LEASE', s.JOB_LEASE, problems) * 1000,
    webhookRetrySchedule: durationList('WEBHOOK_RETRY_SCHEDULE', s.WEBHOOK_RETRY_SCHEDULE, problems),
    messages: {
      smtp: smtpSettings(s, problems),
      sms: smsSettings(s, problems),
      retrySchedule: durationList('MESSAGE_RETRY_SCHEDULE', s.MESSAGE_RETRY_SCHEDULE, problems),
    },
    analysisThreads: s.ANALYSIS_THREADS,
    workerConcurrency: s.WORKER_CONCURRENCY,
    messageConcurrency: s.MESSAGE_CONCURRENCY,
    metricsReadIntervalMs: durationSeconds('METRICS_READ_INTERVAL', s.METRICS_READ_INTERVAL, problems) * 1000,
    outbound: {
      allowPrivateNetworks: s.ALLOW_PRIVATE_NETWORKS,
      connectTimeoutMs: durationSeconds('FETCH_CONNECT_TIMEOUT', s.FETCH_CONNECT_TIMEOUT, problems) * 1000,
      timeoutMs: durationSeconds('FETCH_TIMEOUT', s.FETCH_TIMEOUT, problems) * 1000,
      concurrency: s.FETCH_CONCURRENCY,
      maxRedirects: s.FETCH_MAX_REDIRECTS,
    },
    logLevel: s.LOG_LEVEL,
    responseContract: s.RESPONSE_CONTRACT,
  };
  problems.throwIfAny();
  return Object.freeze(config);
}

function describeError(name: string, raw: Record<string, string>): string {
  const meta = (settingsSchema.properties as Record<string, TSchema & Partial<SettingMeta>>)[name];
  const shown = meta?.secret ? '(hidden)' : JSON.stringify(raw[name] ?? '');
  const expected = meta?.hint ?? 'a valid value';
  return `Invalid setting ${name}=${shown}: expected ${expected}.`;
}

function databaseTarget(url: string | undefined, dataDir: string, modes: FileModes): DatabaseTarget {
  if (url === undefined) return { kind: 'sqlite', file: path.resolve(dataDir, 'walkaround.db'), modes };
  if (url.startsWith('sqlite:'))
    return { kind: 'sqlite', file: path.resolve(url.slice('sqlite:'.length)), modes };
  return { kind: 'postgres', url };
}

/** FILE_MODE as modes: folders get a search bit wherever the file mode has a read bit. */
function fileModes(text: string, problems: Problems): FileModes {
  const file = Number.parseInt(text, 8);
  if (!Number.isInteger(file) || (file & 0o111) !== 0 || (file & 0o600) !== 0o600) {
    problems.report(
      'FILE_MODE',
      `Invalid setting FILE_MODE=${JSON.stringify(text)}: expected an octal mode such as 600 or 640 (owner read-write, no execute bits).`,
    );
    return { file: 0o600, dir: 0o700 };
  }
  return { file, dir: file | ((file & 0o444) >> 2) };
}

function s3Settings(s: Settings, problems: Problems): S3Settings | undefined {
  if (s.S3_BUCKET === undefined) return undefined;
  if ((s.S3_ACCESS_KEY_ID === undefined) !== (s.S3_SECRET_ACCESS_KEY === undefined))
    problems.report(
      'S3_SECRET_ACCESS_KEY',
      'Invalid setting S3_SECRET_ACCESS_KEY=(hidden): S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together.',
    );
  return {
    bucket: s.S3_BUCKET,
    endpoint: s.S3_ENDPOINT,
    region: s.S3_REGION,
    credentials:
      s.S3_ACCESS_KEY_ID && s.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: s.S3_ACCESS_KEY_ID, secretAccessKey: s.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: s.S3_FORCE_PATH_STYLE,
  };
}

function damageModelSettings(s: Settings, problems: Problems): DamageModelSettings {
  const minConfidence = s.DAMAGE_MIN_CONFIDENCE;
  if (s.DAMAGE_MODEL_PATH !== undefined && s.DAMAGE_KSERVE_URL !== undefined)
    problems.report(
      'DAMAGE_KSERVE_URL',
      'Invalid setting DAMAGE_KSERVE_URL: set either DAMAGE_MODEL_PATH (local ONNX) or DAMAGE_KSERVE_URL, not both.',
    );
  if (s.DAMAGE_MODEL_PATH !== undefined) {
    if (s.DAMAGE_LABELS_PATH === undefined) {
      problems.report(
        'DAMAGE_LABELS_PATH',
        'Invalid setting DAMAGE_LABELS_PATH: required with DAMAGE_MODEL_PATH.',
      );
      return { kind: 'none', minConfidence };
    }
    return { kind: 'onnx', modelPath: s.DAMAGE_MODEL_PATH, labelsPath: s.DAMAGE_LABELS_PATH, minConfidence };
  }
  if (s.DAMAGE_KSERVE_URL !== undefined)
    return {
      kind: 'kserve',
      url: s.DAMAGE_KSERVE_URL.replace(/\/+$/, ''),
      model: s.DAMAGE_KSERVE_MODEL,
      minConfidence,
    };
  return { kind: 'none', minConfidence };
}

function smtpSettings(s: Settings, problems: Problems): SmtpSettings | undefined {
  if (s.SMTP_URL === undefined) return undefined;
  const url = parseUrl('SMTP_URL', s.SMTP_URL, problems);
  if (url === undefined) return undefined;
  const secure = url.protocol === 'smtps:';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!hostname) {
    problems.report('SMTP_URL', 'Invalid setting SMTP_URL=(hidden): expected a host name.');
    return undefined;
  }
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  return {
    host: hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTls: s.SMTP_REQUIRE_TLS,
    auth: user || pass ? { user, pass } : undefined,
    from: s.SMTP_FROM,
  };
}

const SMS_SETTINGS = ['SMS_URL', 'SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const;
const TWILIO_REQUIRED = ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const;

function smsSettings(s: Settings, problems: Problems): SmsSettings | undefined {
  if (s.SMS_PROVIDER === undefined) {
    const stray = SMS_SETTINGS.find((name) => s[name] !== undefined);
    if (stray)
      problems.report(
        'SMS_PROVIDER',
        `Invalid setting SMS_PROVIDER: required with ${stray} (twilio or json).`,
      );
    return undefined;
  }
  if (s.SMS_URL !== undefined) {
    const url = parseUrl('SMS_URL', s.SMS_URL, problems);
    // safe-fetch refuses credentials in URLs; they belong in their own (secret) settings.
    if (url?.username || url?.password)
      problems.report(
        'SMS_URL',
        'Invalid setting SMS_URL=(hidden): credentials go in SMS_ACCOUNT_SID and SMS_AUTH_TOKEN, not in the URL.',
      );
  }
  if (s.SMS_PROVIDER === 'json') {
    if (s.SMS_URL === undefined) {
      problems.report(
        'SMS_URL',
        'Invalid setting SMS_URL: required with SMS_PROVIDER=json (the endpoint SMS are POSTed to).',
      );
      return undefined;
    }
    return { provider: 'json', url: s.SMS_URL, authToken: s.SMS_AUTH_TOKEN, from: s.SMS_FROM };
  }
  const { SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken, SMS_FROM: from } = s;
  if (accountSid === undefined || authToken === undefined || from === undefined) {
    for (const name of TWILIO_REQUIRED)
      if (s[name] === undefined)
        problems.report(name, `Invalid setting ${name}: required with SMS_PROVIDER=twilio.`);
    return undefined;
  }
  return {
    provider: 'twilio',
    url: stripSlash(s.SMS_URL ?? 'https://api.twilio.com'),
    accountSid,
    authToken,
    from,
  };
}

/**
 * Parses a URL setting the schema has let through; its value may hold credentials, so it is never shown.
 * Undefined (and a problem reported) when it is not a URL after all.
 */
function parseUrl(name: string, text: string, problems: Problems): URL | undefined {
  try {
    return new URL(text);
  } catch {
    problems.report(name, `Invalid setting ${name}=(hidden): not a valid URL.`);
    return undefined;
  }
}

function decodeSecretKey(text: string, problems: Problems): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length === 32) return key;
  problems.report('SECRET_KEY', 'Invalid setting SECRET_KEY=(hidden): expected 32 bytes.');
  return undefined;
}

function durationSeconds(name: string, text: string, problems: Problems): number {
  const seconds = parseDuration(text);
  if (seconds <= 0)
    problems.report(name, `Invalid setting ${name}=${JSON.stringify(text)}: expected a positive duration.`);
  return seconds;
}

/** A comma-separated list of durations (a retry schedule), in seconds; only its first bad one is reported. */
function durationList(name: string, text: string, problems: Problems): number[] {
  return text.split(',').map((d) => durationSeconds(name, d.trim(), problems));
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');
