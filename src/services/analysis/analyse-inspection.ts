// The analysis job of one inspection (docs/result.md): every media item is analysed off the event loop,
// reused photos are matched against the client's earlier inspections, pairs are compared, and the result is
// stored with a new version number. Safe to run twice: it rebuilds the same result from the same media.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import { type Db, type InspectionRow, inTransaction, type MediaRow } from '../../ports/database.js';
import type { AnalysisPool, MediaAnalysis } from '../../ports/analysis-pool.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import type { Metrics } from '../../ports/metrics.js';
import { storeResultVersion } from '../results/store-result.js';
import { emitEvent, type EmitDeps } from '../webhooks/events.js';
import { buildResult, type AnalysedMedia } from './result-builder.js';
import { findReuse, saveFingerprints } from './reuse.js';
import { compareWithPrevious, previousInspectionOf } from './compare-previous.js';
import { vehicleKeysOf } from '../vehicles/keys.js';
import { attachVehicle } from '../vehicles/vehicles.js';
import { getRateCard } from '../clients/rate-card.js';
import { estimateForResult } from '../estimates/estimate-result.js';

export interface AnalysisDeps {
  db: Db;
  /** Where `inspection.completed` / `inspection.failed` events are recorded. */
  events: EmitDeps;
  storage: MediaStorage;
  pool: AnalysisPool;
  now: () => number;
  fingerprint: { distance: (a: string, b: string) => number; maxDistance: number };
  /** Media items of one inspection analysed at the same time. */
  mediaConcurrency: number;
  /** Where the media are copied while analysed: the worker's own folder under DATA_DIR, swept at start. */
  scratchDir: string;
  /** Each analyzer's time, as the analysis thread measured it (the result lists the same runs). */
  metrics: Pick<Metrics, 'analyzerRan'>;
}

