// Writing a new inspection: its row, its media, its analysis job and its `inspection.received` event, all
// in the caller's transaction. The API upload and the link's submit both come through here, so an
// inspection from a link goes through exactly the same pipeline, webhook and result as an upload.
import crypto from 'node:crypto';
import type { ClientRow, Db, InspectionsTable } from '../ports/database.js';
import type { CaptureMetadata } from '../domain/capture-metadata.js';
import type { MediaKind } from '../domain/limits.js';
import type { JobQueue } from '../ports/job-queue.js';
import { emitEvent } from './webhooks/events.js';
import { jobKeys } from '../domain/jobs.js';

export interface RecordDeps {
  queue: JobQueue;
  now: () => number;
  /** Base of links in webhook events. */
  publicBaseUrl: string;
}

/** What is kept on the inspection beside its media. */
export interface InspectionFields {
  session: string;
  case_id: string;
  callback_url?: string | undefined;
  agent_id?: string | undefined;
  agent_name?: string | undefined;
  email_id?: string | undefined;
  inputMetaData?: Record<string, unknown> | undefined;
  original_pair_Id?: string[] | undefined;
  /** An inspection of the same client, already checked (docs/vehicles.md). */
  compare_with?: string | undefined;
}

/** One stored media object of the inspection, in its position order. */
export interface RecordedMedia {
  position: number;
  kind: MediaKind;
  mime: string;
  storageKey: string;
  sha256: string;
  bytes: number;
  originalId?: string | null;
  sourceUrl?: string | null;
  pairIndex?: number | null;
  pairMember?: number | null;
  /** What the capture app said about media captured behind a link; API uploads have none. */
  captureMetadata?: CaptureMetadata | null;
}

export async function recordInspection(
  trx: Db,
  deps: RecordDeps,
  input: {
    client: ClientRow;
    source: InspectionsTable['source'];
    fields: InspectionFields;
    media: RecordedMedia[];
  },
): Promise<void> {
  const { client, fields, media } = input;
  const now = deps.now();
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  await trx
    .insertInto('inspections')
    .values({
      id: fields.session,
      client_id: client.id,
      case_id: fields.case_id,
      source: input.source,
      status: 'queued',
      callback_url: fields.callback_url || null,
      agent_id: fields.agent_id ?? null,
      agent_name: fields.agent_name ?? null,
      email_id: fields.email_id ?? null,
      input_metadata: json(fields.inputMetaData),
      original_pair_ids: json(fields.original_pair_Id),
      compare_with: fields.compare_with ?? null,
      result: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await trx
    .insertInto('media')
    .values(
      media.map((m) => ({
        id: crypto.randomUUID(),
        inspection_id: fields.session,
        client_id: client.id,
        position: m.position,
        kind: m.kind,
        pair_index: m.pairIndex ?? null,
        pair_member: m.pairMember ?? null,
        original_id: m.originalId ?? null,
        source_url: m.sourceUrl ?? null,
        storage_key: m.storageKey,
        sha256: m.sha256,
        bytes: m.bytes,
        mime: m.mime,
        capture_metadata: m.captureMetadata ? JSON.stringify(m.captureMetadata) : null,
        created_at: now,
      })),
    )
    .execute();
  await deps.queue.enqueue(trx, {
    task: 'analyse-inspection',
    key: jobKeys.analyse(fields.session),
    payload: { inspectionId: fields.session },
  });
  await emitEvent(trx, deps, {
    client,
    type: 'inspection.received',
    inspectionId: fields.session,
    callbackUrl: fields.callback_url,
    data: {
      inspection_id: fields.session,
      case_id: fields.case_id,
      status: 'queued',
      media_count: media.length,
      kind: media[0]?.kind ?? null,
    },
  });
}
