// Clients in the portal's console (docs/portal.md#clients-api-keys-and-webhooks): operators see, create
// and change every client; a client admin sees and changes their own, except its quota and service
// window (what the operator sells and runs); a client viewer administers nothing. Another client's id
// answers as an unknown one. A client's secrets are never shown here, only their visible prefixes: a
// key or secret is in clear only in the one answer that makes it.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import { WEBHOOK_SECRET_PREFIX } from '../../domain/secret-formats.js';
import { visiblePrefix } from '../../domain/secret-formats.js';
import type { ClientRow, Db } from '../../ports/database.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { AuditActor } from '../audit.js';
import {
  createClient,
  createKey,
  listClients,
  revokeKeys,
  rotateKey,
  rotateWebhookSecret,
  updateClient,
  clientSettingsOf,
  type ClientDeps,
  type ClientSettings,
  type SettingDeps,
} from './manage.js';
import { requireChange } from '../portal/access.js';
import type { PortalCaller } from '../portal/sessions.js';

/** Characters of a webhook secret shown after `whsec_`, as many as of an API key after `wk_live_`. */
const SECRET_VISIBLE_CHARS = WEBHOOK_SECRET_PREFIX.length + 6;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export const ClientKey = Type.Object({
  prefix: Type.String({ description: "The key's visible start (`wk_live_` and 6 characters)." }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Nullable(Type.String({ format: 'date-time' }), {
    description: 'Set by a rotation: the key stops working then.',
  }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
});

export const ClientView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  webhook_url: Nullable(Type.String()),
  webhook_events: Nullable(Type.Array(Type.String()), { description: 'Null: every event type.' }),
  quota_per_hour: Type.Integer({ description: 'Accepted uploads per hour.' }),
  service_window: Nullable(Type.String(), { description: 'Hours of service; null: always.' }),
  timezone: Type.String({ description: 'IANA time zone the service window is read in.' }),
  link_ttl_seconds: Type.Integer({ description: 'How long an inspection link stays valid.' }),
  auto_compare: Type.Boolean({
    description:
      "A new inspection of a known vehicle is compared with the vehicle's latest (docs/vehicles.md).",
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  keys: Type.Array(ClientKey, { description: 'Live API keys, oldest first (prefixes only).' }),
  webhook_secret: Type.Object({
    prefix: Type.String({ description: 'The visible start of the secret that signs (`whsec_` and 6).' }),
    previous_prefix: Nullable(Type.String()),
    previous_signs_until: Nullable(Type.String({ format: 'date-time' }), {
      description: 'While a rotation grace period runs, the previous secret signs too, until then.',
    }),
  }),
  may_change_limits: Type.Boolean({
    description: 'Whether the caller may change the quota, service window and time zone (operators).',
  }),
});
export type ClientView = Static<typeof ClientView>;

export const ClientSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  webhook_url: Type.Optional(Nullable(Type.String())),
  live_keys: Type.Optional(Type.Integer({ description: 'How many live API keys it has.' })),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
});

/** Throws PORTAL_FORBIDDEN unless the caller is an operator (creating clients, quotas, service windows). */
export function requireOperator(caller: Pick<PortalCaller, 'role'>): void {
  if (caller.role !== 'operator') throw new AppError('PORTAL_FORBIDDEN');
}

/**
 * The client the caller administers by this id: an operator any, a client admin their own. A viewer is
 * refused (403) before the client is looked at; another client's id answers NOT_FOUND, like an unknown one.
 */
export async function administeredClient(db: Db, caller: PortalCaller, id: string): Promise<ClientRow> {
  requireChange(caller);
  if (caller.clientId !== null && caller.clientId !== id) throw new AppError('NOT_FOUND');
  const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** A client as the console shows it: its settings, its live keys and its secret by their prefixes. */
export async function clientView(
  deps: { db: Db; secrets: SecretBox; now: () => number },
  caller: Pick<PortalCaller, 'role'>,
  row: ClientRow,
): Promise<ClientView> {
  const now = deps.now();
  const keys = await deps.db
    .selectFrom('api_keys')
    .select(['prefix', 'created_at', 'expires_at', 'last_used_at'])
    .where('client_id', '=', row.id)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at')
    .execute();
  const grace =
    row.webhook_secret_previous_enc !== null && (row.webhook_secret_previous_until ?? 0) > now
      ? row.webhook_secret_previous_enc
      : null;
  const visible = (sealed: string) => deps.secrets.open(sealed).slice(0, SECRET_VISIBLE_CHARS);
  return {
    id: row.id,
    ...clientSettingsOf(row),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    keys: keys.map((k) => ({
      prefix: k.prefix,
      created_at: iso(k.created_at),
      expires_at: isoOrNull(k.expires_at),
      last_used_at: isoOrNull(k.last_used_at),
    })),
    webhook_secret: {
      prefix: visible(row.webhook_secret_enc),
      previous_prefix: grace === null ? null : visible(grace),
      previous_signs_until: grace === null ? null : isoOrNull(row.webhook_secret_previous_until),
    },
    may_change_limits: caller.role === 'operator',
  };
}

/**
 * The clients the caller may see, by name: operators all, client users their own. Those who administer
 * them also get the webhook URL, live keys and creation time; a viewer (the inspection list's client
 * filter) only ids and names.
 */
export async function portalClients(
  deps: { db: Db; now: () => number },
  caller: PortalCaller,
): Promise<Static<typeof ClientSummary>[]> {
  const rows = (await listClients(deps))
    .filter((c) => caller.clientId === null || c.id === caller.clientId)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (caller.role === 'client_viewer') return rows.map((c) => ({ id: c.id, name: c.name }));
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    webhook_url: c.webhook_url,
    live_keys: c.keys.length,
    created_at: iso(c.created_at),
  }));
}

