// The comparison of a new inspection with an earlier one of the same vehicle (docs/vehicles.md): which
// inspection, which photo with which, and what changed on each pair (in the analysis threads). Earlier
// photos are copied from storage into the job's folder one at a time per thread, like the new ones.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import type { ChangesPart, ComparisonSummary, PhotoComparison } from '../../domain/result/changes-part.js';
import type { NormalisedBox } from '../../domain/result/detection-parts.js';
import type { Db, InspectionRow } from '../../ports/database.js';
import type { AnalysisPool } from '../../ports/analysis-pool.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import type { VehicleKeys } from '../vehicles/keys.js';
import { findVehicle, latestInspectionOf, odometerOf } from '../vehicles/vehicles.js';
import { pairPhotos, type PairablePhoto } from './pair-photos.js';
import type { AnalysedMedia } from './result-builder.js';

export interface ComparisonDeps {
  db: Db;
  storage: MediaStorage;
  pool: Pick<AnalysisPool, 'compareChanges'>;
  fingerprint: { distance: (a: string, b: string) => number };
  mediaConcurrency: number;
}

export interface PreviousComparison {
  /** Each photo's `changes` part, by media id. */
  changes: Map<string, ChangesPart>;
  /** Why a pair could not be compared (an earlier photo that no longer decodes), by media id. */
  errors: Map<string, string>;
  summary: ComparisonSummary;
}

/** Region boxes and scores are published to this many decimals (the same pair, the same JSON). */
const DECIMALS = 4;

/** The inspection to compare with: the one the client named, else the vehicle's latest (if enabled). */
export async function previousInspectionOf(
  db: Db,
  inspection: InspectionRow,
  keys: VehicleKeys,
): Promise<{ row: InspectionRow; basis: ComparisonSummary['basis'] } | null> {
  const ofClient = (id: string) =>
    db
      .selectFrom('inspections')
      .selectAll()
      .where('id', '=', id)
      .where('client_id', '=', inspection.client_id)
      .executeTakeFirst();
  if (inspection.compare_with !== null) {
    const named = await ofClient(inspection.compare_with);
    return named ? { row: named, basis: 'compare_with' } : null;
  }
  const client = await db
    .selectFrom('clients')
    .select('auto_compare')
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  if (client.auto_compare !== 1) return null;
  const vehicleId = await findVehicle(db, inspection.client_id, keys);
  if (vehicleId === null) return null;
  const latest = await latestInspectionOf(db, {
    clientId: inspection.client_id,
    vehicleId,
    exceptId: inspection.id,
    before: inspection.created_at,
  });
  const row = latest === null ? undefined : await ofClient(latest);
  return row ? { row, basis: 'vehicle' } : null;
}

