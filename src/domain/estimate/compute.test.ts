import { describe, expect, it } from 'vitest';
import { estimateOf, type EstimatedDamage } from './compute.js';
import { suggestPart, partClassOf } from './parts.js';
import { DEFAULT_RATE_CARD, type RateCard } from './rate-card.js';

const card: RateCard = {
  currency: 'EUR',
  labour_rate: 52,
  paint_rate: 58,
  paint_material_rate: 31,
  part_prices: { front_bumper: 410, windscreen: 450, left_front_wheel: 260, left_headlamp: 333.335 },
  total_loss_share: 0.7,
};

let next = 0;
const damage = (
  part: string | null,
  type: string,
  severity: EstimatedDamage['severity'],
  share = 0.005,
): EstimatedDamage => ({ id: `m1:${next++}`, part, part_source: 'model', type, severity, share });

const only = (damages: EstimatedDamage[], c: RateCard = card, vehicleValue: number | null = null) =>
  estimateOf({ damages, card: c, cardVersion: 3, vehicleValue });

describe('estimateOf: operations', () => {
  it.each([
    // part, type, severity, share of the vehicle box, operation, labour h, paint h, parts cost
    ['front_bumper', 'scratch', 'minor', 0.005, 'polish', 0.5, 0, 0],
    ['front_bumper', 'scratch', 'moderate', 0.02, 'smart_repair', 1, 0.5, 0],
    ['front_bumper', 'scratch', 'severe', 0.02, 'repair_and_paint', 2, 2.5, 0],
    ['front_bumper', 'crack', 'moderate', 0.02, 'replace_and_paint', 1.5, 3, 410],
    ['left_front_door', 'dent', 'minor', 0.01, 'paintless_repair', 1.5, 0, 0],
    ['left_front_door', 'dent', 'moderate', 0.01, 'repair_and_paint', 3, 2.5, 0],
    ['bonnet', 'dent', 'severe', 0.15, 'replace_and_paint', 2.5, 4, 0],
    ['windscreen', 'crack', 'minor', 0.005, 'glass_repair', 0.8, 0, 0],
    ['windscreen', 'crack', 'moderate', 0.005, 'replace', 2, 0, 450],
    ['left_front_wheel', 'scratch', 'moderate', 0.01, 'wheel_refurbish', 1.5, 0, 0],
    ['left_front_wheel', 'crack', 'minor', 0.01, 'replace', 0.5, 0, 260],
    ['left_mirror', 'broken', 'moderate', 0.005, 'replace', 0.7, 0, 0],
    ['right_tail_lamp', 'scratch', 'minor', 0.001, 'replace', 0.8, 0, 0],
  ] as const)(
    '%s %s %s (%f of the box): %s',
    (part, type, severity, share, operation, labour, paint, parts) => {
      const [line] = only([damage(part, type, severity, share)]).lines;
      expect(line).toMatchObject({
        part,
        operation,
        labour_hours: labour,
        paint_hours: paint,
        parts_cost: parts,
      });
    },
  );

  it('makes one line of several damages on one part: the heaviest operation, its hours once', () => {
    const estimate = only([
      damage('front_bumper', 'scratch', 'minor'),
      damage('front_bumper', 'dent', 'moderate'),
      damage('front_bumper', 'scratch', 'moderate', 0.02),
      damage('bonnet', 'scratch', 'minor'),
    ]);
    expect(estimate.lines).toHaveLength(2);
    const bumper = estimate.lines[0]!;
    expect(bumper).toMatchObject({ operation: 'repair_and_paint', labour_hours: 2, paint_hours: 2.5 });
    expect(bumper.damage_ids).toHaveLength(3);
    // 2 h × 52 + 2.5 h × (58 + 31)
    expect(bumper).toMatchObject({ labour_cost: 104, paint_cost: 222.5, parts_cost: 0, total: 326.5 });
  });

  it('prices a replaced part by its name, or its name without the side, and says when the card has none', () => {
    const estimate = only([
      damage('right_front_bumper', 'missing', 'severe'),
      damage('left_mirror', 'broken', 'severe'),
    ]);
    expect(estimate.lines.map((l) => [l.parts_cost, l.price_missing])).toEqual([
      [410, false],
      [0, true],
    ]);
  });

  it("puts a client's own rules before the defaults, and its own hours", () => {
    const own: RateCard = {
      ...card,
      rules: {
        operations: [{ types: ['scratch'], operation: 'repair_and_paint' }],
        hours: { repair_and_paint: { bumper: { labour: 1, paint: 1 } } },
      },
    };
    const [line] = only([damage('front_bumper', 'scratch', 'minor')], own).lines;
    expect(line).toMatchObject({ operation: 'repair_and_paint', labour_hours: 1, paint_hours: 1 });
  });
});

