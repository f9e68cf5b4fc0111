// One upload request from admission to acceptance (docs/api.md#upload, docs/api.md#accepted-uploads). Order:
// quota and service window before the body is read; the session is claimed as soon as it is known, so
// concurrent uploads with one session are refused before they transfer anything; media stream to staging;
// then, in one transaction, the inspection, its media and its analysis job. A rejected attempt gives
// everything back: staged bytes, the session claim, the quota.
import { type ClientRow, type Db, inTransaction } from '../../ports/database.js';
import { AppError } from '../../domain/errors.js';
import { parseServiceWindow, secondsUntilOpen } from '../../domain/service-window.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import type { UploadQuota } from '../../ports/upload-quota.js';
import { spendCredential, type TokenClaims } from '../session-tokens.js';
import { recordInspection, type InspectionFields } from '../record-inspection.js';
import { deleteIfUnreferenced } from '../stored-objects.js';
import type { SafeFetch } from '../../ports/outbound-fetch.js';
import { admitWebhookUrl, isPrivateRefusal } from '../webhooks/targets.js';
import { checkHttpUrl } from './fields.js';
import { Intake, type Variant } from './intake.js';

/** Seconds a client is told to wait when the analysis backend is down. */
const BACKEND_RETRY_SECONDS = 60;

export interface UploadDeps {
  db: Db;
  storage: MediaStorage;
  queue: JobQueue;
  quota: UploadQuota;
  /** Whether the analysis backend (a live worker) can take work. */
  analysisAvailable: () => Promise<boolean>;
  now: () => number;
  /** Base of links in webhook events. */
  publicBaseUrl: string;
  /** The tenant fetch, whose guard judges `callback_url` when it is given. */
  fetch: { safeFetch: Pick<SafeFetch, 'admit'> };
}

export interface UploadAccepted {
  status: 'success';
  id: string;
  message: '';
  case_id: string;
}

export class UploadAttempt {
  readonly intake: Intake;
  private quotaTaken = false;
  private claimedSession: string | undefined;
  private admittedCallback: string | undefined;

  private constructor(
    private readonly deps: UploadDeps,
    readonly client: ClientRow,
    private readonly claims: TokenClaims,
    readonly variant: Variant,
  ) {
    this.intake = new Intake(deps.storage, variant);
  }

  /** Admits the attempt (quota, service window, backend health) or throws 429/503. */
  static async begin(deps: UploadDeps, claims: TokenClaims, variant: Variant): Promise<UploadAttempt> {
    const client = await deps.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', claims.clientId)
      .executeTakeFirst();
    if (!client) throw new AppError('UPLOAD_UNAUTHORIZED');
    const attempt = new UploadAttempt(deps, client, claims, variant);

    const closedFor = secondsUntilOpen(
      parseServiceWindow(client.service_window ?? 'always'),
      new Date(deps.now()),
      client.timezone,
    );
    if (closedFor > 0) throw new AppError('UPLOAD_SERVICE_UNAVAILABLE', { retryAfterSeconds: closedFor });
    if (!(await deps.analysisAvailable()))
      throw new AppError('UPLOAD_SERVICE_UNAVAILABLE', { retryAfterSeconds: BACKEND_RETRY_SECONDS });

    const waitFor = await deps.quota.take(client.id, client.quota_per_hour);
    if (waitFor > 0) throw new AppError('UPLOAD_QUOTA_EXCEEDED', { retryAfterSeconds: waitFor });
    attempt.quotaTaken = true;
    return attempt;
  }

  /** Claims the session for this attempt: it must be the token's own and unused. */
  async claimSession(session: string): Promise<void> {
    if (this.claimedSession === session) return;
    if (this.claimedSession !== undefined || session !== this.claims.session)
      throw new AppError('UPLOAD_SESSION_USED');
    const spent = await spendCredential(
      this.deps.db,
      {
        kind: 'session',
        id: session,
        clientId: this.client.id,
        expiresAt: this.claims.expiresAt,
      },
      this.deps.now(),
    );
    if (!spent) throw new AppError('UPLOAD_SESSION_USED');
    this.claimedSession = session;
  }

  /**
   * `callback_url` (docs/api.md#upload): required without a client webhook URL; when given, http(s) and
   * an address deliveries may reach, judged now rather than at the first delivery (ADR 12).
   */
  async checkCallback(callbackUrl: string | undefined): Promise<void> {
    if (!callbackUrl) {
      if (!this.client.webhook_url) throw new AppError('UPLOAD_CALLBACK_REQUIRED');
      return;
    }
    const url = checkHttpUrl('callback_url', callbackUrl);
    // A multipart upload checks its fields before its first file and again at the end.
    if (this.admittedCallback === callbackUrl) return;
    const deps = { ...this.deps, safeFetch: this.deps.fetch.safeFetch };
    await admitWebhookUrl(deps, this.client.id, callbackUrl).catch((error: unknown) => {
      if (!isPrivateRefusal(error)) throw error;
      throw new AppError('UPLOAD_CALLBACK_PRIVATE', { params: { host: url.hostname }, cause: error });
    });
    this.admittedCallback = callbackUrl;
  }

  /**
   * `compare_with` (docs/vehicles.md#which-inspection-is-compared): an inspection of this client. Another
   * client's inspection is answered exactly like an unknown one, so that ids cannot be probed.
   */
  async checkCompareWith(inspectionId: string | undefined): Promise<void> {
    if (inspectionId === undefined) return;
    const known = await this.deps.db
      .selectFrom('inspections')
      .select('id')
      .where('id', '=', inspectionId)
      .where('client_id', '=', this.client.id)
      .executeTakeFirst();
    if (!known) throw new AppError('UPLOAD_INVALID_FIELD', { params: { field: 'compare_with' } });
  }

  /** Publishes the staged media and writes inspection, media and job in one transaction. */
  async accept(fields: InspectionFields): Promise<UploadAccepted> {
    await this.claimSession(fields.session);
    if (this.intake.items.length === 0)
      throw new AppError('UPLOAD_FIELD_REQUIRED', {
        params: { field: this.variant === 'file' ? 'files' : 'urls' },
      });
    const media = await this.intake.publish();
    try {
      await inTransaction(this.deps.db, (trx) =>
        recordInspection(trx, this.deps, {
          client: this.client,
          source: this.variant,
          fields,
          media: media.map((m) => ({
            ...m,
            storageKey: m.stored.key,
            sha256: m.stored.sha256,
            bytes: m.stored.bytes,
          })),
        }),
      );
    } catch (error) {
      await this.removeUnreferenced();
      throw error;
    }
    this.quotaTaken = false;
    this.claimedSession = undefined;
    return { status: 'success', id: fields.session, message: '', case_id: fields.case_id };
  }

  /** Gives back what a rejected attempt took; never throws (the rejection is what the client sees). */
  async abandon(): Promise<void> {
    await this.intake.discard();
    const tasks: Promise<unknown>[] = [];
    if (this.claimedSession !== undefined)
      tasks.push(
        this.deps.db
          .deleteFrom('spent_credentials')
          .where('kind', '=', 'session')
          .where('id', '=', this.claimedSession)
          .execute(),
      );
    if (this.quotaTaken) tasks.push(this.deps.quota.giveBack(this.client.id, this.client.quota_per_hour));
    await Promise.allSettled(tasks);
  }

  /** Objects this attempt published that nothing references (the transaction failed). */
  private async removeUnreferenced(): Promise<void> {
    for (const object of this.intake.createdObjects())
      await deleteIfUnreferenced(this.deps, object).catch(() => undefined);
  }
}
