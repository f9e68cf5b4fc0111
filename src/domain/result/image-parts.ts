// The parts of a media item's result written by the image analyzers (quality, exif, fingerprint).
// One source per shape: the analyzers use these as their `schema`, and the published result schema
// embeds them. Keys are snake_case (docs/result.md); objects are closed so a stray field is caught.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;

export const BlurCheck = Type.Object(
  {
    score: Type.Number({
      minimum: 0,
      description: 'Variance of the Laplacian of the grey preview (long side ≤ 1024 px); higher is sharper.',
    }),
    threshold: Type.Number({ description: 'The score must reach this to pass.' }),
    pass: Type.Boolean(),
  },
  closed,
);

export const ExposureState = Type.Union([
  Type.Literal('ok'),
  Type.Literal('dark'),
  Type.Literal('overexposed'),
]);

export const ExposureCheck = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 255, description: 'Mean luminance (Rec. 601 luma), 0–255.' }),
    dark_share: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Share of pixels crushed to black (luma ≤ 16).',
    }),
    bright_share: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Share of pixels blown to white (luma ≥ 240).',
    }),
    state: ExposureState,
    pass: Type.Boolean({ description: "True when state is 'ok'." }),
  },
  closed,
);

export const ResolutionCheck = Type.Object(
  {
    score: Type.Integer({ minimum: 0, description: 'Short side of the original in pixels.' }),
    threshold: Type.Integer({ description: 'The short side must reach this to pass.' }),
    width: Type.Integer({ minimum: 0, description: 'Width of the original after EXIF orientation.' }),
    height: Type.Integer({ minimum: 0, description: 'Height of the original after EXIF orientation.' }),
    megapixels: Type.Number({ minimum: 0 }),
    pass: Type.Boolean(),
  },
  closed,
);

export const QualityPart = Type.Object(
  {
    blur: BlurCheck,
    exposure: ExposureCheck,
    resolution: ResolutionCheck,
    pass: Type.Boolean({ description: 'True when blur, exposure and resolution all pass.' }),
  },
  { ...closed, description: 'Photo quality: sharpness, exposure and resolution, each with pass/fail.' },
);
export type QualityPart = Static<typeof QualityPart>;

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const GpsPosition = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees, north positive.' }),
    longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Decimal degrees, east positive.' }),
    altitude: nullable(Type.Number({ description: 'Metres above sea level (negative below).' })),
  },
  closed,
);

export const EditedReason = Type.Union([Type.Literal('software'), Type.Literal('modify_date')]);

export const ExifPart = Type.Object(
  {
    capture_time: nullable(
      Type.String({
        description:
          'DateTimeOriginal as ISO 8601, with the offset of OffsetTimeOriginal when the file has one ' +
          '(e.g. 2024-04-30T14:22:11+02:00), else local time without offset.',
      }),
    ),
    modify_time: nullable(Type.String({ description: 'ModifyDate, same format as capture_time.' })),
    gps: nullable(GpsPosition),
    camera_make: nullable(Type.String()),
    camera_model: nullable(Type.String()),
    lens: nullable(Type.String({ description: 'LensModel, else LensMake.' })),
    software: nullable(Type.String({ description: 'The Software tag: what last wrote the file.' })),
    edited: Type.Boolean({
      description: 'A hint, not proof: Software names a known editor, or ModifyDate differs from capture.',
    }),
    edited_reasons: Type.Array(EditedReason),
  },
  { ...closed, description: 'EXIF facts; every field is null when the file does not carry it.' },
);
export type ExifPart = Static<typeof ExifPart>;

export const ReuseMatch = Type.Object(
  {
    media_id: Type.String(),
    inspection_id: Type.String(),
    distance: Type.Integer({ minimum: 0, maximum: 64, description: 'Hamming distance of the dHashes.' }),
  },
  closed,
);

export const FingerprintPart = Type.Object(
  {
    dhash: Type.String({
      pattern: '^[0-9a-f]{16}$',
      description: '64-bit difference hash of the preview, 16 lowercase hex characters.',
    }),
    matches: Type.Array(ReuseMatch, {
      description: 'Earlier media of other inspections whose dHash is within the reuse distance.',
    }),
  },
  { ...closed, description: 'Perceptual fingerprint, to find photos reused across inspections.' },
);
export type FingerprintPart = Static<typeof FingerprintPart>;
