// The repair estimate of an inspection (docs/estimate.md): each damage's operation from the rules, one
// line per part (the heaviest operation of its damages, its hours counted once), costs from the rate card
// rounded to the currency's minor unit, and totals that are the sums of the rounded lines. Money is
// counted in minor units (integers) so that the sums add up exactly. Pure.
import { partClassOf, type PartClass } from './parts.js';
import { minorDigits, type RateCard } from './rate-card.js';
import {
  CLASS_SHARE,
  DEFAULT_HOURS,
  DEFAULT_OPERATION_RULES,
  OPERATIONS,
  REPLACES,
  sizeOf,
  type Hours,
  type Operation,
  type OperationRule,
} from './rules.js';

export interface EstimatedDamage {
  /** `<media id>:<index in its damage list>`. */
  id: string;
  part: string | null;
  part_source: 'reviewer' | 'model' | 'suggested' | null;
  type: string;
  severity: 'minor' | 'moderate' | 'severe';
  /** The damage box's area as a share of the vehicle's box (of the photo when no vehicle was found). */
  share: number;
}

/** What a reviewer changed on a line (docs/estimate.md#changing-the-estimate), by part. */
export interface LineAdjustment {
  part: string;
  operation?: Operation;
  labour_hours?: number;
  paint_hours?: number;
  parts_cost?: number;
  /** A line the reviewer added (no damage behind it). */
  added?: boolean;
  /** The rules' line the reviewer took out. */
  removed?: boolean;
}

export interface EstimateLine {
  part: string | null;
  part_source: EstimatedDamage['part_source'];
  damage_ids: string[];
  operation: Operation;
  labour_hours: number;
  labour_cost: number;
  paint_hours: number;
  paint_cost: number;
  parts_cost: number;
  total: number;
  /** A replaced part the card has no price for (priced at 0). */
  price_missing: boolean;
  /** What the rules gave, when a reviewer changed the line; null when unchanged (or added by them). */
  rules: { operation: Operation; labour_hours: number; paint_hours: number; parts_cost: number } | null;
  source: 'rules' | 'reviewer';
}

export interface Estimate {
  currency: string;
  rate_card_version: number;
  lines: EstimateLine[];
  labour_total: number;
  paint_total: number;
  parts_total: number;
  total: number;
  vehicle_value: number | null;
  total_loss: boolean | null;
  adjustments: LineAdjustment[];
}

const rank = (operation: Operation) => OPERATIONS.indexOf(operation);

function matches(rule: OperationRule, cls: PartClass, damage: EstimatedDamage): boolean {
  const size = sizeOf(damage.share / CLASS_SHARE[cls]);
  return (
    (!rule.classes || rule.classes.includes(cls)) &&
    (!rule.types || rule.types.includes(damage.type.toLowerCase())) &&
    (!rule.severities || rule.severities.includes(damage.severity)) &&
    (!rule.sizes || rule.sizes.includes(size))
  );
}

export function operationOf(card: RateCard, cls: PartClass, damage: EstimatedDamage): Operation {
  const rules = [...(card.rules?.operations ?? []), ...DEFAULT_OPERATION_RULES];
  return rules.find((rule) => matches(rule, cls, damage))?.operation ?? 'repair_and_paint';
}

export function hoursOf(card: RateCard, operation: Operation, cls: PartClass): Hours {
  const table: Partial<Record<Operation, Partial<Record<PartClass, Hours>>>> | undefined = card.rules?.hours;
  return table?.[operation]?.[cls] ?? DEFAULT_HOURS[operation][cls] ?? { labour: 0, paint: 0 };
}

/** The price of a part: the card's for its name, else for its name without the side (`left_`, `right_`). */
function priceOf(card: RateCard, part: string | null): number | undefined {
  if (part === null) return undefined;
  return card.part_prices[part] ?? card.part_prices[part.replace(/^(left|right)_/, '')];
}

const hoursRounded = (hours: number) => Math.round(hours * 100) / 100;

