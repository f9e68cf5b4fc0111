// Operator use cases on clients: create, update, list, revoke and rotate keys.
import crypto from 'node:crypto';
import { AppError } from '../../domain/errors.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { type ClientRow, type Db, inTransaction } from '../../ports/database.js';
import { WEBHOOK_SECRET_PREFIX } from '../../domain/secret-formats.js';
import { isTimeZone, parseServiceWindow } from '../../domain/service-window.js';
import { EVENT_TYPES, isEventType } from '../../domain/webhooks.js';
import type { SafeFetch } from '../../ports/outbound-fetch.js';
import { issueApiKey } from '../api-keys.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit.js';
import { admitWebhookUrl, isPrivateRefusal } from '../webhooks/targets.js';

export const CLIENT_DEFAULTS = {
  quotaPerHour: 1000,
  timezone: 'UTC',
  linkTtlSeconds: 72 * 3600,
} as const;

export interface ClientSettings {
  name?: string;
  webhookUrl?: string | null;
  quotaPerHour?: number;
  serviceWindow?: string | null;
  timezone?: string;
  linkTtlSeconds?: number;
  /** Event types the client's webhook receives; null or absent means all. */
  webhookEvents?: string[] | null;
  /** Compare a new inspection of a known vehicle with its latest (docs/vehicles.md); on by default. */
  autoCompare?: boolean;
}

export interface CreatedClient {
  client: ClientRow;
  apiKey: string;
  webhookSecret: string;
}

export interface ClientDeps {
  db: Db;
  secrets: SecretBox;
  now: () => number;
}
type Deps = ClientDeps;

/** Changing settings also needs the tenant fetch, whose guard judges a webhook URL when it is given. */
export type SettingDeps = Deps & { safeFetch: Pick<SafeFetch, 'admit'> };

/** A client's settings as the audit log records them (its secrets are never among them). */
export const clientSettingsOf = (row: ClientRow) => ({
  name: row.name,
  webhook_url: row.webhook_url,
  webhook_events: row.webhook_events === null ? null : (JSON.parse(row.webhook_events) as string[]),
  quota_per_hour: row.quota_per_hour,
  service_window: row.service_window,
  timezone: row.timezone,
  link_ttl_seconds: row.link_ttl_seconds,
  auto_compare: row.auto_compare === 1,
});

const clientObject = (id: string) => ({ type: 'client', id });

export async function createClient(
  deps: SettingDeps,
  input: ClientSettings & { name: string },
  by: AuditActor = SYSTEM_ACTOR,
): Promise<CreatedClient> {
  const settings = checkSettings(input);
  await admitWebhookTarget(deps, undefined, settings.webhookUrl);
  const now = deps.now();
  const webhookSecret = newWebhookSecret();
  const client: ClientRow = {
    id: crypto.randomUUID(),
    name: input.name,
    webhook_url: settings.webhookUrl ?? null,
    webhook_secret_enc: deps.secrets.seal(webhookSecret),
    quota_per_hour: settings.quotaPerHour ?? CLIENT_DEFAULTS.quotaPerHour,
    service_window: settings.serviceWindow ?? null,
    timezone: settings.timezone ?? CLIENT_DEFAULTS.timezone,
    link_ttl_seconds: settings.linkTtlSeconds ?? CLIENT_DEFAULTS.linkTtlSeconds,
    webhook_events: settings.webhookEvents ? JSON.stringify(settings.webhookEvents) : null,
    webhook_secret_previous_enc: null,
    webhook_secret_previous_until: null,
    auto_compare: settings.autoCompare === false ? 0 : 1,
    rate_card: null,
    rate_card_version: 0,
    created_at: now,
    updated_at: now,
  };
  const apiKey = await inTransaction(deps.db, async (trx) => {
    await trx.insertInto('clients').values(client).execute();
    const issued = await issueApiKey(trx, client.id, now);
    await recordAudit(trx, now, {
      actor: by,
      action: 'client.create',
      object: clientObject(client.id),
      clientId: client.id,
      after: { ...clientSettingsOf(client), api_key_prefix: issued.row.prefix },
    });
    return issued.key;
  });
  return { client, apiKey, webhookSecret };
}

