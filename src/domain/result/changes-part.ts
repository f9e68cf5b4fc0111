// What is new since the vehicle's previous inspection (docs/vehicles.md): each photo's `changes` part,
// and the inspection's `comparison` summary. Pure: no I/O.
import { Type, type Static } from '@sinclair/typebox';
import { NormalisedBox } from './detection-parts.js';
import { Nullable } from '../schema.js';

export const ChangeRegion = Type.Object(
  {
    box: Type.Object(NormalisedBox.properties, {
      additionalProperties: false,
      description: 'Where it changed, in this photo: fractions (0..1) of its width and height.',
    }),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'How strongly it differs, 0..1.' }),
    decision: Type.Optional(
      Type.Union([Type.Literal('confirmed'), Type.Literal('dismissed')], {
        description:
          "A reviewer's verdict (absent: not decided yet). A confirmed region is also a damage of the `damage` part, with `new: true`.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChangeRegion = Static<typeof ChangeRegion>;

/** What comparing two photos gives (analyzers/changes/compare.ts), before it is published. */
export type PhotoComparison =
  { status: 'compared'; regions: ChangeRegion[] } | { status: 'not_aligned'; inliers: number };

export const CHANGE_STATUSES = ['compared', 'no_counterpart', 'not_aligned'] as const;

export const ChangesPart = Type.Object(
  {
    status: Type.Union(
      CHANGE_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          '`compared`: aligned with `previous_media_id`, `regions` lists what changed; `no_counterpart`: the previous inspection has no photo of this view; `not_aligned`: a counterpart was found but the two photos could not be registered, so nothing is claimed.',
      },
    ),
    previous_inspection_id: Type.String({ description: 'The inspection compared with.' }),
    previous_media_id: Nullable(
      Type.String({ description: 'Its photo this one was paired with; null without a counterpart.' }),
    ),
    regions: Type.Array(ChangeRegion, {
      maxItems: 8,
      description:
        'Candidate new damage on the vehicle, strongest first: for a person to confirm or dismiss in the portal, never charged automatically.',
    }),
  },
  {
    additionalProperties: false,
    description: "What changed on the vehicle since the previous inspection's photo of the same view.",
  },
);
export type ChangesPart = Static<typeof ChangesPart>;

export const ComparisonSummary = Type.Object(
  {
    previous_inspection_id: Type.String({ description: 'The inspection this one was compared with.' }),
    basis: Type.Union([Type.Literal('compare_with'), Type.Literal('vehicle')], {
      description:
        "`compare_with`: the client named it; `vehicle`: the vehicle's latest completed inspection before this one.",
    }),
    pairs: Type.Integer({ minimum: 0, description: 'Photos paired with a previous photo.' }),
    compared: Type.Integer({ minimum: 0 }),
    not_aligned: Type.Integer({ minimum: 0 }),
    no_counterpart: Type.Integer({ minimum: 0 }),
    regions: Type.Integer({ minimum: 0, description: 'Candidate regions over all photos.' }),
    odometer: Nullable(
      Type.Object(
        {
          previous: Type.Integer({ minimum: 0 }),
          current: Type.Integer({ minimum: 0 }),
          unit: Nullable(Type.Union([Type.Literal('km'), Type.Literal('mi')])),
        },
        {
          additionalProperties: false,
          description:
            'Both odometer readings, when both inspections read one in the same unit; `odometer_rollback` flags a lower current one.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'The comparison with an earlier inspection of the same vehicle (docs/vehicles.md).',
  },
);
export type ComparisonSummary = Static<typeof ComparisonSummary>;