export async function compareWithPrevious(
  deps: ComparisonDeps,
  input: {
    inspection: InspectionRow;
    previous: { row: InspectionRow; basis: ComparisonSummary['basis'] };
    media: AnalysedMedia[];
    /** The new media's local files, by media id. */
    files: Map<string, string>;
    workDir: string;
  },
  signal: AbortSignal,
): Promise<PreviousComparison> {
  const { previous } = input;
  const earlierResult = parseResult(previous.row.result);
  const earlierMedia = await deps.db
    .selectFrom('media')
    .select(['id', 'original_id', 'storage_key', 'mime', 'kind'])
    .where('inspection_id', '=', previous.row.id)
    .where('client_id', '=', previous.row.client_id)
    .orderBy('position')
    .execute();
  // The earlier inspection's published result holds each photo's dHash (none before it completed).
  const earlierHashes = new Map(
    earlierResult.media.map((m) => [m.id, m.analysis?.fingerprint?.dhash ?? null]),
  );
  const pairs = pairPhotos(
    input.media.map(pairable),
    earlierMedia.map((m) => ({
      id: m.id,
      originalId: m.original_id,
      dhash: earlierHashes.get(m.id) ?? null,
    })),
    {
      byStep: input.inspection.source === 'link' && previous.row.source === 'link',
      distance: deps.fingerprint.distance,
    },
  );

  const limit = pLimit(deps.mediaConcurrency);
  const folder = path.join(input.workDir, 'previous');
  await fs.promises.mkdir(folder, { recursive: true });
  const changes = new Map<string, ChangesPart>();
  const errors = new Map<string, string>();
  await Promise.all(
    input.media.map((item) =>
      limit(async () => {
        if (item.analysis.kind !== 'image') return;
        const base = { previous_inspection_id: previous.row.id, regions: [] };
        const counterpart = earlierMedia.find((m) => m.id === pairs.get(item.row.id));
        if (!counterpart) {
          changes.set(item.row.id, { ...base, status: 'no_counterpart', previous_media_id: null });
          return;
        }
        const before = path.join(folder, counterpart.id);
        let comparison: PhotoComparison;
        try {
          await pipeline(await deps.storage.get(counterpart.storage_key), fs.createWriteStream(before));
          comparison = await deps.pool.compareChanges(
            {
              before: { path: before, mime: counterpart.mime },
              after: { path: input.files.get(item.row.id)!, mime: item.row.mime },
              vehicle: vehicleBoxOf(item.analysis.parts),
            },
            signal,
          );
        } catch (error) {
          // The same pair would fail again: reported on the photo, and nothing is claimed for it.
          if (signal.aborted) throw error;
          errors.set(item.row.id, (error as Error).message);
          comparison = { status: 'not_aligned', inliers: 0 };
        } finally {
          await fs.promises.rm(before, { force: true });
        }
        changes.set(item.row.id, {
          ...base,
          status: comparison.status,
          previous_media_id: counterpart.id,
          regions:
            comparison.status === 'compared'
              ? comparison.regions.map((r) => ({
                  box: {
                    x: round(r.box.x),
                    y: round(r.box.y),
                    width: round(r.box.width),
                    height: round(r.box.height),
                  },
                  score: round(r.score),
                }))
              : [],
        });
      }),
    ),
  );
  const parts = [...changes.values()];
  const count = (status: ChangesPart['status']) => parts.filter((p) => p.status === status).length;
  return {
    changes,
    errors,
    summary: {
      previous_inspection_id: previous.row.id,
      basis: previous.basis,
      pairs: count('compared') + count('not_aligned'),
      compared: count('compared'),
      not_aligned: count('not_aligned'),
      no_counterpart: count('no_counterpart'),
      regions: parts.reduce((n, p) => n + p.regions.length, 0),
      odometer: odometers(earlierResult, input.media),
    },
  };
}

/** Both odometer readings, when they are in one unit (or neither shows its unit). */
function odometers(earlier: EarlierResult, media: AnalysedMedia[]): ComparisonSummary['odometer'] {
  const before = odometerOf(earlier);
  const now = odometerOf({
    media: media.map((m) => ({ analysis: m.analysis.kind === 'image' ? m.analysis.parts : {} })),
  });
  if (!before || !now || before.unit !== now.unit) return null;
  return { previous: before.read, current: now.read, unit: now.unit };
}

function pairable(item: AnalysedMedia): PairablePhoto {
  const parts = item.analysis.kind === 'image' ? item.analysis.parts : {};
  const dhash = (parts.fingerprint as { dhash?: string } | undefined)?.dhash ?? null;
  return { id: item.row.id, originalId: item.row.original_id, dhash };
}

/** The largest vehicle the detector found, or null (then the whole photo is compared). */
function vehicleBoxOf(parts: Record<string, unknown>): NormalisedBox | null {
  const detections =
    (parts.vehicles as { detections?: { box: NormalisedBox }[] } | undefined)?.detections ?? [];
  let best: NormalisedBox | null = null;
  for (const { box } of detections)
    if (!best || box.width * box.height > best.width * best.height) best = box;
  return best;
}

interface EarlierResult {
  media: {
    id: string;
    analysis?: {
      fingerprint?: { dhash?: string };
      text?: { odometer?: { read?: number | null; unit?: 'km' | 'mi' | null } };
    };
  }[];
}

function parseResult(text: string | null): EarlierResult {
  const value = text === null ? null : (JSON.parse(text) as Partial<EarlierResult> | null);
  return { media: Array.isArray(value?.media) ? value.media : [] };
}

const round = (n: number) => Number(n.toFixed(DECIMALS));