export async function updateClient(
  deps: SettingDeps,
  id: string,
  input: ClientSettings,
  by: AuditActor,
): Promise<ClientRow> {
  const settings = checkSettings(input);
  await admitWebhookTarget(deps, id, settings.webhookUrl);
  const patch = {
    ...(settings.name !== undefined && { name: settings.name }),
    ...(settings.webhookUrl !== undefined && { webhook_url: settings.webhookUrl }),
    ...(settings.quotaPerHour !== undefined && { quota_per_hour: settings.quotaPerHour }),
    ...(settings.serviceWindow !== undefined && { service_window: settings.serviceWindow }),
    ...(settings.timezone !== undefined && { timezone: settings.timezone }),
    ...(settings.linkTtlSeconds !== undefined && { link_ttl_seconds: settings.linkTtlSeconds }),
    ...(settings.autoCompare !== undefined && { auto_compare: settings.autoCompare ? 1 : 0 }),
    ...(settings.webhookEvents !== undefined && {
      webhook_events: settings.webhookEvents === null ? null : JSON.stringify(settings.webhookEvents),
    }),
  };
  return inTransaction(deps.db, async (trx) => {
    const before = await trx.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw new AppError('CLIENT_NOT_FOUND', { params: { id: id } });
    const now = deps.now();
    const row = await trx
      .updateTable('clients')
      .set({ ...patch, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, now, {
      actor: by,
      action: 'client.update',
      object: clientObject(id),
      clientId: id,
      before: clientSettingsOf(before),
      after: clientSettingsOf(row),
    });
    return row;
  });
}

export interface ClientListing extends ClientRow {
  keys: { prefix: string; created_at: number; expires_at: number | null; last_used_at: number | null }[];
}

/** Every client with its live keys (prefixes only; keys are never shown again). */
export async function listClients(deps: Pick<Deps, 'db' | 'now'>): Promise<ClientListing[]> {
  const clients = await deps.db.selectFrom('clients').selectAll().orderBy('created_at').execute();
  const keys = await deps.db
    .selectFrom('api_keys')
    .select(['client_id', 'prefix', 'created_at', 'expires_at', 'last_used_at'])
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', deps.now())]))
    .orderBy('created_at')
    .execute();
  return clients.map((c) => ({
    ...c,
    keys: keys.filter((k) => k.client_id === c.id).map(({ client_id: _id, ...k }) => k),
  }));
}

/** Revokes the client's live keys, or only the one whose prefix is given. Returns how many. */
export async function revokeKeys(
  deps: Pick<Deps, 'db' | 'now'>,
  clientId: string,
  prefix: string | undefined,
  by: AuditActor,
): Promise<number> {
  await requireClient(deps.db, clientId);
  const now = deps.now();
  return inTransaction(deps.db, async (trx) => {
    let query = trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    if (prefix !== undefined) query = query.where('prefix', '=', prefix);
    const revoked = await query.returning('prefix').execute();
    if (revoked.length === 0 && prefix !== undefined)
      throw new AppError('API_KEY_PREFIX_NOT_FOUND', { params: { prefix } });
    if (revoked.length > 0)
      await recordAudit(trx, now, {
        actor: by,
        action: 'api_key.revoke',
        object: clientObject(clientId),
        clientId,
        after: { revoked_prefixes: revoked.map((key) => key.prefix) },
      });
    return revoked.length;
  });
}

/** Live keys a client may hold at once: enough for one per system and a rotation, few enough to review. */
export const MAX_LIVE_KEYS = 10;

/**
 * Refuses (API_KEYS_TOO_MANY) when `adding` keys would leave the client more than MAX_LIVE_KEYS live
 * ones. The client's row is written first, in the caller's transaction: concurrent changes of the same
 * client's keys take turns (a row lock on PostgreSQL, the write lock on SQLite), so two at once cannot
 * both pass the count.
 */
async function refusePastKeyCap(trx: Db, clientId: string, now: number, adding: number): Promise<void> {
  await trx.updateTable('clients').set({ id: clientId }).where('id', '=', clientId).execute();
  const live = await trx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  if (Number(live.count) + adding > MAX_LIVE_KEYS)
    throw new AppError('API_KEYS_TOO_MANY', { params: { max: String(MAX_LIVE_KEYS) } });
}

/**
 * Issues one more key, leaving the client's others as they are (a second system of the client gets its
 * own key, which can be revoked alone). Returns the key, the only time it exists in clear.
 */
export async function createKey(
  deps: Pick<Deps, 'db' | 'now'>,
  clientId: string,
  by: AuditActor,
): Promise<{ key: string; prefix: string }> {
  await requireClient(deps.db, clientId);
  const now = deps.now();
  return inTransaction(deps.db, async (trx) => {
    await refusePastKeyCap(trx, clientId, now, 1);
    const issued = await issueApiKey(trx, clientId, now);
    await recordAudit(trx, now, {
      actor: by,
      action: 'api_key.create',
      object: clientObject(clientId),
      clientId,
      after: { new_prefix: issued.row.prefix },
    });
    return { key: issued.key, prefix: issued.row.prefix };
  });
}

/**
 * Issues a new key; the client's other live keys keep working for `graceSeconds` (0: stop now), so an
 * integrator can switch without downtime.
 */
export async function rotateKey(
  deps: Pick<Deps, 'db' | 'now'>,
  clientId: string,
  graceSeconds: number,
  by: AuditActor,
): Promise<string> {
  await requireClient(deps.db, clientId);
  const now = deps.now();
  const until = now + graceSeconds * 1000;
  return inTransaction(deps.db, async (trx) => {
    // With a grace period the others stay live beside the new key until it ends: they count.
    if (graceSeconds > 0) await refusePastKeyCap(trx, clientId, now, 1);
    await trx
      .updateTable('api_keys')
      .set({ expires_at: until })
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', until)]))
      .execute();
    const issued = await issueApiKey(trx, clientId, now);
    await recordAudit(trx, now, {
      actor: by,
      action: 'api_key.rotate',
      object: clientObject(clientId),
      clientId,
      after: { new_prefix: issued.row.prefix, others_expire_at: new Date(until).toISOString() },
    });
    return issued.key;
  });
}

/**
 * A new webhook secret (shown once); deliveries are signed with both the new and the old secret for the
 * grace period, so receivers can switch over without rejecting a message.
 */
export async function rotateWebhookSecret(
  deps: Deps,
  clientId: string,
  graceSeconds: number,
  by: AuditActor,
): Promise<string> {
  const client = await deps.db
    .selectFrom('clients')
    .select('webhook_secret_enc')
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!client) throw new AppError('CLIENT_NOT_FOUND', { params: { id: clientId } });
  const secret = newWebhookSecret();
  const now = deps.now();
  const graceUntil = graceSeconds > 0 ? now + graceSeconds * 1000 : null;
  await inTransaction(deps.db, async (trx) => {
    await trx
      .updateTable('clients')
      .set({
        webhook_secret_enc: deps.secrets.seal(secret),
        webhook_secret_previous_enc: graceUntil === null ? null : client.webhook_secret_enc,
        webhook_secret_previous_until: graceUntil,
        updated_at: now,
      })
      .where('id', '=', clientId)
      .execute();
    await recordAudit(trx, now, {
      actor: by,
      action: 'webhook_secret.rotate',
      object: clientObject(clientId),
      clientId,
      after: { previous_signs_until: graceUntil === null ? null : new Date(graceUntil).toISOString() },
    });
  });
  return secret;
}

