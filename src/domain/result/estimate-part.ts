// The result's `estimate` (docs/estimate.md): repair lines per part from the client's rate card, the
// totals, and the total-loss verdict. The figures come from domain/estimate/compute.ts.
import { Type, type Static } from '@sinclair/typebox';
import { OPERATIONS } from '../estimate/rules.js';
import { Nullable } from '../schema.js';

const Operation = Type.Union(
  OPERATIONS.map((o) => Type.Literal(o)),
  {
    description:
      'polish, paintless_repair, smart_repair, glass_repair, wheel_refurbish, repair_and_paint, replace, replace_and_paint',
  },
);
const Money = (description: string) => Type.Number({ minimum: 0, description });
const Hours = (description: string) => Type.Number({ minimum: 0, description });

export const LineAdjustment = Type.Object(
  {
    part: Type.String({ minLength: 1, maxLength: 64 }),
    operation: Type.Optional(Operation),
    labour_hours: Type.Optional(Type.Number({ minimum: 0, maximum: 200 })),
    paint_hours: Type.Optional(Type.Number({ minimum: 0, maximum: 200 })),
    parts_cost: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
    added: Type.Optional(Type.Literal(true, { description: 'A line the reviewer added.' })),
    removed: Type.Optional(Type.Literal(true, { description: "A rules' line the reviewer took out." })),
  },
  { additionalProperties: false, description: 'What a reviewer changed on the line of one part.' },
);
export type LineAdjustment = Static<typeof LineAdjustment>;

export const EstimateLine = Type.Object(
  {
    part: Nullable(Type.String(), {
      description: 'The part; null when none is known or could be suggested.',
    }),
    part_source: Nullable(
      Type.Union([Type.Literal('reviewer'), Type.Literal('model'), Type.Literal('suggested')]),
      {
        description:
          'Who named the part: a reviewer, the damage model, or the suggestion from the view and the place in the vehicle box.',
      },
    ),
    damage_ids: Type.Array(Type.String(), {
      description: 'The damages priced on this line, as `<media id>:<index in its damages>`.',
    }),
    operation: Operation,
    labour_hours: Hours('Labour hours.'),
    labour_cost: Money('labour_hours × labour_rate, rounded to the minor unit.'),
    paint_hours: Hours('Paint hours.'),
    paint_cost: Money('paint_hours × (paint_rate + paint_material_rate), rounded.'),
    parts_cost: Money("The card's price of the part when it is replaced, else 0."),
    total: Money('labour_cost + paint_cost + parts_cost.'),
    price_missing: Type.Boolean({ description: 'A replaced part the card has no price for (priced at 0).' }),
    rules: Nullable(
      Type.Object(
        {
          operation: Operation,
          labour_hours: Type.Number(),
          paint_hours: Type.Number(),
          parts_cost: Type.Number(),
        },
        { additionalProperties: false },
      ),
      { description: 'What the rules gave, on a line a reviewer changed; null otherwise.' },
    ),
    source: Type.Union([Type.Literal('rules'), Type.Literal('reviewer')], {
      description: '`reviewer`: changed or added by a person.',
    }),
  },
  { additionalProperties: false },
);

export const EstimatePart = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217.' }),
    rate_card_version: Type.Integer({
      minimum: 0,
      description: "The version of the client's rate card used; 0: the example card (example figures only).",
    }),
    lines: Type.Array(EstimateLine, {
      description: 'One per part; several damages on a part make one line.',
    }),
    labour_total: Money('Sum of the lines.'),
    paint_total: Money('Sum of the lines.'),
    parts_total: Money('Sum of the lines.'),
    total: Money('Sum of the lines.'),
    vehicle_value: Nullable(Type.Number({ minimum: 0 }), {
      description: '`inputMetaData.vehicleValue`, if given.',
    }),
    total_loss: Nullable(Type.Boolean(), {
      description: "total exceeds the card's total_loss_share of vehicle_value; null without a value.",
    }),
    adjustments: Type.Array(LineAdjustment, {
      description: 'What reviewers changed; applied again whenever the damages change.',
    }),
  },
  {
    additionalProperties: false,
    description:
      "A repair estimate from the client's rate card (docs/estimate.md): a suggestion for a person, never charged automatically.",
  },
);
export type EstimatePart = Static<typeof EstimatePart>;
