// The published inspection result (docs/result.md): one TypeBox definition types the code, validates every
// result the pipeline stores (tests), and is served as JSON Schema at /schemas/inspection-result.json.
import { Type, type Static } from '@sinclair/typebox';
import { CapturePart } from './capture-part.js';
import { ChangesPart, ComparisonSummary } from './changes-part.js';
import { EstimatePart } from './estimate-part.js';
import { DamagePart } from './damage-part.js';
import { TextPart, VehiclesPart } from './detection-parts.js';
import { ExifPart, FingerprintPart, QualityPart } from './image-parts.js';
import { PairPart, VideoPart } from './video-pair-parts.js';
import { embedded, IsoTime, Nullable } from '../schema.js';

export const MediaAnalysisParts = Type.Object(
  {
    quality: Type.Optional(QualityPart),
    exif: Type.Optional(ExifPart),
    fingerprint: Type.Optional(FingerprintPart),
    vehicles: Type.Optional(VehiclesPart),
    text: Type.Optional(TextPart),
    damage: Type.Optional(DamagePart),
    video: Type.Optional(VideoPart),
    changes: Type.Optional(ChangesPart),
  },
  {
    additionalProperties: false,
    description: "Each analyzer's part; a part is missing when its analyzer failed (see `errors`).",
  },
);

/** A reviewer's verdict and corrections, on the version they saved in the portal. */
export const ReviewPart = Type.Object(
  {
    decision: Type.Union([Type.Literal('accepted'), Type.Literal('rejected'), Type.Null()], {
      description: 'Accepted or rejected by the reviewer; null when they only corrected damages.',
    }),
    note: Nullable(Type.String({ maxLength: 2000 })),
    reviewer: Type.Object(
      { id: Type.String(), email: Type.String() },
      { additionalProperties: false, description: 'The portal user who saved this version.' },
    ),
    reviewed_at: IsoTime,
    based_on_version: Type.Integer({ minimum: 1, description: 'The version the reviewer corrected.' }),
  },
  {
    additionalProperties: false,
    description:
      'Present on a version a reviewer saved in the portal. Damages they changed carry `source: reviewer`.',
  },
);
export type ReviewPart = Static<typeof ReviewPart>;

export const MediaResult = Type.Object({
  id: Type.String(),
  position: Type.Integer(),
  kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
  original_id: Nullable(Type.String()),
  source_url: Nullable(Type.String()),
  pair_index: Nullable(Type.Integer()),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  bytes: Type.Integer(),
  mime: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  duration_seconds: Nullable(Type.Number()),
  thumbnail_key: Nullable(Type.String()),
  analysis: MediaAnalysisParts,
  capture: Type.Optional(CapturePart),
  errors: Type.Array(Type.Object({ analyzer: Type.String(), message: Type.String() })),
  flags: Type.Array(Type.String(), {
    description:
      'undecodable, blurry, dark, overexposed, low_resolution, edited, no_vehicle, plate_mismatch, vin_mismatch, odometer_mismatch, reused, damage, picked_from_gallery, captured_far_from_others, possible_new_damage, odometer_rollback',
  }),
});

export const InspectionResult = Type.Object(
  {
    inspection_id: Type.String({ description: 'The upload session (or link) id.' }),
    case_id: Type.String(),
    status: Type.Literal('completed'),
    version: Type.Integer({
      minimum: 1,
      description: 'Grows by one with every (re-)analysis and every review; earlier versions stay readable.',
    }),
    source: Type.Union([Type.Literal('urls'), Type.Literal('file'), Type.Literal('link')]),
    client_metadata: Type.Object({
      input_metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
      agent_id: Nullable(Type.String()),
      agent_name: Nullable(Type.String()),
      email_id: Nullable(Type.String()),
    }),
    created_at: IsoTime,
    analysed_at: IsoTime,
    analyzers: Type.Array(
      Type.Object({
        name: Type.String(),
        version: Type.String(),
        ok: Type.Integer(),
        failed: Type.Integer(),
      }),
    ),
    media: Type.Array(MediaResult),
    pairs: Type.Array(
      Type.Object({
        index: Type.Integer(),
        media_ids: Type.Array(Type.String(), { minItems: 2, maxItems: 2 }),
        comparison: Type.Optional(PairPart),
        error: Type.Optional(Nullable(Type.String())),
      }),
    ),
    vehicle_id: Type.Optional(
      Nullable(Type.String(), {
        description:
          'The vehicle the inspection was attached to (`GET /api/vehicles/{id}`), found by its VIN or plate; null when neither is known (docs/vehicles.md).',
      }),
    ),
    comparison: Type.Optional(
      Nullable(ComparisonSummary, {
        description:
          'The comparison with an earlier inspection of the same vehicle; null when there was none to compare with (docs/vehicles.md). Absent from results analysed before comparisons.',
      }),
    ),
    estimate: Type.Optional(EstimatePart),
    review: Type.Optional(ReviewPart),
    summary: Type.Object({
      media_count: Type.Integer(),
      images: Type.Integer(),
      videos: Type.Integer(),
      damages: Type.Integer(),
      flags: Type.Array(Type.String()),
      flag_counts: Type.Record(Type.String(), Type.Integer()),
    }),
  },
  { $id: 'https://walkaround.dev/schemas/inspection-result.json', title: 'Walkaround inspection result' },
);

export type InspectionResult = Static<typeof InspectionResult>;

/**
 * The result as the API's answers carry it: one shared schema (`InspectionResult` in the OpenAPI
 * document's components, registered by the HTTP app) that the answers refer to.
 */
export const ResultComponent = Type.Unsafe<InspectionResult>({
  ...embedded(InspectionResult),
  $id: 'InspectionResult',
});
export const ResultBody = Type.Unsafe<InspectionResult>(Type.Ref('InspectionResult'));