/** The settings a portal body names, as the client services take them. */
export interface SettingsBody {
  name?: string;
  webhook_url?: string | null;
  webhook_events?: string[] | null;
  quota_per_hour?: number;
  service_window?: string | null;
  timezone?: string;
  link_ttl_seconds?: number;
  auto_compare?: boolean;
}

/** Settings only an operator changes: what the client is sold and when it is served. */
const OPERATOR_SETTINGS = ['quota_per_hour', 'service_window', 'timezone'] as const;

/** The body as client settings; PORTAL_FORBIDDEN when a client admin names an operator's setting. */
export function settingsOf(caller: Pick<PortalCaller, 'role'>, body: SettingsBody): ClientSettings {
  if (caller.role !== 'operator' && OPERATOR_SETTINGS.some((name) => body[name] !== undefined))
    throw new AppError('PORTAL_FORBIDDEN');
  return {
    ...(body.name !== undefined && { name: body.name.trim() }),
    ...(body.webhook_url !== undefined && { webhookUrl: body.webhook_url?.trim() || null }),
    ...(body.webhook_events !== undefined && { webhookEvents: body.webhook_events }),
    ...(body.quota_per_hour !== undefined && { quotaPerHour: body.quota_per_hour }),
    ...(body.service_window !== undefined && { serviceWindow: body.service_window?.trim() || null }),
    ...(body.timezone !== undefined && { timezone: body.timezone }),
    ...(body.link_ttl_seconds !== undefined && { linkTtlSeconds: body.link_ttl_seconds }),
    ...(body.auto_compare !== undefined && { autoCompare: body.auto_compare }),
  };
}

/** How long replaced keys and secrets keep working when the caller does not say (24 h), and at most. */
export const DEFAULT_GRACE_SECONDS = 24 * 3600;
export const MAX_GRACE_SECONDS = 30 * 24 * 3600;

/** A new client (operators only), with its API key and webhook secret, shown this once. */
export async function createPortalClient(
  deps: SettingDeps,
  caller: PortalCaller,
  body: SettingsBody & { name: string },
  by: AuditActor,
) {
  requireOperator(caller);
  const settings = settingsOf(caller, body);
  const created = await createClient(deps, { ...settings, name: settings.name ?? body.name }, by);
  return {
    client: await clientView(deps, caller, created.client),
    api_key: created.apiKey,
    webhook_secret: created.webhookSecret,
  };
}

/** A client the caller administers, as the console shows it. */
export async function portalClient(deps: ClientDeps, caller: PortalCaller, id: string): Promise<ClientView> {
  return clientView(deps, caller, await administeredClient(deps.db, caller, id));
}

/** Changes the settings the caller may change; answers the client as it now is. */
export async function changePortalClient(
  deps: SettingDeps,
  caller: PortalCaller,
  id: string,
  body: SettingsBody,
  by: AuditActor,
): Promise<ClientView> {
  const client = await administeredClient(deps.db, caller, id);
  return clientView(deps, caller, await updateClient(deps, client.id, settingsOf(caller, body), by));
}

/** One more API key of a client the caller administers (shown this once). */
export async function addPortalKey(deps: ClientDeps, caller: PortalCaller, id: string, by: AuditActor) {
  const client = await administeredClient(deps.db, caller, id);
  return createKey(deps, client.id, by);
}

/**
 * A rotation of a client the caller administers: what it replaces keeps working for the grace period
 * (default 24 h). One clock reading, so the end of the grace answered is the one the service set.
 */
async function rotateWithGrace<T>(
  deps: ClientDeps,
  caller: PortalCaller,
  id: string,
  graceSeconds: number | undefined,
  rotate: (clientId: string, graceSeconds: number, clock: ClientDeps) => Promise<T>,
): Promise<{ made: T; grace: number; graceEnds: string }> {
  const client = await administeredClient(deps.db, caller, id);
  const grace = graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const now = deps.now();
  const made = await rotate(client.id, grace, { ...deps, now: () => now });
  return { made, grace, graceEnds: iso(now + grace * 1000) };
}

/** A new API key; the live ones stop after the grace period. */
export async function rotatePortalKey(
  deps: ClientDeps,
  caller: PortalCaller,
  id: string,
  graceSeconds: number | undefined,
  by: AuditActor,
) {
  const { made: key, graceEnds } = await rotateWithGrace(
    deps,
    caller,
    id,
    graceSeconds,
    (clientId, grace, clock) => rotateKey(clock, clientId, grace, by),
  );
  return { key, prefix: visiblePrefix(key), others_expire_at: graceEnds };
}

/** Revokes one API key of a client the caller administers, by its prefix. */
export async function revokePortalKey(
  deps: ClientDeps,
  caller: PortalCaller,
  id: string,
  prefix: string,
  by: AuditActor,
): Promise<void> {
  const client = await administeredClient(deps.db, caller, id);
  await revokeKeys(deps, client.id, prefix, by);
}

/** A new webhook secret (shown this once); the old one also signs for the grace period. */
export async function rotatePortalWebhookSecret(
  deps: ClientDeps,
  caller: PortalCaller,
  id: string,
  graceSeconds: number | undefined,
  by: AuditActor,
) {
  const {
    made: secret,
    grace,
    graceEnds,
  } = await rotateWithGrace(deps, caller, id, graceSeconds, (clientId, grace, clock) =>
    rotateWebhookSecret(clock, clientId, grace, by),
  );
  return { webhook_secret: secret, previous_signs_until: grace > 0 ? graceEnds : null };
}
