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

/** Where a reading was read from in the image. */
const readBox = (what: string) =>
  Type.Optional(
    Type.Object(NormalisedBox.properties, {
      additionalProperties: false,
      description: `Where the ${what} that was read lies in the image.`,
    }),
  );

export const PlateReading = Type.Object(
  {
    ...readingProperties,
    country: Type.Optional(
      nullable(
        Type.String({
          description:
            'The country whose plate format the reading matches (ISO 3166-1 alpha-2, US for every state; docs/result.md#text); null when it matches none',
        }),
      ),
    ),
    box: readBox('plate (blurred in shared reports)'),
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
          'The ISO 3779 check digit (position 9) holds. A VIN is read only when it does, or when it has none: a European maker (WMI S–Z) with a letter other than X at position 9; null when not read',
      }),
    ),
    box: readBox('VIN'),
  },
  { additionalProperties: false },
);
export type VinReading = Static<typeof VinReading>;

export const OdometerReading = Type.Object(
  {
    read: nullable(
      Type.Integer({
        minimum: 0,
        description: 'The total distance shown (not a trip meter); null when none was read',
      }),
    ),
    unit: nullable(
      Type.Union([Type.Literal('km'), Type.Literal('mi')], {
        description: 'The unit shown beside it; null when none is',
      }),
    ),
    expected: nullable(
      Type.Integer({ minimum: 0, description: 'inputMetaData.odometer, in the same unit; null when none' }),
    ),
    match: nullable(
      Type.Boolean({
        description:
          'read is within the tolerance of expected (500, or 2 % of expected when that is more); null unless both exist',
      }),
    ),
    confidence: nullable(
      Type.Number({ minimum: 0, maximum: 1, description: 'OCR confidence of the reading' }),
    ),
    box: readBox('odometer'),
  },
  {
    additionalProperties: false,
    description:
      'The odometer, on a photo of the dashboard (absent from results analysed before odometers were read)',
  },
);
export type OdometerReading = Static<typeof OdometerReading>;

export const TEXT_FLAGS = ['plate_mismatch', 'vin_mismatch', 'odometer_mismatch'] as const;
export type TextFlag = (typeof TEXT_FLAGS)[number];

export const TextPart = Type.Object(
  {
    plate: PlateReading,
    vin: VinReading,
    odometer: Type.Optional(OdometerReading),
    flags: Type.Array(Type.Union(TEXT_FLAGS.map((flag) => Type.Literal(flag))), {
      description:
        'A reading that differs from the expected value. Nothing is flagged when the text was not found.',
    }),
  },
  { additionalProperties: false, description: 'Licence plate, VIN and odometer read from the image (OCR)' },
);
export type TextPart = Static<typeof TextPart>;
