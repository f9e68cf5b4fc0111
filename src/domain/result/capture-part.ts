// The `capture` part of a media item captured behind an inspection link (docs/result.md#the-capture-part):
// what the capture app said about it (docs/api.md#resumable-uploads) and how far it was taken from the
// inspection's other items. API uploads have no such part.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const CaptureLocationPart = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees, north positive.' }),
    longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Decimal degrees, east positive.' }),
    accuracy_m: nullable(
      Type.Number({
        minimum: 0,
        description: "Radius of the phone's uncertainty in metres; null when the app did not send it.",
      }),
    ),
  },
  closed,
);

export const CapturePart = Type.Object(
  {
    source: nullable(
      Type.Union([Type.Literal('camera'), Type.Literal('gallery')], {
        description:
          "camera: captured live in the app; gallery: picked from the phone's gallery. Null when the app did not say.",
      }),
    ),
    captured_at: nullable(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
        description: "When the phone captured it: ISO 8601 with the phone's time zone, as the app sent it.",
      }),
    ),
    orientation: nullable(
      Type.String({ maxLength: 32, description: 'Screen orientation type, for example portrait-primary.' }),
    ),
    location: nullable(CaptureLocationPart),
    distance_from_others_m: nullable(
      Type.Number({
        minimum: 0,
        description:
          "Metres from this item's location to the median location of the inspection's other located items; null when this item has no location or fewer than two items have one.",
      }),
    ),
  },
  {
    ...closed,
    description:
      'What the capture app said about an item captured behind an inspection link; absent for API uploads.',
  },
);
export type CapturePart = Static<typeof CapturePart>;