const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + crypto.randomBytes(24).toString('base64');

async function requireClient(db: Db, id: string): Promise<void> {
  const found = await db.selectFrom('clients').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw new AppError('CLIENT_NOT_FOUND', { params: { id: id } });
}

const invalid = (reason: string) => new AppError('CLIENT_INVALID', { params: { reason } });

/**
 * A webhook URL its deliveries could not reach is refused now, not at its first delivery (ADR 12): the
 * tenant guard's verdict, or a live local listener of the client (an update only: a new client has none).
 */
async function admitWebhookTarget(
  deps: SettingDeps,
  clientId: string | undefined,
  url: string | null | undefined,
): Promise<void> {
  if (!url) return;
  await admitWebhookUrl(deps, clientId, url).catch((error: unknown) => {
    if (!isPrivateRefusal(error)) throw error;
    throw invalid(
      `webhook URL ${url} points to a private address (${error.message}); private, loopback and ` +
        'link-local addresses are refused unless ALLOW_PRIVATE_NETWORKS=true. To receive webhooks on ' +
        'this machine, run walkaround webhooks listen',
    );
  });
}

function checkSettings<T extends ClientSettings>(input: T): T {
  if (input.name !== undefined && input.name.trim() === '') throw invalid('name must not be empty');
  if (input.webhookUrl) {
    let url: URL | undefined;
    try {
      url = new URL(input.webhookUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw invalid(`webhook URL must be an http(s) URL, got ${input.webhookUrl}`);
    }
    // Deliveries never send to a URL with credentials (docs/webhooks.md); the secret stays out of the reply.
    if (url.username || url.password) {
      throw invalid(
        'webhook URL must not contain credentials (user:password@); deliveries are signed instead',
      );
    }
  }
  if (input.quotaPerHour !== undefined && !(Number.isInteger(input.quotaPerHour) && input.quotaPerHour > 0)) {
    throw invalid('quota must be a positive integer (uploads per hour)');
  }
  let serviceWindow = input.serviceWindow;
  if (serviceWindow) {
    try {
      serviceWindow = parseServiceWindow(serviceWindow) === null ? null : serviceWindow.trim().toLowerCase();
    } catch (error) {
      throw invalid(`service window: ${(error as Error).message}`);
    }
  }
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) {
    throw invalid(`unknown time zone ${input.timezone} (use an IANA name such as Europe/Paris)`);
  }
  if (
    input.linkTtlSeconds !== undefined &&
    !(Number.isFinite(input.linkTtlSeconds) && input.linkTtlSeconds >= 60)
  ) {
    throw invalid('link validity must be at least 60 seconds');
  }
  const unknownEvent = input.webhookEvents?.find((name) => !isEventType(name));
  if (unknownEvent !== undefined)
    throw invalid(`unknown event type ${unknownEvent} (known: ${EVENT_TYPES.join(', ')})`);
  return serviceWindow === undefined ? input : { ...input, serviceWindow };
}
