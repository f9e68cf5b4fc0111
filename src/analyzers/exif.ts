// EXIF facts of a photo: when and where it was taken, with what, and whether an editor touched it.
// Read by exifr from the original on disk (it reads only the chunks holding metadata), so orientation
// or re-encoding of the preview cannot lose them.
import exifr from 'exifr';
import { ExifPart } from '../domain/result/image-parts.js';
import type { ImageAnalyzer } from './analyzer.js';

/**
 * Only the blocks holding the facts we report. Values stay raw: reviveValues would turn dates into
 * Date objects in the server's time zone (losing the photo's own offset), translateValues would turn
 * codes such as GPSAltitudeRef into English text.
 */
const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: true,
  interop: false,
  ifd1: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  makerNote: false,
  userComment: false,
  reviveValues: false,
  translateValues: false,
} as const;

/**
 * Software tags of photo editors and retouching apps. A phone's own camera writes its OS or firmware
 * version ("17.4.1", "HDR+ 1.0…", "G991BXXU…"), which none of these match.
 */
const KNOWN_EDITORS =
  /photoshop|lightroom|gimp|snapseed|affinity|pixelmator|paint\.net|picsart|vsco|facetune|capture one|luminar|darktable|rawtherapee|canva|photopea|fotor|photodirector|acdsee|paintshop|dxo|polarr|afterlight|meitu|picmonkey/i;

export const exifAnalyzer: ImageAnalyzer<typeof ExifPart> = {
  name: 'exif',
  version: '1.0.0',
  schema: ExifPart,
  timeoutMs: 5_000,
  async analyse(image, context) {
    context.signal.throwIfAborted();
    return exifFacts(await readTags(image.sourcePath));
  },
};

/** The raw EXIF tags of a file; {} when it has none or exifr does not know its format. */
export async function readTags(sourcePath: string): Promise<Record<string, unknown>> {
  try {
    // exifr's output is untyped (`any`); it is a plain object of tag name → value, or undefined.
    const tags = (await exifr.parse(sourcePath, EXIFR_OPTIONS)) as Record<string, unknown> | undefined;
    return tags ?? {};
  } catch (error) {
    // An upload may be a PNG without metadata or a format exifr does not parse: no facts, not a failure.
    if (error instanceof Error && error.message === 'Unknown file format') return {};
    throw error;
  }
}

/** The part built from raw exifr tags (pure, for tests and for tags read elsewhere). */
export function exifFacts(tags: Record<string, unknown>): ExifPart {
  const captureTime = isoTime(tags.DateTimeOriginal, tags.OffsetTimeOriginal);
  const modifyTime = isoTime(tags.ModifyDate, tags.OffsetTime);
  const software = text(tags.Software);
  const editedReasons: ExifPart['edited_reasons'] = [];
  if (software !== null && KNOWN_EDITORS.test(software)) editedReasons.push('software');
  // Cameras write ModifyDate equal to DateTimeOriginal; editors set it when they save. Compared as
  // written (without offsets), since both come from the same clock.
  if (captureTime !== null && modifyTime !== null && stripOffset(captureTime) !== stripOffset(modifyTime)) {
    editedReasons.push('modify_date');
  }
  return {
    capture_time: captureTime,
    modify_time: modifyTime,
    gps: gpsPosition(tags),
    camera_make: text(tags.Make),
    camera_model: text(tags.Model),
    lens: text(tags.LensModel) ?? text(tags.LensMake),
    software,
    edited: editedReasons.length > 0,
    edited_reasons: editedReasons,
  };
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // Fixed-length EXIF strings are often padded with NULs or spaces.
  const trimmed = value.replace(/\0+$/, '').trim();
  return trimmed === '' ? null : trimmed;
}

const EXIF_DATE = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;
const OFFSET = /^[+-](?:0\d|1[0-4]):[0-5]\d$/;

/**
 * "2024:04:30 14:22:11" + "+02:00" → "2024-04-30T14:22:11+02:00". Without a valid offset the time
 * stays local (no offset): guessing the server's zone would be wrong. Placeholders such as
 * "0000:00:00 00:00:00" or blanks give null.
 */
export function isoTime(date: unknown, offset: unknown): string | null {
  const match = EXIF_DATE.exec(text(date) ?? '');
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const valid =
    year >= 1900 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= new Date(Date.UTC(year, month, 0)).getUTCDate() &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  if (!valid) return null;
  const local = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}`;
  const zone = text(offset);
  return zone !== null && OFFSET.test(zone) ? local + zone : local;
}

const stripOffset = (iso: string): string => iso.slice(0, 19);

function gpsPosition(tags: Record<string, unknown>): ExifPart['gps'] {
  // exifr computes signed decimal degrees from GPSLatitude/GPSLatitudeRef (and longitude) itself.
  const { latitude, longitude } = tags;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  // Phones without a fix write 0/0; a photo really taken at 0°N 0°E is in the Gulf of Guinea.
  if (latitude === 0 && longitude === 0) return null;
  return { latitude, longitude, altitude: altitude(tags.GPSAltitude, tags.GPSAltitudeRef) };
}

function altitude(value: unknown, ref: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  // GPSAltitudeRef is a BYTE: 1 means below sea level. exifr gives it as a number or a 1-byte array.
  const below = (typeof ref === 'number' ? ref : ref instanceof Uint8Array ? ref[0] : 0) === 1;
  return below ? -value : value;
}
