// Portal test data: inspections with stored photos and a result written as the analysis writes it
// (storeResultVersion), without running the analyzers; portal users; and a signed-in session through
// the real sign-in route.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { Value } from '@sinclair/typebox/value';
import { InspectionResult } from '../../src/domain/result/index.js';
import { summaryOf } from '../../src/domain/result/summary.js';
import type { Deps } from '../../src/deps.js';
import type { PortalRole } from '../../src/ports/database.js';
import { createPortalUser } from '../../src/services/users/accounts.js';
import { storeResultVersion } from '../../src/services/results/store-result.js';
import { getRateCard } from '../../src/services/clients/rate-card.js';
import { estimateForResult } from '../../src/services/estimates/estimate-result.js';
import type { TestApp } from './app.js';
import { photo } from './media.js';

export const PASSWORD = 'a long enough password';

export interface SeedOptions {
  caseId: string;
  /** Fixture photos (test/fixtures/photos), one media item each. */
  photos?: string[];
  /** Plate read on the first photo. */
  plate?: string | null;
  /** Flags of the first photo, besides those the parts imply. */
  flags?: string[];
  /** Damages on the first photo, as a model found them. */
  damages?: {
    part: string | null;
    type: string;
    box: { x: number; y: number; width: number; height: number };
  }[];
  /** People found on the first photo (blurred in shared reports). */
  people?: { x: number; y: number; width: number; height: number }[];
  source?: 'file' | 'urls' | 'link';
  createdAt?: number;
  /** Not analysed yet: `queued`, no result. */
  pending?: boolean;
}

export interface Seeded {
  id: string;
  mediaIds: string[];
}

/** An inspection of `clientId` with its photos stored and (unless pending) its result version 1. */
export async function seedInspection(
  deps: Pick<Deps, 'db' | 'storage' | 'now'>,
  clientId: string,
  options: SeedOptions,
): Promise<Seeded> {
  const now = options.createdAt ?? deps.now();
  const id = crypto.randomUUID();
  const inspection = {
    id,
    client_id: clientId,
    case_id: options.caseId,
    source: options.source ?? 'file',
    status: options.pending ? ('queued' as const) : ('completed' as const),
    callback_url: null,
    agent_id: null,
    agent_name: 'Jo Agent',
    email_id: null,
    input_metadata: options.plate ? JSON.stringify({ licensePlate: options.plate }) : null,
    original_pair_ids: null,
    result: null,
    created_at: now,
    updated_at: now,
  };
  await deps.db.insertInto('inspections').values(inspection).execute();
  const media: InspectionResult['media'] = [];
  for (const [position, name] of (options.photos ?? ['home.jpg']).entries()) {
    const bytes = photo(name);
    const stored = await deps.storage.put(Readable.from([bytes]));
    const meta = await sharp(bytes).rotate().metadata();
    const thumb = await deps.storage.put(
      Readable.from([await sharp(bytes).rotate().resize(320).jpeg().toBuffer()]),
    );
    const mediaId = crypto.randomUUID();
    await deps.db
      .insertInto('media')
      .values({
        id: mediaId,
        inspection_id: id,
        client_id: clientId,
        position,
        kind: 'image',
        pair_index: null,
        pair_member: null,
        original_id: name,
        source_url: null,
        storage_key: stored.key,
        sha256: stored.sha256,
        bytes: stored.bytes,
        mime: 'image/jpeg',
        capture_metadata: null,
        created_at: now,
      })
      .execute();
    const first = position === 0;
    const damages = first ? (options.damages ?? []) : [];
    const parts: InspectionResult['media'][number]['analysis'] = {
      vehicles: {
        present: true,
        detections: [{ label: 'car', score: 0.8, box: { x: 0.1, y: 0.2, width: 0.7, height: 0.6 } }],
        people: (first ? (options.people ?? []) : []).map((box) => ({ score: 0.9, box })),
      },
      text: {
        plate: {
          read: first ? (options.plate ?? null) : null,
          expected: null,
          match: null,
          confidence: first && options.plate ? 0.9 : null,
          ...(first && options.plate ? { box: { x: 0.4, y: 0.7, width: 0.2, height: 0.08 } } : {}),
        },
        vin: { read: null, expected: null, match: null, confidence: null, check_digit_valid: null },
        flags: [],
      },
      damage:
        damages.length > 0
          ? {
              status: 'ok',
              model: { backend: 'onnx', name: 'test.onnx', version: 'abcdef012345' },
              damages: damages.map((d) => ({ ...d, severity: 'moderate' as const, confidence: 0.7 })),
            }
          : { status: 'not_configured', model: null, damages: [] },
    };
    media.push({
      id: mediaId,
      position,
      kind: 'image',
      original_id: name,
      source_url: null,
      pair_index: null,
      sha256: stored.sha256,
      bytes: stored.bytes,
      mime: 'image/jpeg',
      width: meta.width ?? 0,
      height: meta.height ?? 0,
      duration_seconds: null,
      thumbnail_key: thumb.key,
      analysis: parts,
      errors: [],
      flags: [...(first ? (options.flags ?? []) : []), ...(damages.length > 0 ? ['damage'] : [])],
    });
  }
  if (!options.pending) {
    const result: InspectionResult = {
      inspection_id: id,
      case_id: options.caseId,
      status: 'completed',
      version: 1,
      source: inspection.source,
      client_metadata: {
        input_metadata: options.plate ? { licensePlate: options.plate } : null,
        agent_id: null,
        agent_name: 'Jo Agent',
        email_id: null,
      },
      created_at: new Date(now).toISOString(),
      analysed_at: new Date(now + 1000).toISOString(),
      analyzers: [],
      media,
      pairs: [],
      summary: summaryOf(media),
    };
    // Priced as the analysis prices it, with the client's rate card.
    result.estimate = estimateForResult(result, await getRateCard(deps.db, clientId));
    const errors = [...Value.Errors(InspectionResult, result)];
    if (errors.length > 0) throw new Error(`seeded result is not valid: ${JSON.stringify(errors[0])}`);
    await storeResultVersion(deps.db, {
      inspection,
      result,
      origin: 'analysis',
      authorId: null,
      now: now + 1000,
    });
  }
  return { id, mediaIds: media.map((m) => m.id) };
}

