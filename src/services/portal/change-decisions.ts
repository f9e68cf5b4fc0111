// A reviewer's verdict on a candidate new damage (docs/vehicles.md#confirming-new-damage): confirmed, it
// becomes a damage of the photo with `new: true` and the previous inspection's id (so it reaches the
// label export, the PDF and the share page like every damage); dismissed, it stays listed as dismissed.
// Either way a new version of the result, sent and audited like every review. Nothing is charged here.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import type { ChangesPart } from '../../domain/result/changes-part.js';
import { SEVERITIES, type Damage } from '../../domain/result/damage-part.js';
import type { InspectionResult } from '../../domain/result/index.js';
import { inTransaction } from '../../ports/database.js';
import { requireChange } from './access.js';
import { damageFlags, reviewedVersion, storeReviewedVersion, type ReviewDeps } from './review.js';
import type { PortalCaller } from './sessions.js';

export const ChangeDecisionInput = Type.Object(
  {
    base_version: Type.Integer({ minimum: 1, description: 'The version the reviewer looked at.' }),
    media_id: Type.String({ minLength: 1, maxLength: 128 }),
    region: Type.Integer({
      minimum: 0,
      description: "The candidate's index in the photo's `changes.regions`.",
    }),
    decision: Type.Union([Type.Literal('confirmed'), Type.Literal('dismissed')]),
    damage: Type.Optional(
      Type.Object(
        {
          part: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
          type: Type.String({ minLength: 1, maxLength: 64 }),
          severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
        },
        { additionalProperties: false, description: 'Required to confirm: what the damage is.' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ChangeDecisionInput = Static<typeof ChangeDecisionInput>;

type MediaResult = InspectionResult['media'][number];

export async function decideChange(
  deps: ReviewDeps,
  caller: PortalCaller,
  inspectionId: string,
  input: ChangeDecisionInput,
): Promise<{ version: number }> {
  requireChange(caller);
  return inTransaction(deps.db, async (trx) => {
    const { inspection, base } = await reviewedVersion(trx, caller, inspectionId, input.base_version);
    const item = base.media.find((m) => m.id === input.media_id);
    if (!item) throw invalid(`no media item ${input.media_id}`);
    const media = base.media.map((m) => (m === item ? decided(m, input) : m));
    return storeReviewedVersion(trx, deps, caller, {
      inspection,
      base,
      media,
      decision: base.review?.decision ?? null,
      note: base.review?.note ?? null,
      now: deps.now(),
    });
  });
}

/** The photo with the candidate decided, and its flags as they now stand. */
function decided(item: MediaResult, input: ChangeDecisionInput): MediaResult {
  const changes = item.analysis.changes;
  const region = changes?.regions[input.region];
  if (!changes || !region) throw invalid(`no candidate region ${input.region} on this photo`);
  if (region.decision) throw invalid(`the candidate was already ${region.decision}`);
  const regions = changes.regions.map((r) => (r === region ? { ...r, decision: input.decision } : r));
  const analysis: MediaResult['analysis'] = { ...item.analysis, changes: { ...changes, regions } };
  if (input.decision === 'confirmed') {
    if (!input.damage) throw invalid('a confirmed candidate needs its part, type and severity');
    const damage: Damage = {
      ...input.damage,
      confidence: 1,
      box: region.box,
      source: 'reviewer',
      new: true,
      previous_inspection_id: changes.previous_inspection_id,
    };
    const before = item.analysis.damage;
    analysis.damage = {
      status: 'reviewed',
      model: before?.model ?? null,
      damages: [...(before?.damages ?? []), damage],
    };
  }
  const flags = damageFlags(
    item.flags.filter((flag) => flag !== 'possible_new_damage'),
    analysis,
  );
  if (undecided(analysis.changes)) flags.push('possible_new_damage');
  return { ...item, analysis, flags };
}

const undecided = (changes: ChangesPart | undefined) => changes?.regions.some((r) => !r.decision) ?? false;

const invalid = (reason: string) => new AppError('PORTAL_REVIEW_INVALID', { params: { reason } });
