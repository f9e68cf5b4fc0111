// A client's rate card (docs/estimate.md#the-rate-card): its currency, hourly rates, part prices, the
// total-loss share and optional rule overrides. One TypeBox schema validates what the portal, the API and
// the CLI set; the default card's figures are examples, to be replaced by each client's own.
import { Type, type Static } from '@sinclair/typebox';
import { PART_CLASSES } from './parts.js';
import { OPERATIONS, SIZES } from './rules.js';

const Money = (description: string) => Type.Number({ minimum: 0, maximum: 1e9, description });
const HoursValue = Type.Number({ minimum: 0, maximum: 200 });

const OperationRuleSchema = Type.Object(
  {
    classes: Type.Optional(
      Type.Array(Type.Union(PART_CLASSES.map((c) => Type.Literal(c))), { maxItems: 20 }),
    ),
    types: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 })),
    severities: Type.Optional(
      Type.Array(Type.Union([Type.Literal('minor'), Type.Literal('moderate'), Type.Literal('severe')]), {
        maxItems: 3,
      }),
    ),
    sizes: Type.Optional(Type.Array(Type.Union(SIZES.map((s) => Type.Literal(s))), { maxItems: 3 })),
    operation: Type.Union(OPERATIONS.map((o) => Type.Literal(o))),
  },
  { additionalProperties: false },
);

export const RateCard = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217, e.g. EUR, GBP, JPY.' }),
    labour_rate: Money('Labour, per hour.'),
    paint_rate: Money('Paint labour, per hour.'),
    paint_material_rate: Money('Paint material, per hour of paint labour.'),
    part_prices: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Money('Price of the part.'), {
      description:
        'Part → price when it is replaced. A part without a price is replaced at 0 and its line says `price_missing`.',
    }),
    total_loss_share: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'The estimate is a total loss above this share of `inputMetaData.vehicleValue`.',
    }),
    rules: Type.Optional(
      Type.Object(
        {
          operations: Type.Optional(
            Type.Array(OperationRuleSchema, {
              maxItems: 200,
              description: 'Tried before the default rules; the first that matches gives the operation.',
            }),
          ),
          hours: Type.Optional(
            Type.Record(
              Type.Union(OPERATIONS.map((o) => Type.Literal(o))),
              Type.Record(
                Type.Union(PART_CLASSES.map((c) => Type.Literal(c))),
                Type.Object({ labour: HoursValue, paint: HoursValue }, { additionalProperties: false }),
              ),
              {
                description: 'Operation → part class → labour and paint hours, replacing the defaults given.',
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'A client rate card (docs/estimate.md).' },
);
export type RateCard = Static<typeof RateCard>;

/**
 * The card of a client that has not set its own. EXAMPLE FIGURES ONLY (a mid-range European body shop in
 * 2026): every client should set its own rates and prices before relying on an estimate.
 */
export const DEFAULT_RATE_CARD: RateCard = {
  currency: 'EUR',
  labour_rate: 52,
  paint_rate: 58,
  paint_material_rate: 31,
  part_prices: {
    front_bumper: 410,
    rear_bumper: 380,
    bonnet: 520,
    boot_lid: 480,
    left_front_door: 690,
    right_front_door: 690,
    left_rear_door: 640,
    right_rear_door: 640,
    left_front_wing: 260,
    right_front_wing: 260,
    windscreen: 450,
    rear_window: 320,
    left_headlamp: 340,
    right_headlamp: 340,
    left_tail_lamp: 180,
    right_tail_lamp: 180,
    left_mirror: 210,
    right_mirror: 210,
    left_front_wheel: 260,
    right_front_wheel: 260,
    left_rear_wheel: 260,
    right_rear_wheel: 260,
    grille: 150,
  },
  total_loss_share: 0.7,
};

/** The digits after the decimal point of the currency's minor unit (EUR 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** Whether `code` is a currency the runtime knows (ISO 4217). */
export const isCurrency = (code: string): boolean =>
  /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code);
