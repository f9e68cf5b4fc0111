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
  /** JSON array of event types the client receives; null means all. */
  webhook_events: string | null;
  /** The secret before the last rotation, encrypted; it also signs until `..._until`. */
  webhook_secret_previous_enc: string | null;
  webhook_secret_previous_until: number | null;
  /** 1: a new inspection of a known vehicle is compared with its latest one (docs/vehicles.md). */
  auto_compare: Generated<number>;
  /** JSON of the client's rate card (docs/estimate.md); null: the example card. */
  rate_card: Generated<string | null>;
  /** Grows with every change of the card; 0 while it is the example card. */
  rate_card_version: Generated<number>;
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
  /** 1 when the customer may pick media from the phone's gallery, else 0 (no booleans: ADR 1). */
  allow_gallery: number;
  /** 1 when the capture app asks for the customer's location and sends it with each capture, else 0. */
  ask_location: number;
  /** Long side, in pixels, the capture app scales larger photos down to; null sends them as captured. */
  max_photo_dimension: number | null;
  created_at: number;
}

/** `operator`: every client; `client_admin`: one client, may review; `client_viewer`: one client, reads. */
export type PortalRole = 'operator' | 'client_admin' | 'client_viewer';

export interface PortalUsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: PortalRole;
  /** Null for operators; the one client of a client user. */
  client_id: string | null;
  /** Set when the user may no longer sign in; their sessions end with it. */
  disabled_at: number | null;
  created_at: number;
}

/** A signed-in portal session; the cookie holds the token whose SHA-256 is `id_hash`. */
export interface PortalSessionsTable {
  id_hash: string;
  user_id: string;
  /** Sent back in `x-csrf-token` with every state-changing request of the session. */
  csrf_token: string;
  created_at: number;
  /** Touched at most once a minute; the session ends after PORTAL_SESSION_IDLE without a request. */
  last_seen_at: number;
  /** The absolute end (PORTAL_SESSION_MAX after sign-in). */
  expires_at: number;
}

/** One-off facts of the installation (for example, that the demo client was created). */
export interface AppStateTable {
  key: string;
  value: string;
  created_at: number;
}