export async function portalUser(deps: Pick<Deps, 'db' | 'now'>, role: PortalRole, clientId?: string) {
  const email = `${role}-${crypto.randomBytes(4).toString('hex')}@portal.test`;
  await createPortalUser(deps, { email, password: PASSWORD, role, ...(clientId && { clientId }) });
  return email;
}

export interface PortalSession {
  cookie: string;
  csrf: string;
  /** Headers for a state-changing call: the cookie and the CSRF token. */
  writeHeaders: Record<string, string>;
}

/** Signs in through POST /portal/api/session. */
export async function signInAs(t: TestApp, email: string, password = PASSWORD): Promise<PortalSession> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/portal/api/session',
    payload: { email, password },
    remoteAddress: `10.9.${crypto.randomInt(255)}.${crypto.randomInt(255)}`,
  });
  if (res.statusCode !== 200) throw new Error(`sign-in: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'walkaround_portal');
  if (!cookie) throw new Error('no session cookie');
  const csrf = res.json<{ csrf_token: string }>().csrf_token;
  return {
    cookie: `walkaround_portal=${cookie.value}`,
    csrf,
    writeHeaders: { cookie: `walkaround_portal=${cookie.value}`, 'x-csrf-token': csrf },
  };
}

/**
 * Completes an inspection that has media but no analysis, as if it had been analysed: a result with each
 * media item's own photo as its thumbnail and no findings (for tests that need a result, not analysers).
 */
export async function completeWithoutAnalysis(deps: Pick<Deps, 'db' | 'now'>, inspectionId: string) {
  const inspection = await deps.db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', inspectionId)
    .executeTakeFirstOrThrow();
  const rows = await deps.db
    .selectFrom('media')
    .selectAll()
    .where('inspection_id', '=', inspectionId)
    .orderBy('position')
    .execute();
  const media: InspectionResult['media'] = rows.map((row) => ({
    id: row.id,
    position: row.position,
    kind: row.kind,
    original_id: row.original_id,
    source_url: row.source_url,
    pair_index: row.pair_index,
    sha256: row.sha256,
    bytes: row.bytes,
    mime: row.mime,
    width: 600,
    height: 400,
    duration_seconds: null,
    thumbnail_key: row.storage_key,
    analysis: {},
    errors: [],
    flags: [],
  }));
  const now = deps.now();
  const result: InspectionResult = {
    inspection_id: inspection.id,
    case_id: inspection.case_id,
    status: 'completed',
    version: inspection.result_version + 1,
    source: inspection.source,
    client_metadata: { input_metadata: null, agent_id: null, agent_name: null, email_id: null },
    created_at: new Date(inspection.created_at).toISOString(),
    analysed_at: new Date(now).toISOString(),
    analyzers: [],
    media,
    pairs: [],
    summary: summaryOf(media),
  };
  await storeResultVersion(deps.db, { inspection, result, origin: 'analysis', authorId: null, now });
  await deps.db
    .updateTable('inspections')
    .set({ status: 'completed' })
    .where('id', '=', inspectionId)
    .execute();
}
