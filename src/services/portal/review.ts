// A review in the portal (docs/portal.md#reviewing): a client admin or operator accepts or rejects the
// inspection and corrects the damages on its photos. It is saved as a new version of the result (the
// earlier ones stay readable), keeps who reviewed and when, and sends `inspection.reviewed` to the
// client's webhook with the new result, in one transaction.
import { Type, type Static } from '@sinclair/typebox';
import { portalActor, recordAudit } from '../audit.js';
import { AppError } from '../../domain/errors.js';
import type { Damage } from '../../domain/result/damage-part.js';
import type { InspectionResult, ReviewPart } from '../../domain/result/index.js';
import { LineAdjustment } from '../../domain/result/estimate-part.js';
import { getRateCard } from '../clients/rate-card.js';
import { estimateForResult } from '../estimates/estimate-result.js';
import { damageCount, summaryOf } from '../../domain/result/summary.js';
import { inTransaction, type Db, type InspectionRow } from '../../ports/database.js';
import { storeResultVersion } from '../results/store-result.js';
import { emitEvent, type EmitDeps } from '../webhooks/events.js';
import { requireChange, visibleInspection } from './access.js';
import type { PortalCaller } from './sessions.js';

/**
 * A review as the reviewer sends it: the version they looked at (saving fails when another came since),
 * the decision, a note, and the damages of each photo they changed, as they left them (photos not named
 * keep theirs).
 */