export type InspectionStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface InspectionsTable {
  /** The session of the upload (or link) that created it. */
  id: string;
  client_id: string;
  case_id: string;
  source: 'urls' | 'file' | 'link';
  status: InspectionStatus;
  callback_url: string | null;
  agent_id: string | null;
  agent_name: string | null;
  email_id: string | null;
  /** JSON object given as `inputMetaData`. */
  input_metadata: string | null;
  /** JSON array given as `original_pair_Id`. */
  original_pair_ids: string | null;
  /** JSON of the published result (analysis): its latest version. */
  result: string | null;
  result_version: Generated<number>;
  /** JSON of the latest result's ResultDigest (domain/result/digest.ts), for lists; null before analysis. */
  digest: Generated<string | null>;
  /** A reviewer's decision on the latest reviewed version; null until reviewed. */
  review_decision: Generated<'accepted' | 'rejected' | null>;
  reviewed_at: Generated<number | null>;
  /** The vehicle it shows, set when its analysis completes (docs/vehicles.md); null when unknown. */
  vehicle_id: Generated<string | null>;
  /** The inspection the client asked to compare it with (`compare_with`), checked to be its own. */
  compare_with: Generated<string | null>;
  /** The latest result's estimate total × 100 (docs/estimate.md); null without an estimate. */
  estimate_total_cents: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

/** A vehicle of one client (docs/vehicles.md): the VIN and plate it was last seen with. */
export interface VehiclesTable {
  id: string;
  client_id: string;
  vin: string | null;
  plate: string | null;
  created_at: number;
  updated_at: number;
}

/** What finds a vehicle: its VIN, or a normalised plate it has carried. One vehicle per key. */
export interface VehicleKeysTable {
  client_id: string;
  kind: 'vin' | 'plate';
  value: string;
  vehicle_id: string;
}

/** Every version of an inspection's result, the latest also in `inspections.result`. */
export interface InspectionResultsTable {
  inspection_id: string;
  version: number;
  result: string;
  /** `analysis`: written by the analysis; `review`: saved by a reviewer (`author_id`) in the portal. */
  origin: 'analysis' | 'review';
  author_id: string | null;
  created_at: number;
}

/** What the portal searches by: one row per flag, plate and VIN of an inspection's latest result. */
export interface InspectionFactsTable {
  inspection_id: string;
  client_id: string;
  kind: 'flag' | 'plate' | 'vin';
  /** The flag's name, or the reading in compact form (domain/result/digest.ts). */
  value: string;
  /** The inspection's creation time, so that a search by fact lists newest first from the index. */
  created_at: number;
}

/** A read-only, expiring, revocable link to an inspection's report, for someone without an account. */
export interface ShareLinksTable {
  id: string;
  /** SHA-256 of the token, hex; the token is shown once. */
  token_hash: string;
  inspection_id: string;
  client_id: string;
  /** The portal user who made it. */
  created_by: string;
  /** 1 when faces and plates are blurred in what the link shows, else 0. */
  blur: number;
  /** 1 when the link also shows fraud signals, hashes, EXIF, readings and file names; else 0. */
  details: Generated<number>;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface MediaTable {
  id: string;
  inspection_id: string;
  client_id: string;
  position: number;
  kind: 'image' | 'video';
  pair_index: number | null;
  pair_member: number | null;
  original_id: string | null;
  source_url: string | null;
  storage_key: string;
  sha256: string;
  bytes: number;
  mime: string;
  /** JSON of the capture app's facts (CaptureMetadata) for media captured behind a link; null otherwise. */
  capture_metadata: string | null;
  created_at: number;
}

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface JobsTable {
  id: string;
  task: string;
  key: string;
  payload: string;
  status: JobStatus;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface WorkersTable {
  id: string;
  host: string;
  started_at: number;
  heartbeat_at: number;
}

export interface FingerprintsTable {
  media_id: string;
  inspection_id: string;
  client_id: string;
  /** 64-bit difference hash, 16 hex characters. */
  dhash: string;
  created_at: number;
}

/** A graphile-worker worker and the process (`workers.id`) that runs it. */
export interface QueueWorkersTable {
  id: string;
  owner_id: string;
  created_at: number;
}

export interface WebhookMessagesTable {
  id: string;
  client_id: string;
  inspection_id: string | null;
  event_type: string;
  url: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A local listener (`walkaround webhooks listen`, ADR 12): loopback `port` takes the client's events. */
export interface WebhookListenersTable {
  client_id: string;
  port: number;
  /** Live until then; the listener renews it while it runs and removes it when it stops. */
  expires_at: number;
  created_at: number;
}

export interface WebhookAttemptsTable {
  id: string;
  message_id: string;
  attempt: number;
  started_at: number;
  url: string;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  outcome: string;
}

export type LinkStatus = 'open' | 'submitted' | 'expired';

/** An inspection link (docs/api.md#concepts); `id` becomes the inspection's id on submit. */
export interface LinksTable {
  id: string;
  client_id: string;
  persona_id: number;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  case_id: string | null;
  /** JSON object, as given to the link generator. */
  input_metadata: string | null;
  status: LinkStatus;
  expires_at: number;
  opened_at: number | null;
  submitted_at: number | null;
  /** `compare_with` of the link request: passed on to the inspection the link submits. */
  compare_with: Generated<string | null>;
  created_at: number;
}

/** A finished capture upload behind a link: one per step (a retake replaces it). */
export interface LinkMediaTable {
  id: string;
  link_id: string;
  step_id: string;
  kind: 'image' | 'video';
  storage_key: string;
  sha256: string;
  bytes: number;
  mime: string;
  /** JSON of the checked capture metadata (CaptureMetadata); null when the app sent none. */
  capture_metadata: string | null;
  created_at: number;
}

export type OutboxStatus = 'pending' | 'sent' | 'failed' | 'held';

/** What an outbox message carries: an inspection link, or a portal user's set-password link. */
export type OutboxKind = 'link' | 'invitation' | 'password_reset';

/**
 * A link message (SMS or e-mail), written with the link and sent by the worker; or the e-mail of a
 * portal invitation or password reset, sent the same way.
 */
export interface OutboxMessagesTable {
  id: string;
  /** Null for an operator's invitation or password reset (operators belong to no client). */
  client_id: string | null;
  link_id: string | null;
  kind: Generated<OutboxKind>;
  /** The set-password link an invitation or reset e-mail carries. */
  password_link_id: string | null;
  channel: 'email' | 'sms';
  recipient: string;
  language: string;
  subject: string | null;
  /** The rendered message with `#[redacted]` where the link token goes. */
  body: string;
  /** The link token, sealed under SECRET_KEY, while the message may still go out; null afterwards. */
  link_token_sealed: string | null;
  status: OutboxStatus;
  attempts: Generated<number>;
  last_error: string | null;
  provider_message_id: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

/** A one-time set-password link (an invitation or a reset); the token is in the e-mail only. */
export interface PasswordLinksTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  purpose: 'invite' | 'reset';
  /** The portal user who asked for it; null from the command line. */
  created_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** Replaced by a newer link of the same user. */
  revoked_at: number | null;
}

export interface AuditLogTable {
  id: string;
  at: number;
  actor_kind: 'user' | 'api_key' | 'cli' | 'system';
  actor: string;
  actor_id: string | null;
  client_id: string | null;
  action: string;
  object_type: string;
  object_id: string;
  before: string | null;
  after: string | null;
  request_id: string | null;
}

/** Logos uploaded for personas' branding, served without a session by their SHA-256 (migration 0013). */
export interface PersonaLogosTable {
  /** SHA-256 of the stored PNG, lowercase hex: its name in `/app/api/logos/<sha256>.png`. */
  sha256: string;
  storage_key: string;
  bytes: number;
  /** The client whose user uploaded it first. */
  client_id: string;
  created_at: number;
}

export interface Tables {
  clients: ClientsTable;
  api_keys: ApiKeysTable;
  signing_keys: SigningKeysTable;
  spent_credentials: SpentCredentialsTable;
  personas: PersonasTable;
  persona_logos: PersonaLogosTable;
  portal_users: PortalUsersTable;
  portal_sessions: PortalSessionsTable;
  app_state: AppStateTable;
  inspections: InspectionsTable;
  media: MediaTable;
  jobs: JobsTable;
  workers: WorkersTable;
  fingerprints: FingerprintsTable;
  queue_workers: QueueWorkersTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_listeners: WebhookListenersTable;
  audit_log: AuditLogTable;
  links: LinksTable;
  link_media: LinkMediaTable;
  outbox_messages: OutboxMessagesTable;
  inspection_results: InspectionResultsTable;
  inspection_facts: InspectionFactsTable;
  share_links: ShareLinksTable;
  password_links: PasswordLinksTable;
  vehicles: VehiclesTable;
  vehicle_keys: VehicleKeysTable;
}

export type Db = Kysely<Tables>;
export type ClientRow = Selectable<ClientsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type NewClient = Insertable<ClientsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SigningKeyRow = Selectable<SigningKeysTable>;
export type PersonaRow = Selectable<PersonasTable>;
export type PortalUserRow = Selectable<PortalUsersTable>;
export type InspectionRow = Selectable<InspectionsTable>;
export type MediaRow = Selectable<MediaTable>;
export type VehicleRow = Selectable<VehiclesTable>;
export type JobRow = Selectable<JobsTable>;
export type WebhookMessageRow = Selectable<WebhookMessagesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type LinkRow = Selectable<LinksTable>;
export type LinkMediaRow = Selectable<LinkMediaTable>;
export type OutboxMessageRow = Selectable<OutboxMessagesTable>;
export type PortalSessionRow = Selectable<PortalSessionsTable>;
export type ShareLinkRow = Selectable<ShareLinksTable>;
export type PasswordLinkRow = Selectable<PasswordLinksTable>;

/** Runs `fn` in a transaction, joining the caller's when `db` is one already. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
