// What is known about one photo or video: EXIF, the capture app's facts, the readings, quality, and
// photos it was found reused from (linked, side by side).
import type { MediaItem } from '../api.js';
import { inspectionHref } from '../router.js';
import { cameraTime, deviceText, mediaName, odometerText, orientationText, when } from '../format.js';

const osm = (lat: number, lon: number) =>
  `https://www.openstreetmap.org/?mlat=${lat.toFixed(6)}&mlon=${lon.toFixed(6)}#map=17/${lat.toFixed(6)}/${lon.toFixed(6)}`;

function Place({ lat, lon }: { lat: number; lon: number }) {
  return (
    <>
      {lat.toFixed(5)}, {lon.toFixed(5)}{' '}
      <a href={osm(lat, lon)} target="_blank" rel="noopener noreferrer">
        Open in OpenStreetMap
      </a>
    </>
  );
}

/** What the details tell of an item: a stored result's, or a share's (which may hold less). */
export type DetailedItem = Pick<
  MediaItem,
  'id' | 'kind' | 'bytes' | 'mime' | 'sha256' | 'errors' | 'capture'
> & {
  analysis: Pick<MediaItem['analysis'], 'exif' | 'quality' | 'text' | 'fingerprint'>;
};

/**
 * `base`: the inspection's API path, for the reused-photo comparison (none on share pages);
 * `inspectionId` and `siblings`: the inspection's items, to name a copy sent twice in it.
 */
export function MediaDetails({
  item,
  base,
  inspectionId,
  siblings = [],
}: {
  item: DetailedItem;
  base?: string;
  inspectionId?: string;
  siblings?: { id: string; position: number; original_id: string | null; kind: string }[];
}) {
  const { exif, quality, text, fingerprint } = item.analysis;
  const matches = fingerprint?.matches ?? [];
  const sameInspection = matches.filter((m) => m.inspection_id === inspectionId);
  const otherInspections = matches.filter((m) => m.inspection_id !== inspectionId);
  const capture = item.capture;
  const rows: [string, preact.ComponentChildren][] = [];
  if (exif?.capture_time) rows.push(['Taken', cameraTime(exif.capture_time)]);
  const device = deviceText(exif?.camera_make, exif?.camera_model);
  if (device) rows.push(['Device', device]);
  if (exif?.software) rows.push(['Software', exif.software]);
  if (exif?.modify_time) rows.push(['Modified', cameraTime(exif.modify_time)]);
  if (exif?.gps) rows.push(['GPS (EXIF)', <Place lat={exif.gps.latitude} lon={exif.gps.longitude} />]);
  if (capture) {
    rows.push([
      'Captured',
      capture.source === 'gallery' ? 'picked from the phone’s gallery' : 'in the capture app',
    ]);
    if (capture.captured_at) rows.push(['Capture time', when(capture.captured_at)]);
    if (capture.orientation) rows.push(['Orientation', orientationText(capture.orientation)]);
    if (capture.location)
      rows.push(['Location', <Place lat={capture.location.latitude} lon={capture.location.longitude} />]);
    if (capture.distance_from_others_m !== null)
      rows.push(['From the other photos', `${Math.round(capture.distance_from_others_m)} m`]);
  }
  if (text?.plate.read)
    rows.push([
      'Plate read',
      `${text.plate.read}${text.plate.country ? ` (${text.plate.country})` : ''}${text.plate.expected ? `, expected ${text.plate.expected}` : ''}`,
    ]);
  if (text?.vin.read)
    rows.push(['VIN read', `${text.vin.read}${text.vin.expected ? ` (expected ${text.vin.expected})` : ''}`]);
  const odometer = odometerText(text?.odometer);
  if (odometer)
    rows.push([
      'Odometer read',
      `${odometer}${text?.odometer?.expected != null ? ` (expected ${odometerText({ read: text.odometer.expected, unit: text.odometer.unit })})` : ''}`,
    ]);
  if (quality)
    rows.push([
      'Quality',
      `sharpness ${quality.blur.score.toFixed(0)} (needs ${quality.blur.threshold}), ${quality.resolution.width}×${quality.resolution.height} px, exposure ${quality.exposure.state}`,
    ]);
  rows.push(['Size', `${(item.bytes / 1024 / 1024).toFixed(2)} MB, ${item.mime}`]);
  rows.push(['SHA-256', <code class="hash">{item.sha256}</code>]);

  return (
    <section class="panel" aria-labelledby="details-title">
      <h2 id="details-title">About this {item.kind === 'video' ? 'video' : 'photo'}</h2>
      <dl class="facts">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {item.errors.length > 0 && (
        <ul class="errors">
          {item.errors.map((e) => (
            <li key={e.analyzer}>
              Not analysed by {e.analyzer}: {e.message}
            </li>
          ))}
        </ul>
      )}
      {base && sameInspection.length > 0 && (
        <div class="reuse">
          <h3>Sent twice</h3>
          <p class="muted">
            The same photo, or a near copy, is also{' '}
            {sameInspection
              .map((m) => siblings.find((s) => s.id === m.media_id))
              .map((s) => (s ? `${s.position + 1}. ${mediaName(s)}` : 'another item'))
              .join(', ')}{' '}
            in this inspection.
          </p>
        </div>
      )}
      {base && otherInspections.length > 0 && (
        <div class="reuse">
          <h3>Reused photo</h3>
          <p class="muted">The same photo, or a near copy, was sent in another inspection:</p>
          {otherInspections.map((m) => (
            <div class="side-by-side" key={m.media_id}>
              <figure>
                <img src={`${base}/media/${item.id}/thumbnail`} alt="This photo" />
                <figcaption>This inspection</figcaption>
              </figure>
              <figure>
                <img
                  src={`/portal/api/inspections/${m.inspection_id}/media/${m.media_id}/thumbnail`}
                  alt="The earlier photo"
                />
                <figcaption>
                  <a href={inspectionHref(m.inspection_id, { media: m.media_id })}>The other inspection</a>{' '}
                  (difference {m.distance} of 64)
                </figcaption>
              </figure>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
