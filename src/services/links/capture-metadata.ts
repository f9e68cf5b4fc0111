// The capture metadata a tus upload declares in `Upload-Metadata` beside its step (docs/api.md#resumable-uploads),
// checked against the link's persona: a malformed value is refused, the gallery only where the persona
// allows it, the location kept only where the persona asks for it. Other keys (tus-js-client adds
// `filename`, `filetype`) are ignored. No metadata at all is allowed: older capture apps send none.
import {
  CAPTURE_SOURCES,
  type CaptureLocation,
  type CaptureMetadata,
  type CaptureSource,
} from '../../domain/capture-metadata.js';
import { AppError } from '../../domain/errors.js';
import type { PersonaRow } from '../../ports/database.js';

/** `Upload-Metadata` as the tus server parsed it: a key sent without a value is null. */
export type UploadMetadata = Readonly<Record<string, string | null | undefined>>;

/** Longest `orientation` (the screen orientation types are at most 19 characters). */
const ORIENTATION_MAX = 32;
const ORIENTATION = new RegExp(`^[a-z][a-z0-9-]{0,${ORIENTATION_MAX - 1}}$`);
/** ISO 8601 date and time with seconds optional, fractions up to nanoseconds, and a zone: Z or ±hh:mm. */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](0\d|1[0-4]):[0-5]\d)$/;
/** A decimal number as JavaScript writes one (`String(n)`), exponent included; short enough to be sane. */
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DECIMAL_MAX_LENGTH = 32;

/** The checked metadata, or null when the upload declares none; throws the AppError of the first bad key. */
export function checkCaptureMetadata(
  persona: Pick<PersonaRow, 'allow_gallery' | 'ask_location'>,
  metadata: UploadMetadata | undefined,
): CaptureMetadata | null {
  const given = (key: string) => metadata !== undefined && key in metadata && metadata[key] !== undefined;
  const text = (key: string): string | undefined => {
    if (!given(key)) return undefined;
    const value = metadata![key];
    // A key sent without a value is malformed, not absent: the app meant to say something.
    if (value === null || value === '') throw invalid(key);
    return value;
  };

  const source = sourceOf(text('source'));
  if (source === 'gallery' && persona.allow_gallery !== 1) throw new AppError('CAPTURE_GALLERY_NOT_ALLOWED');
  const capturedAt = text('captured_at');
  if (capturedAt !== undefined && !isIsoTimeWithZone(capturedAt)) throw invalid('captured_at');
  const orientation = text('orientation');
  if (orientation !== undefined && !ORIENTATION.test(orientation)) throw invalid('orientation');
  // A location the persona does not ask for is dropped unread: it is not the app's to send.
  const location = persona.ask_location === 1 ? locationOf(text) : null;

  if (source === undefined && capturedAt === undefined && orientation === undefined && location === null)
    return null;
  return {
    source: source ?? null,
    captured_at: capturedAt ?? null,
    orientation: orientation ?? null,
    location,
  };
}

const invalid = (field: string) => new AppError('CAPTURE_METADATA_INVALID', { params: { field } });

function sourceOf(value: string | undefined): CaptureSource | undefined {
  if (value === undefined) return undefined;
  if (!(CAPTURE_SOURCES as readonly string[]).includes(value)) throw invalid('source');
  return value as CaptureSource;
}

function isIsoTimeWithZone(value: string): boolean {
  const match = ISO_TIME.exec(value);
  if (!match || !Number.isFinite(Date.parse(value))) return false;
  // Date.parse rolls 30 February over to March: the day must exist in its month.
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

function locationOf(text: (key: string) => string | undefined): CaptureLocation | null {
  const latitude = decimal(text('latitude'), 'latitude', -90, 90);
  const longitude = decimal(text('longitude'), 'longitude', -180, 180);
  const accuracy = decimal(text('accuracy'), 'accuracy', 0, Number.MAX_VALUE);
  if (latitude === undefined && longitude === undefined) {
    if (accuracy !== undefined) throw invalid('latitude');
    return null;
  }
  if (latitude === undefined) throw invalid('latitude');
  if (longitude === undefined) throw invalid('longitude');
  return { latitude, longitude, accuracy_m: accuracy ?? null };
}

function decimal(value: string | undefined, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.length > DECIMAL_MAX_LENGTH || !DECIMAL.test(value) || !Number.isFinite(n) || n < min || n > max)
    throw invalid(field);
  // -0 and 0 are the same place; JSON would write both as 0 anyway.
  return n === 0 ? 0 : n;
}
