// The result parts written by the vehicle and text analyzers (detections with boxes; see
// docs/result.md#what-it-holds), one schema source for the analyzers' `schema`, the published result schema
// and the static types. Pure: no I/O.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Fraction = Type.Number({ minimum: 0, maximum: 1 });

/**
 * COCO classes reported as vehicles. Bicycles are left out on purpose: an inspection is of a motor
 * vehicle, and a bicycle in the background of a street photo must not make `present` true.
 */
export const VEHICLE_LABELS = ['car', 'truck', 'bus', 'motorcycle'] as const;
export type VehicleLabel = (typeof VEHICLE_LABELS)[number];

/** A box as fractions (0..1) of the image's width and height, origin at the top left. */
export const NormalisedBox = Type.Object(
  { x: Fraction, y: Fraction, width: Fraction, height: Fraction },
  { additionalProperties: false, description: 'Fractions (0..1) of the image width/height, origin top left' },
);
export type NormalisedBox = Static<typeof NormalisedBox>;

export const VehicleDetection = Type.Object(
  {
    label: Type.Union(
      VEHICLE_LABELS.map((label) => Type.Literal(label)),
      { description: 'COCO class' },
    ),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Detector confidence' }),
    box: NormalisedBox,
  },
  { additionalProperties: false },
);
export type VehicleDetection = Static<typeof VehicleDetection>;

export const PersonDetection = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Detector confidence' }),
    box: NormalisedBox,
  },
  { additionalProperties: false },
);

export const VehiclesPart = Type.Object(
  {
    present: Type.Boolean({ description: 'At least one vehicle detection at or above the minimum score' }),
    detections: Type.Array(VehicleDetection, { description: 'Vehicle detections, highest score first' }),
    people: Type.Optional(
      Type.Array(PersonDetection, {
        description:
          'People the same detector found (COCO `person`), highest score first; blurred in shared reports.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Vehicles found in the image (object detection)' },
);
export type VehiclesPart = Static<typeof VehiclesPart>;

const readingProperties = {
  read: nullable(Type.String({ description: 'Normalised reading (uppercase), null when none was found' })),
  expected: nullable(
    Type.String({ description: 'The inspection inputMetaData value, normalised; null when none' }),
  ),
  match: nullable(
    Type.Boolean({
      description: 'read equals expected, case- and separator-insensitive; null unless both exist',
    }),
  ),
  confidence: nullable(Type.Number({ minimum: 0, maximum: 1, description: 'OCR confidence of the reading' })),
};

export const PlateReading = Type.Object(
  {
    ...readingProperties,
    box: Type.Optional(
      Type.Object(NormalisedBox.properties, {
        additionalProperties: false,
        description: 'Where the plate that was read lies in the image (blurred in shared reports).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlateReading = Static<typeof PlateReading>;

export const VinReading = Type.Object(
  {
    ...readingProperties,
    check_digit_valid: nullable(
      Type.Boolean({
        description:
          'North American (ISO 3779 position 9) check digit holds; informative only, null when not read',
      }),
    ),
  },
  { additionalProperties: false },
);
export type VinReading = Static<typeof VinReading>;

export const TEXT_FLAGS = ['plate_mismatch', 'vin_mismatch'] as const;
export type TextFlag = (typeof TEXT_FLAGS)[number];

export const TextPart = Type.Object(
  {
    plate: PlateReading,
    vin: VinReading,
    flags: Type.Array(Type.Union(TEXT_FLAGS.map((flag) => Type.Literal(flag))), {
      description:
        'A reading that differs from the expected value. Nothing is flagged when the text was not found.',
    }),
  },
  { additionalProperties: false, description: 'Licence plate and VIN read from the image (OCR)' },
);
export type TextPart = Static<typeof TextPart>;