describe('estimateOf: money', () => {
  it('rounds each figure to the minor unit, and the totals are the sums of the rounded lines', () => {
    const odd: RateCard = { ...card, labour_rate: 33.333, paint_rate: 10.005, paint_material_rate: 0 };
    const estimate = only(
      [
        damage('front_bumper', 'scratch', 'severe'),
        damage('left_front_door', 'dent', 'moderate'),
        damage('left_headlamp', 'broken', 'minor'),
      ],
      odd,
    );
    for (const line of estimate.lines) {
      for (const figure of [line.labour_cost, line.paint_cost, line.parts_cost, line.total])
        expect(Math.round(figure * 100)).toBeCloseTo(figure * 100, 9);
      expect(cents(line.total)).toBe(
        cents(line.labour_cost) + cents(line.paint_cost) + cents(line.parts_cost),
      );
    }
    const sum = (pick: (l: (typeof estimate.lines)[number]) => number) =>
      estimate.lines.reduce((n, l) => n + cents(pick(l)), 0);
    expect(cents(estimate.labour_total)).toBe(sum((l) => l.labour_cost));
    expect(cents(estimate.paint_total)).toBe(sum((l) => l.paint_cost));
    expect(cents(estimate.parts_total)).toBe(sum((l) => l.parts_cost));
    expect(cents(estimate.total)).toBe(sum((l) => l.total));
    // 2 h × 33.333 = 66.666 → 66.67; the headlamp's 333.335 → 333.34 (not 333.33 from binary floats).
    expect(estimate.lines[0]!.labour_cost).toBe(66.67);
    expect(estimate.lines[2]!.parts_cost).toBe(333.34);
  });

  it('counts yen in whole units: JPY has no minor unit', () => {
    const yen: RateCard = {
      ...card,
      currency: 'JPY',
      labour_rate: 7777.7,
      paint_rate: 5000.4,
      paint_material_rate: 0.3,
    };
    const estimate = only([damage('front_bumper', 'scratch', 'severe')], yen);
    // 2 h × 7777.7 = 15555.4 → 15555; 2.5 h × 5000.7 = 12501.75 → 12502
    expect(estimate.lines[0]).toMatchObject({ labour_cost: 15555, paint_cost: 12502, total: 28057 });
    expect(estimate.total).toBe(28057);
    expect(estimate.currency).toBe('JPY');
  });

  it('is a total loss above the card share of the vehicle value, and says nothing without a value', () => {
    const damages = [damage('front_bumper', 'crack', 'severe')]; // 1.5 × 52 + 3 × 89 + 410 = 755
    expect(only(damages, card, 1000).total_loss).toBe(true);
    expect(only(damages, card, 1100).total_loss).toBe(false);
    expect(only(damages, card, null).total_loss).toBeNull();
  });
});

describe('estimateOf: what a reviewer changed', () => {
  const damages = () => [damage('front_bumper', 'scratch', 'severe'), damage('bonnet', 'dent', 'minor')];

  it('keeps what the rules gave beside a changed line, takes out a removed one, and adds a new one', () => {
    const estimate = estimateOf({
      damages: damages(),
      card,
      cardVersion: 1,
      vehicleValue: null,
      adjustments: [
        { part: 'front_bumper', operation: 'replace_and_paint' },
        { part: 'bonnet', removed: true },
        { part: 'grille', added: true, operation: 'replace', parts_cost: 99.99 },
      ],
    });
    expect(estimate.lines.map((l) => [l.part, l.operation, l.source])).toEqual([
      ['front_bumper', 'replace_and_paint', 'reviewer'],
      ['grille', 'replace', 'reviewer'],
    ]);
    expect(estimate.lines[0]).toMatchObject({
      labour_hours: 1.5,
      paint_hours: 3,
      parts_cost: 410,
      rules: { operation: 'repair_and_paint', labour_hours: 2, paint_hours: 2.5, parts_cost: 0 },
    });
    expect(estimate.lines[1]).toMatchObject({ parts_cost: 99.99, rules: null, damage_ids: [] });
  });
});

describe('parts', () => {
  it('tells a class from free text', () => {
    expect(
      ['rear bumper', 'Windscreen', 'left_tail_lamp', 'wing', 'Tailgate', 'rim'].map(partClassOf),
    ).toEqual(['bumper', 'glass', 'lamp', 'panel', 'large_panel', 'wheel']);
  });

  it('suggests the part under a damage from the view and its place in the vehicle box', () => {
    const vehicle = { x: 0.1, y: 0.2, width: 0.8, height: 0.6 };
    const at = (x: number, y: number) => ({
      x: 0.1 + x * 0.8 - 0.01,
      y: 0.2 + y * 0.6 - 0.01,
      width: 0.02,
      height: 0.02,
    });
    expect(suggestPart('front', at(0.5, 0.85), vehicle)).toBe('front_bumper');
    expect(suggestPart('front', at(0.1, 0.6), vehicle)).toBe('right_headlamp');
    expect(suggestPart('left', at(0.42, 0.6), vehicle)).toBe('left_front_door');
    expect(suggestPart('right', at(0.42, 0.6), vehicle)).toBe('right_rear_door');
    expect(suggestPart('left', at(0.2, 0.8), vehicle)).toBe('left_front_wheel');
    expect(suggestPart('rear_left', at(0.75, 0.85), vehicle)).toBe('rear_bumper');
    expect(suggestPart(null, at(0.5, 0.5), vehicle)).toBeNull();
    expect(suggestPart('front', { x: 0, y: 0, width: 0.05, height: 0.05 }, vehicle)).toBeNull();
  });

  it('ships a default card of example figures in EUR', () => {
    expect(DEFAULT_RATE_CARD).toMatchObject({ currency: 'EUR', labour_rate: 52, total_loss_share: 0.7 });
  });
});

const cents = (amount: number) => Math.round(amount * 100);
