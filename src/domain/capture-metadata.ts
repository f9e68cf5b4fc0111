// What the capture app says about each capture (docs/api.md#resumable-uploads): where the media came from,
// when and how the phone was held, and where the customer was when the persona asks for it. Checked when
// the upload is declared, kept with the captured media and carried to the inspection's media; the result
// shows it as the media item's `capture` part (docs/result.md).

export const CAPTURE_SOURCES = ['camera', 'gallery'] as const;
export type CaptureSource = (typeof CAPTURE_SOURCES)[number];

export interface CaptureLocation {
  /** Decimal degrees, north positive. */
  latitude: number;
  /** Decimal degrees, east positive. */
  longitude: number;
  /** Radius of the phone's uncertainty in metres; null when the app did not send it. */
  accuracy_m: number | null;
}

/** Each fact is null when the app did not send it (older capture apps send none). */
export interface CaptureMetadata {
  source: CaptureSource | null;
  /** ISO 8601 with the phone's time zone (`Z` or an offset), as the app sent it. */
  captured_at: string | null;
  /** The screen orientation type, for example `portrait-primary`. */
  orientation: string | null;
  /** Only when the persona asks for the location. */
  location: CaptureLocation | null;
}

/** The metadata as stored (JSON text), or null for media that carry none. */
export const captureMetadataFromJson = (json: string | null): CaptureMetadata | null =>
  json === null ? null : (JSON.parse(json) as CaptureMetadata);
