// The `damage` part of a media item's result (docs/result.md): what a damage model found, or a plain
// statement that no model is configured. Also the severity rule, which is a heuristic and documented as one.
import { Type, type Static } from '@sinclair/typebox';

export const SEVERITIES = ['minor', 'moderate', 'severe'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Area shares (of the whole image) from which a damage counts as moderate, then severe. */
export const SEVERITY_AREA = { moderate: 0.02, severe: 0.1 } as const;
/** Below this confidence a damage is rated one step lower. */
export const SEVERITY_CONFIDENCE = 0.5;

const SEVERITY_RULE =
  `Heuristic, not an assessment of repair: from the share of the image the box covers ` +
  `(under ${SEVERITY_AREA.moderate * 100}%: minor, under ${SEVERITY_AREA.severe * 100}%: moderate, else severe), ` +
  `one step lower when the confidence is under ${SEVERITY_CONFIDENCE}. ` +
  `A close-up makes any damage look larger: compare severities between photos taken from a similar distance.`;

/** The severity rule above: `areaShare` and `confidence` are 0..1. */
export function damageSeverity(areaShare: number, confidence: number): Severity {
  let step = areaShare >= SEVERITY_AREA.severe ? 2 : areaShare >= SEVERITY_AREA.moderate ? 1 : 0;
  if (confidence < SEVERITY_CONFIDENCE) step = Math.max(0, step - 1);
  return SEVERITIES[step]!;
}

const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const DamageBox = Type.Object(
  {
    x: Fraction('Left edge, as a fraction of the image width.'),
    y: Fraction('Top edge, as a fraction of the image height.'),
    width: Fraction('Width, as a fraction of the image width.'),
    height: Fraction('Height, as a fraction of the image height.'),
  },
  {
    description: 'Box around the damage, in fractions (0..1) of the original image after EXIF orientation.',
  },
);

export const Damage = Type.Object({
  part: Type.Union([Type.String(), Type.Null()], {
    description: "Vehicle part, from the model's label `part:type`; null when its label names only a type.",
  }),
  type: Type.String({ description: "Damage type, from the model's label (e.g. `scratch`, `dent`)." }),
  severity: Type.Union(
    SEVERITIES.map((s) => Type.Literal(s)),
    { description: SEVERITY_RULE },
  ),
  confidence: Fraction("The model's confidence; 1 for a damage a reviewer drew or changed."),
  box: DamageBox,
  source: Type.Optional(
    Type.Union([Type.Literal('model'), Type.Literal('reviewer')], {
      description:
        'Who put it there: the model, or a reviewer in the portal (added, moved or re-labelled). Absent: the model.',
    }),
  ),
  new: Type.Optional(
    Type.Literal(true, {
      description:
        'A reviewer confirmed it as new since `previous_inspection_id`, from a candidate region of the comparison (docs/vehicles.md).',
    }),
  ),
  previous_inspection_id: Type.Optional(
    Type.String({ description: 'With `new`: the inspection where it was not there yet.' }),
  ),
});
export type Damage = Static<typeof Damage>;

export const DamageModelInfo = Type.Object({
  backend: Type.Union([Type.Literal('onnx'), Type.Literal('kserve')], {
    description: '`onnx`: a local ONNX file; `kserve`: an Open Inference Protocol (KServe v2) server.',
  }),
  name: Type.String({ description: 'File name of the ONNX model, or the model name on the server.' }),
  version: Type.String({
    description:
      'ONNX: first 12 hex digits of the SHA-256 of the model file. KServe: the version the server lists first.',
  }),
});

export const DamagePart = Type.Union(
  [
    Type.Object(
      {
        status: Type.Literal('not_configured', {
          description: 'No damage model is configured: no damage detection was attempted.',
        }),
        model: Type.Null(),
        damages: Type.Array(Damage, { maxItems: 0 }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        status: Type.Literal('ok', { description: 'The damage model ran on the image.' }),
        model: DamageModelInfo,
        damages: Type.Array(Damage, {
          description: 'Damages found, most confident first; empty when the model found none.',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        status: Type.Literal('reviewed', {
          description: "A reviewer set this photo's damages in the portal (see the result's `review`).",
        }),
        model: Type.Union([DamageModelInfo, Type.Null()], {
          description: 'The model whose findings the reviewer started from; null when none was configured.',
        }),
        damages: Type.Array(Damage, {
          description: 'The damages as the reviewer left them, each with its `source`.',
        }),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description:
      'Damage detection by the configured model (`ok`), none without one (`not_configured`), or the damages as a reviewer corrected them (`reviewed`).',
  },
);
export type DamagePart = Static<typeof DamagePart>;
