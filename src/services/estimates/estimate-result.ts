// The estimate of a result (docs/estimate.md): its photos' damages with their parts (a reviewer's, the
// model's, or one suggested from the view), priced by the client's rate card, with the adjustments a
// reviewer made. Computed whenever a version of the result is built: the analysis, a review, a
// confirmed new damage.
import { estimateOf, type EstimatedDamage, type LineAdjustment } from '../../domain/estimate/compute.js';
import { suggestPart, viewOfStep, type FractionBox } from '../../domain/estimate/parts.js';
import type { EstimatePart } from '../../domain/result/estimate-part.js';
import type { InspectionResult } from '../../domain/result/index.js';
import type { StoredRateCard } from '../clients/rate-card.js';

type MediaResult = InspectionResult['media'][number];

export function estimateForResult(
  result: Pick<InspectionResult, 'media' | 'client_metadata'>,
  rateCard: StoredRateCard,
  adjustments: LineAdjustment[] = [],
): EstimatePart {
  return estimateOf({
    damages: result.media.flatMap(damagesOf),
    card: rateCard.card,
    cardVersion: rateCard.version,
    vehicleValue: vehicleValueOf(result.client_metadata.input_metadata),
    adjustments,
  }) as EstimatePart;
}

function damagesOf(item: MediaResult): EstimatedDamage[] {
  const damages = item.analysis.damage?.damages ?? [];
  const vehicle = largestVehicle(item);
  const view = viewOfStep(item.capture ? item.original_id : viewFromName(item.original_id));
  return damages.map((d, index) => {
    const suggested = d.part === null ? suggestPart(view, d.box, vehicle) : null;
    const area = d.box.width * d.box.height;
    return {
      id: `${item.id}:${index}`,
      part: d.part ?? suggested,
      part_source:
        d.part !== null ? (d.source === 'reviewer' ? 'reviewer' : 'model') : suggested ? 'suggested' : null,
      type: d.type,
      severity: d.severity,
      share: vehicle ? area / Math.max(1e-6, vehicle.width * vehicle.height) : area,
    };
  });
}

/** An upload's file name that names its view (`front.jpg`, `rear_left.jpeg`), as a capture step would. */
function viewFromName(name: string | null): string | null {
  if (name === null) return null;
  const stem = name
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, '')
    .replace(/[-\s]/g, '_');
  return viewOfStep(stem);
}

function largestVehicle(item: MediaResult): FractionBox | null {
  let best: FractionBox | null = null;
  for (const { box } of item.analysis.vehicles?.detections ?? [])
    if (!best || box.width * box.height > best.width * best.height) best = box;
  return best;
}

/** `inputMetaData.vehicleValue`, a positive number (or a string of one); null otherwise. */
function vehicleValueOf(metadata: Record<string, unknown> | null): number | null {
  const value = metadata?.vehicleValue;
  const amount = typeof value === 'string' ? Number(value) : value;
  return typeof amount === 'number' && Number.isFinite(amount) && amount > 0 ? amount : null;
}
