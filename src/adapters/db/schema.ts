// Table types for Kysely. Times are epoch milliseconds (integers on both backends); JSON is stored as
// text so one query works on SQLite and PostgreSQL alike.
import type { Generated, Insertable, Kysely, Selectable } from 'kysely';

export interface ClientsTable {
  id: string;
  name: string;
  webhook_url: string | null;
  /** Standard Webhooks secret, encrypted with the master key. */
  webhook_secret_enc: string;
  quota_per_hour: number;
  /** Service window (see domain/service-window.ts); null means always. */
  service_window: string | null;
  timezone: string;
  link_ttl_seconds: number;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  client_id: string;
  /** First characters of the key, shown in listings so a leaked key can be recognised. */
  prefix: string;
  /** SHA-256 of the whole key, hex. Keys carry 192 random bits, so a fast hash is enough. */
  key_hash: string;
  created_at: number;
  /** Set by rotation: the key stops working at this time. */
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: string;
  /** Private JWK, encrypted with the master key. */
  private_jwk_enc: string;
  created_at: number;
  /** After this time the key neither signs nor verifies; null while in use. */
  retired_at: number | null;
}

/** Credentials that may be used once: an upload session, or an access_token's renewal. */
export interface SpentCredentialsTable {
  id: string;
  kind: 'session' | 'access_token';
  client_id: string;
  spent_at: number;
  /** After this time the credential is expired anyway and the row may be pruned. */
  expires_at: number;
}

export interface PersonasTable {
  id: Generated<number>;
  client_id: string;
  name: string;
  kind: 'photo' | 'video';
  language: string;
  /** JSON array of capture steps. */
  steps: string;
  video_min_seconds: number | null;
  video_max_seconds: number | null;
  /** JSON: name, colour, logo. */
  branding: string;
  created_at: number;
}

export interface PortalUsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: 'operator' | 'client';
  client_id: string | null;
  created_at: number;
}

/** One-off facts of the installation (for example, that the demo client was created). */
export interface AppStateTable {
  key: string;
  value: string;
  created_at: number;
}

export interface Tables {
  clients: ClientsTable;
  api_keys: ApiKeysTable;
  signing_keys: SigningKeysTable;
  spent_credentials: SpentCredentialsTable;
  personas: PersonasTable;
  portal_users: PortalUsersTable;
  app_state: AppStateTable;
}

export type Db = Kysely<Tables>;
export type ClientRow = Selectable<ClientsTable>;
export type NewClient = Insertable<ClientsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SigningKeyRow = Selectable<SigningKeysTable>;
export type PersonaRow = Selectable<PersonasTable>;
export type PortalUserRow = Selectable<PortalUsersTable>;