export const ReviewInput = Type.Object(
  {
    base_version: Type.Integer({ minimum: 1 }),
    decision: Type.Union([Type.Literal('accepted'), Type.Literal('rejected'), Type.Null()]),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    damages: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(
          Type.Object(
            {
              part: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
              type: Type.String({ minLength: 1, maxLength: 64 }),
              severity: Type.Union([Type.Literal('minor'), Type.Literal('moderate'), Type.Literal('severe')]),
              box: Type.Object(
                {
                  x: Type.Number({ minimum: 0, maximum: 1 }),
                  y: Type.Number({ minimum: 0, maximum: 1 }),
                  width: Type.Number({ minimum: 0, maximum: 1 }),
                  height: Type.Number({ minimum: 0, maximum: 1 }),
                },
                { additionalProperties: false },
              ),
              confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
              source: Type.Optional(Type.Union([Type.Literal('model'), Type.Literal('reviewer')])),
              new: Type.Optional(Type.Literal(true)),
              previous_inspection_id: Type.Optional(Type.String({ maxLength: 128 })),
            },
            { additionalProperties: false },
          ),
          { maxItems: 100 },
        ),
        { description: 'Per media id, the damages as the reviewer left them.' },
      ),
    ),
    estimate_adjustments: Type.Optional(
      Type.Array(LineAdjustment, {
        maxItems: 200,
        description:
          "Every change the reviewer made to the estimate's lines (replacing the earlier ones); absent: keep them.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewInput = Static<typeof ReviewInput>;
type ReviewedDamage = NonNullable<ReviewInput['damages']>[string][number];

export type ReviewDeps = EmitDeps & { db: Db };

export async function saveReview(
  deps: ReviewDeps,
  caller: PortalCaller,
  inspectionId: string,
  input: ReviewInput,
): Promise<{ version: number }> {
  requireChange(caller);
  return inTransaction(deps.db, async (trx) => {
    const { inspection, base } = await reviewedVersion(trx, caller, inspectionId, input.base_version);
    const now = deps.now();
    const media = base.media.map((item) => {
      const changed = input.damages?.[item.id];
      return changed === undefined ? item : withDamages(item, changed);
    });
    for (const id of Object.keys(input.damages ?? {}))
      if (!base.media.some((item) => item.id === id))
        throw new AppError('PORTAL_REVIEW_INVALID', { params: { reason: `no media item ${id}` } });
    return storeReviewedVersion(trx, deps, caller, {
      inspection,
      base,
      media,
      decision: input.decision,
      note: input.note?.trim() || null,
      adjustments: input.estimate_adjustments,
      now,
    });
  });
}

/**
 * The inspection and its latest result, which a reviewer changes: NOT_FOUND when the caller may not see
 * it, PORTAL_NOT_ANALYSED before a result, PORTAL_REVIEW_STALE when `baseVersion` is no longer the latest.
 */
export async function reviewedVersion(
  trx: Db,
  caller: PortalCaller,
  inspectionId: string,
  baseVersion: number,
): Promise<{ inspection: InspectionRow; base: InspectionResult }> {
  const inspection = await visibleInspection(trx, caller, inspectionId);
  if (inspection.result === null || inspection.status !== 'completed')
    throw new AppError('PORTAL_NOT_ANALYSED');
  if (inspection.result_version !== baseVersion) throw new AppError('PORTAL_REVIEW_STALE');
  return { inspection, base: JSON.parse(inspection.result) as InspectionResult };
}

/**
 * Stores a reviewer's version of the result (`media` as they left it), and sends `inspection.reviewed`
 * with it and audits it, in `trx`. Every change a person makes to a result comes through here.
 */
export async function storeReviewedVersion(
  trx: Db,
  deps: ReviewDeps,
  caller: PortalCaller,
  input: {
    inspection: InspectionRow;
    base: InspectionResult;
    media: MediaResult[];
    decision: ReviewPart['decision'];
    note: string | null;
    /** What the reviewer changed on the estimate; absent: the base version's changes. */
    adjustments?: LineAdjustment[] | undefined;
    now: number;
  },
): Promise<{ version: number }> {
  const { inspection, base, media, now } = input;
  const rateCard = await getRateCard(trx, inspection.client_id);
  const adjustments = input.adjustments ?? base.estimate?.adjustments ?? [];
  const result: InspectionResult = {
    ...base,
    version: base.version + 1,
    media,
    review: {
      decision: input.decision,
      note: input.note,
      reviewer: { id: caller.userId, email: caller.email },
      reviewed_at: new Date(now).toISOString(),
      based_on_version: base.version,
    },
    summary: summaryOf(media),
  };
  // The damages may have changed: the estimate follows them, with the reviewer's changes on top.
  result.estimate = estimateForResult(result, rateCard, adjustments);
  await storeResultVersion(trx, { inspection, result, origin: 'review', authorId: caller.userId, now });
  await trx
    .updateTable('inspections')
    .set({ review_decision: input.decision, reviewed_at: now })
    .where('id', '=', inspection.id)
    .execute();
  const client = await trx
    .selectFrom('clients')
    .select(['id', 'webhook_url', 'webhook_events'])
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  await emitEvent(trx, deps, {
    client,
    type: 'inspection.reviewed',
    inspectionId: inspection.id,
    callbackUrl: inspection.callback_url,
    data: result,
  });
  await recordAudit(trx, now, {
    actor: portalActor(caller),
    action: 'inspection.review',
    object: { type: 'inspection', id: inspection.id },
    clientId: inspection.client_id,
    before: { version: base.version, review_decision: inspection.review_decision },
    after: { version: result.version, review_decision: input.decision, note: result.review?.note ?? null },
  });
  return { version: result.version };
}

type MediaResult = InspectionResult['media'][number];

/** The item with the reviewer's damages: unchanged ones keep the model's, the rest are the reviewer's. */
function withDamages(item: MediaResult, reviewed: ReviewedDamage[]): MediaResult {
  if (item.kind !== 'image')
    throw new AppError('PORTAL_REVIEW_INVALID', { params: { reason: 'damages are drawn on photos only' } });
  const before = item.analysis.damage;
  const previous = before?.damages ?? [];
  const damages = reviewed.map((damage): Damage => {
    checkBox(damage.box);
    const same = previous.find((p) => sameDamage(p, damage));
    return same ?? { ...damage, confidence: 1, source: 'reviewer' };
  });
  const analysis = {
    ...item.analysis,
    damage: {
      status: 'reviewed' as const,
      model: before?.model ?? null,
      damages,
    },
  };
  return { ...item, analysis, flags: damageFlags(item.flags, analysis) };
}

/** The item's flags with `damage` and `new_damage` as its damages now say. */
export function damageFlags(flags: string[], analysis: MediaResult['analysis']): string[] {
  const kept = flags.filter((flag) => flag !== 'damage' && flag !== 'new_damage');
  if (damageCount(analysis) > 0) kept.push('damage');
  if (analysis.damage?.damages.some((d) => d.new)) kept.push('new_damage');
  return kept;
}

export function checkBox(box: Damage['box']): void {
  const inside =
    box.width > 0 && box.height > 0 && box.x + box.width <= 1.000001 && box.y + box.height <= 1.000001;
  if (!inside)
    throw new AppError('PORTAL_REVIEW_INVALID', {
      params: { reason: 'a damage box lies outside the photo' },
    });
}

const sameDamage = (a: Damage, b: ReviewedDamage) =>
  a.part === b.part &&
  a.type === b.type &&
  a.severity === b.severity &&
  (['x', 'y', 'width', 'height'] as const).every((k) => Math.abs(a.box[k] - b.box[k]) < 1e-6);