export async function analyseInspection(
  deps: AnalysisDeps,
  inspectionId: string,
  signal: AbortSignal,
): Promise<'completed' | 'gone'> {
  const inspection = await deps.db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', inspectionId)
    .executeTakeFirst();
  if (!inspection) return 'gone';
  const media = await deps.db
    .selectFrom('media')
    .selectAll()
    .where('inspection_id', '=', inspectionId)
    .orderBy('position')
    .execute();
  await setStatus(deps, inspectionId, 'processing');

  const workDir = await fs.promises.mkdtemp(path.join(deps.scratchDir, 'inspection-'));
  try {
    const files = new Map<string, string>();
    const limit = pLimit(deps.mediaConcurrency);
    const inputMetaData = parseObject(inspection.input_metadata);
    const analysed = await Promise.all(
      media.map((item) =>
        limit(async () => {
          const file = await materialise(deps.storage, item, workDir);
          files.set(item.id, file);
          const itemDir = path.join(workDir, item.id);
          await fs.promises.mkdir(itemDir);
          const analysis = await deps.pool.analyseMedia(
            { path: file, mime: item.mime, kind: item.kind, inputMetaData, workDir: itemDir },
            signal,
          );
          for (const run of analysis.runs) deps.metrics.analyzerRan(run.name, run.status, run.ms / 1000);
          const thumbnailKey = await storeThumbnail(deps.storage, analysis);
          return { row: item, analysis, thumbnailKey } satisfies AnalysedMedia;
        }),
      ),
    );

    const images = analysed.flatMap((a) => {
      const dhash = a.analysis.kind === 'image' ? dhashOf(a.analysis.parts) : undefined;
      return dhash ? [{ mediaId: a.row.id, dhash }] : [];
    });
    const reuse = await findReuse(
      deps.db,
      { clientId: inspection.client_id, inspectionId, images, maxDistance: deps.fingerprint.maxDistance },
      deps.fingerprint.distance,
    );
    const pairs = await comparePairs(deps, media, files, signal);
    const keys = vehicleKeysOf(inputMetaData, analysed.map(readingsOf));
    const previous = await previousInspectionOf(deps.db, inspection, keys);
    const comparison = previous
      ? await compareWithPrevious(deps, { inspection, previous, media: analysed, files, workDir }, signal)
      : null;

    const rateCard = await getRateCard(deps.db, inspection.client_id);
    const result = buildResult({
      inspection,
      media: analysed,
      reuse,
      pairs,
      comparison,
      version: inspection.result_version + 1,
      analysedAt: deps.now(),
    });
    // A fresh analysis: what reviewers changed on an earlier version's estimate does not carry over.
    result.estimate = estimateForResult(result, rateCard);
    await saveFingerprints(deps.db, {
      clientId: inspection.client_id,
      inspectionId,
      images,
      now: deps.now(),
    });
    await inTransaction(deps.db, async (trx) => {
      result.vehicle_id = await attachVehicle(trx, {
        clientId: inspection.client_id,
        inspectionId,
        keys,
        now: deps.now(),
      });
      await storeResultVersion(trx, {
        inspection,
        result,
        origin: 'analysis',
        authorId: null,
        now: deps.now(),
      });
      await trx
        .updateTable('inspections')
        .set({ status: 'completed' })
        .where('id', '=', inspectionId)
        .execute();
      await emitEvent(trx, deps.events, {
        client: await clientOf(trx, inspection.client_id),
        type: 'inspection.completed',
        inspectionId,
        callbackUrl: inspection.callback_url,
        data: result,
      });
    });
    return 'completed';
  } finally {
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
}

/** Marks an inspection whose analysis failed for good (its job used up every attempt). */
export async function markFailed(
  deps: Pick<AnalysisDeps, 'db' | 'now' | 'events'>,
  inspectionId: string,
  reason: string,
) {
  const inspection = await deps.db
    .selectFrom('inspections')
    .select(['client_id', 'case_id', 'callback_url'])
    .where('id', '=', inspectionId)
    .executeTakeFirst();
  if (!inspection) return;
  const failure = {
    inspection_id: inspectionId,
    case_id: inspection.case_id,
    status: 'failed',
    error: reason,
  };
  await inTransaction(deps.db, async (trx) => {
    await trx
      .updateTable('inspections')
      .set({ status: 'failed', result: JSON.stringify(failure), updated_at: deps.now() })
      .where('id', '=', inspectionId)
      .execute();
    await emitEvent(trx, deps.events, {
      client: await clientOf(trx, inspection.client_id),
      type: 'inspection.failed',
      inspectionId,
      callbackUrl: inspection.callback_url,
      data: failure,
    });
  });
}

const clientOf = (db: Db, id: string) =>
  db
    .selectFrom('clients')
    .select(['id', 'webhook_url', 'webhook_events'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function setStatus(
  deps: Pick<AnalysisDeps, 'db' | 'now'>,
  id: string,
  status: InspectionRow['status'],
) {
  await deps.db
    .updateTable('inspections')
    .set({ status, updated_at: deps.now() })
    .where('id', '=', id)
    .execute();
}

/** Copies the media's bytes from storage to a local file the analyzers (and ffmpeg) can read. */
async function materialise(storage: MediaStorage, item: MediaRow, dir: string): Promise<string> {
  const file = path.join(dir, `${item.id}.${item.mime.split('/')[1] ?? 'bin'}`);
  await pipeline(await storage.get(item.storage_key), fs.createWriteStream(file));
  return file;
}

async function storeThumbnail(storage: MediaStorage, analysis: MediaAnalysis): Promise<string | null> {
  if (analysis.kind === 'undecodable' || !analysis.thumbnail) return null;
  return (await storage.put(Readable.from([Buffer.from(analysis.thumbnail)]))).key;
}

async function comparePairs(
  deps: AnalysisDeps,
  media: MediaRow[],
  files: Map<string, string>,
  signal: AbortSignal,
) {
  const byPair = new Map<number, MediaRow[]>();
  for (const item of media) {
    if (item.pair_index === null) continue;
    byPair.set(item.pair_index, [...(byPair.get(item.pair_index) ?? []), item]);
  }
  const pairs = [];
  for (const [index, members] of [...byPair.entries()].sort((a, b) => a[0] - b[0])) {
    const [a, b] = members.sort((x, y) => (x.pair_member ?? 0) - (y.pair_member ?? 0));
    if (!a || !b) continue;
    try {
      const comparison = await deps.pool.comparePair(
        { path: files.get(a.id)!, mime: a.mime },
        { path: files.get(b.id)!, mime: b.mime },
        signal,
      );
      pairs.push({ index, media_ids: [a.id, b.id], comparison, error: null });
    } catch (error) {
      if (signal.aborted) throw error;
      pairs.push({ index, media_ids: [a.id, b.id], comparison: null, error: (error as Error).message });
    }
  }
  return pairs;
}

/** A media item's text readings, as the vehicle's keys are taken from them. */
const readingsOf = (item: AnalysedMedia) => ({
  analysis: item.analysis.kind === 'image' ? item.analysis.parts : {},
});

function dhashOf(parts: Record<string, unknown>): string | undefined {
  const fingerprint = parts.fingerprint as { dhash?: unknown } | undefined;
  return typeof fingerprint?.dhash === 'string' ? fingerprint.dhash : undefined;
}

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
