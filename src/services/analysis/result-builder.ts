// Builds the published result (docs/result.md) from the analysed media, reuse matches and pair comparisons.
import type { InspectionRow, MediaRow } from '../../ports/database.js';
import type { CapturePart } from '../../domain/result/capture-part.js';
import type { InspectionResult } from '../../domain/result/index.js';
import { damageCount, summaryOf } from '../../domain/result/summary.js';
import type { PairPart } from '../../domain/result/video-pair-parts.js';
import type { MediaAnalysis } from '../../ports/analysis-pool.js';
import type { AnalyzerRun } from '../../ports/analysis-pool.js';
import { captureParts, FAR_FROM_OTHERS_METRES } from './capture-parts.js';
import type { ReuseMatch } from './reuse.js';
import type { PreviousComparison } from './compare-previous.js';
import type { ChangesPart, ComparisonSummary } from '../../domain/result/changes-part.js';

export interface AnalysedMedia {
  row: MediaRow;
  analysis: MediaAnalysis;
  thumbnailKey: string | null;
}

export interface PairComparison {
  index: number;
  media_ids: string[];
  comparison: unknown;
  error: string | null;
}

export function buildResult(input: {
  inspection: InspectionRow;
  media: AnalysedMedia[];
  reuse: Map<string, ReuseMatch[]>;
  pairs: PairComparison[];
  /** The comparison with an earlier inspection of the vehicle; null when there was none. */
  comparison: PreviousComparison | null;
  version: number;
  analysedAt: number;
}): InspectionResult {
  const { inspection } = input;
  // Only media captured behind a link have capture facts; an API upload's items carry no such part.
  const captures =
    inspection.source === 'link'
      ? captureParts(input.media.map((m) => m.row))
      : new Map<string, CapturePart>();
  const rollback = isRollback(input.comparison?.summary.odometer ?? null);
  const media = input.media.map((m) =>
    mediaResult(m, input.reuse.get(m.row.id) ?? [], captures.get(m.row.id), {
      changes: input.comparison?.changes.get(m.row.id),
      changesError: input.comparison?.errors.get(m.row.id),
      rollback,
    }),
  );
  return {
    inspection_id: inspection.id,
    case_id: inspection.case_id,
    status: 'completed',
    version: input.version,
    source: inspection.source,
    client_metadata: {
      input_metadata: parseJson(inspection.input_metadata) as Record<string, unknown> | null,
      agent_id: inspection.agent_id,
      agent_name: inspection.agent_name,
      email_id: inspection.email_id,
    },
    created_at: new Date(inspection.created_at).toISOString(),
    analysed_at: new Date(input.analysedAt).toISOString(),
    analyzers: analyzersThatRan(input.media),
    media,
    pairs: input.pairs.map((p) => ({
      index: p.index,
      media_ids: p.media_ids,
      ...(p.comparison === null ? { error: p.error } : { comparison: p.comparison as PairPart }),
    })),
    vehicle_id: null,
    comparison: input.comparison?.summary ?? null,
    summary: summaryOf(media),
  };
}

type MediaResult = InspectionResult['media'][number];

/** A lower odometer than at the previous inspection: wound back, or another vehicle. */
const isRollback = (odometer: ComparisonSummary['odometer']) =>
  odometer !== null && odometer.current < odometer.previous;

function mediaResult(
  m: AnalysedMedia,
  matches: ReuseMatch[],
  capture: CapturePart | undefined,
  since: { changes: ChangesPart | undefined; changesError: string | undefined; rollback: boolean },
): MediaResult {
  const { row, analysis } = m;
  const errors = runsOf(analysis)
    .filter((r) => r.status !== 'ok')
    .map((r) => ({ analyzer: r.name, message: r.error ?? r.status }))
    .concat(since.changesError ? [{ analyzer: 'changes', message: since.changesError }] : []);
  const parts: Record<string, unknown> =
    analysis.kind === 'image'
      ? { ...analysis.parts }
      : analysis.kind === 'video'
        ? { video: analysis.video }
        : {};
  if (parts.fingerprint) parts.fingerprint = { ...parts.fingerprint, matches };
  if (since.changes) parts.changes = since.changes;
  return {
    id: row.id,
    position: row.position,
    kind: row.kind,
    original_id: row.original_id,
    source_url: row.source_url,
    pair_index: row.pair_index,
    sha256: row.sha256,
    bytes: row.bytes,
    mime: row.mime,
    // An undecodable file has no size we could trust: 0 × 0, with the `undecodable` flag.
    width: analysis.kind === 'undecodable' ? 0 : analysis.width,
    height: analysis.kind === 'undecodable' ? 0 : analysis.height,
    duration_seconds: analysis.kind === 'video' ? analysis.durationSeconds : null,
    thumbnail_key: m.thumbnailKey,
    // Each part was produced by the analyzer that owns its schema; the result is validated as a whole.
    analysis: parts,
    ...(capture && { capture }),
    errors,
    flags: [
      ...(analysis.kind === 'undecodable' ? ['undecodable'] : []),
      ...flagsOf(parts, matches),
      ...captureFlagsOf(capture),
      ...(since.rollback && readsOdometer(parts) ? ['odometer_rollback'] : []),
    ],
  };
}

/** The fraud signals of the capture app's facts (docs/result.md#the-capture-part). */
function captureFlagsOf(capture: CapturePart | undefined): string[] {
  const flags: string[] = [];
  if (capture?.source === 'gallery') flags.push('picked_from_gallery');
  const distance = capture?.distance_from_others_m ?? null;
  if (distance !== null && distance > FAR_FROM_OTHERS_METRES) flags.push('captured_far_from_others');
  return flags;
}

/** The flags of one media item, from its parts (each rule reads one analyzer's part). */
function flagsOf(parts: Record<string, unknown>, matches: ReuseMatch[]): string[] {
  const flags: string[] = [];
  const quality = parts.quality as
    | {
        blur?: { pass?: boolean };
        exposure?: { pass?: boolean; state?: string };
        resolution?: { pass?: boolean };
      }
    | undefined;
  if (quality?.blur?.pass === false) flags.push('blurry');
  if (quality?.exposure?.pass === false)
    flags.push(quality.exposure.state === 'dark' ? 'dark' : 'overexposed');
  if (quality?.resolution?.pass === false) flags.push('low_resolution');
  if ((parts.exif as { edited?: boolean } | undefined)?.edited) flags.push('edited');
  if ((parts.vehicles as { present?: boolean } | undefined)?.present === false) flags.push('no_vehicle');
  flags.push(...((parts.text as { flags?: string[] } | undefined)?.flags ?? []));
  if (matches.length > 0) flags.push('reused');
  if (damageCount(parts) > 0) flags.push('damage');
  if (((parts.changes as ChangesPart | undefined)?.regions.length ?? 0) > 0)
    flags.push('possible_new_damage');
  return flags;
}

const readsOdometer = (parts: Record<string, unknown>) =>
  typeof (parts.text as { odometer?: { read?: unknown } } | undefined)?.odometer?.read === 'number';

const runsOf = (analysis: MediaAnalysis): AnalyzerRun[] => analysis.runs;

function analyzersThatRan(media: AnalysedMedia[]): InspectionResult['analyzers'] {
  const seen = new Map<string, { name: string; version: string; ok: number; failed: number }>();
  for (const m of media)
    for (const run of runsOf(m.analysis)) {
      const entry = seen.get(run.name) ?? { name: run.name, version: run.version, ok: 0, failed: 0 };
      if (run.status === 'ok') entry.ok++;
      else entry.failed++;
      seen.set(run.name, entry);
    }
  return [...seen.values()];
}

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
