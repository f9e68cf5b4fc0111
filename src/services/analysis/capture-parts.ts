// The `capture` part of each media item of a link inspection (docs/result.md#the-capture-part): the capture
// app's facts as kept with the media, and how far each located item was taken from the others. A photo
// taken far from where the rest of the car was photographed is a fraud signal (an old photo, another car).
import { captureMetadataFromJson, type CaptureLocation } from '../../domain/capture-metadata.js';
import type { CapturePart } from '../../domain/result/capture-part.js';
import type { MediaRow } from '../../ports/database.js';

/**
 * Beyond this distance from the others an item is flagged `captured_far_from_others`. Phone locations
 * are good to tens of metres outdoors and a few hundred indoors or in a city canyon; a walk around one
 * car never spans a kilometre.
 */
export const FAR_FROM_OTHERS_METRES = 1000;

/** Mean radius of the Earth (IUGG), in metres. */
const EARTH_RADIUS_METRES = 6_371_008.8;

/** The capture part of every item, by media id. */
export function captureParts(media: Pick<MediaRow, 'id' | 'capture_metadata'>[]): Map<string, CapturePart> {
  const facts = media.map((row) => ({ id: row.id, metadata: captureMetadataFromJson(row.capture_metadata) }));
  const located = facts.flatMap((f) => (f.metadata?.location ? [{ id: f.id, at: f.metadata.location }] : []));
  return new Map(
    facts.map(({ id, metadata }): [string, CapturePart] => {
      const location = metadata?.location ?? null;
      const others = located.filter((l) => l.id !== id).map((l) => l.at);
      return [
        id,
        {
          source: metadata?.source ?? null,
          captured_at: metadata?.captured_at ?? null,
          orientation: metadata?.orientation ?? null,
          location,
          distance_from_others_m:
            location && others.length > 0 ? Math.round(distanceToMedian(location, others)) : null,
        },
      ];
    }),
  );
}

/**
 * Metres from `from` to the median of `others`, latitude and longitude each. The longitudes are taken as
 * offsets from `from` first, so places on both sides of the 180th meridian stay close.
 */
export function distanceToMedian(from: LatLon, others: LatLon[]): number {
  const latitude = median(others.map((o) => o.latitude));
  const offset = median(others.map((o) => wrapDegrees(o.longitude - from.longitude)));
  return haversineMetres(from, { latitude, longitude: from.longitude + offset });
}

type LatLon = Pick<CaptureLocation, 'latitude' | 'longitude'>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** An angle in degrees brought into (-180, 180]. */
const wrapDegrees = (degrees: number): number => {
  const wrapped = ((((degrees + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
};

/** Great-circle distance on a sphere of the Earth's mean radius (error under 0.5 %). */
function haversineMetres(a: LatLon, b: LatLon): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}