export function estimateOf(input: {
  damages: EstimatedDamage[];
  card: RateCard;
  cardVersion: number;
  vehicleValue: number | null;
  adjustments?: LineAdjustment[];
}): Estimate {
  const { card } = input;
  const minor = 10 ** minorDigits(card.currency);
  const toMinor = (amount: number) => Math.round(Number((amount * minor).toFixed(6)));
  const adjustments = input.adjustments ?? [];

  // One group per part; damages with no part at all are priced one by one.
  const groups = new Map<string, EstimatedDamage[]>();
  for (const damage of input.damages) {
    const key = damage.part ?? `\u0000${damage.id}`;
    groups.set(key, [...(groups.get(key) ?? []), damage]);
  }
  type Draft = Omit<EstimateLine, 'labour_cost' | 'paint_cost' | 'total'> & { partsMinor: number };
  const drafts: Draft[] = [];
  for (const damages of groups.values()) {
    const first = damages[0]!;
    const cls = partClassOf(first.part ?? 'panel');
    const operation = damages
      .map((d) => operationOf(card, cls, d))
      .reduce((a, b) => (rank(b) > rank(a) ? b : a));
    const hours = hoursOf(card, operation, cls);
    const price = REPLACES.includes(operation) ? priceOf(card, first.part) : 0;
    drafts.push({
      part: first.part,
      part_source: first.part_source,
      damage_ids: damages.map((d) => d.id),
      operation,
      labour_hours: hoursRounded(hours.labour),
      paint_hours: hoursRounded(hours.paint),
      parts_cost: 0,
      partsMinor: toMinor(price ?? 0),
      price_missing: price === undefined,
      rules: null,
      source: 'rules',
    });
  }
  for (const adjustment of adjustments) applyAdjustment(drafts, adjustment, card, toMinor);

  const lines = drafts
    .filter((d) => !adjustments.some((a) => a.removed && a.part === d.part && d.source === 'rules'))
    .map((d) => {
      const labour = toMinor(d.labour_hours * card.labour_rate);
      const paint = toMinor(d.paint_hours * (card.paint_rate + card.paint_material_rate));
      const { partsMinor, ...line } = d;
      return {
        line: {
          ...line,
          labour_cost: labour / minor,
          paint_cost: paint / minor,
          parts_cost: partsMinor / minor,
          total: (labour + paint + partsMinor) / minor,
        },
        minor: { labour, paint, parts: partsMinor },
      };
    });
  const sum = (pick: (m: { labour: number; paint: number; parts: number }) => number) =>
    lines.reduce((n, l) => n + pick(l.minor), 0);
  const totalMinor = sum((m) => m.labour + m.paint + m.parts);
  const value = input.vehicleValue;
  return {
    currency: card.currency,
    rate_card_version: input.cardVersion,
    lines: lines.map((l) => l.line),
    labour_total: sum((m) => m.labour) / minor,
    paint_total: sum((m) => m.paint) / minor,
    parts_total: sum((m) => m.parts) / minor,
    total: totalMinor / minor,
    vehicle_value: value,
    total_loss: value === null ? null : totalMinor > toMinor(value * card.total_loss_share),
    adjustments,
  };
}

function applyAdjustment(
  drafts: (Omit<EstimateLine, 'labour_cost' | 'paint_cost' | 'total'> & { partsMinor: number })[],
  adjustment: LineAdjustment,
  card: RateCard,
  toMinor: (amount: number) => number,
) {
  if (adjustment.removed) return;
  let line = drafts.find((d) => d.part === adjustment.part);
  if (!line) {
    if (!adjustment.added) return; // the rules' line it changed is gone (its damages were removed)
    const operation = adjustment.operation ?? 'repair_and_paint';
    const hours = hoursOf(card, operation, partClassOf(adjustment.part));
    const price = REPLACES.includes(operation) ? priceOf(card, adjustment.part) : 0;
    line = {
      part: adjustment.part,
      part_source: 'reviewer',
      damage_ids: [],
      operation,
      labour_hours: hours.labour,
      paint_hours: hours.paint,
      parts_cost: 0,
      partsMinor: toMinor(price ?? 0),
      price_missing: price === undefined,
      rules: null,
      source: 'reviewer',
    };
    drafts.push(line);
  } else if (line.source === 'rules') {
    line.rules = {
      operation: line.operation,
      labour_hours: line.labour_hours,
      paint_hours: line.paint_hours,
      parts_cost: line.partsMinor / 10 ** minorDigits(card.currency),
    };
    line.source = 'reviewer';
  }
  if (adjustment.operation !== undefined && adjustment.operation !== line.operation) {
    // A new operation brings its own hours and part price, unless the reviewer set those too.
    const hours = hoursOf(card, adjustment.operation, partClassOf(line.part ?? 'panel'));
    line.operation = adjustment.operation;
    line.labour_hours = hours.labour;
    line.paint_hours = hours.paint;
    const price = REPLACES.includes(adjustment.operation) ? priceOf(card, line.part) : 0;
    line.partsMinor = toMinor(price ?? 0);
    line.price_missing = price === undefined;
  }
  if (adjustment.labour_hours !== undefined) line.labour_hours = hoursRounded(adjustment.labour_hours);
  if (adjustment.paint_hours !== undefined) line.paint_hours = hoursRounded(adjustment.paint_hours);
  if (adjustment.parts_cost !== undefined) {
    line.partsMinor = toMinor(adjustment.parts_cost);
    line.price_missing = false;
  }
}
