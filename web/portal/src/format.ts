// How the portal writes times, statuses and sources.
import type { Status } from './api.js';
import { TEMPLATE_TEXTS } from '../../../src/domain/persona-templates.js';

/** `23 Nov 2026, 09:42` in the browser's time zone. */
export const when = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export const STATUS_NAMES: Record<Status, string> = {
  queued: 'Queued',
  processing: 'Analysing',
  completed: 'Completed',
  failed: 'Failed',
};

export const sourceName = (source: 'urls' | 'file' | 'link') => (source === 'link' ? 'Link' : 'API');

/** An odometer reading as a person writes it: `45 218 km`. */
export function odometerText(odometer: { read: number | null; unit: 'km' | 'mi' | null } | undefined) {
  if (!odometer || odometer.read === null) return undefined;
  const grouped = odometer.read.toLocaleString('en-GB').replaceAll(',', ' ');
  return odometer.unit ? `${grouped} ${odometer.unit}` : grouped;
}

/**
 * What a photo is, in words: a capture step's name (`front_left` → "Front left"), else the file name it
 * was sent with, else its number.
 */
export function mediaName(item: { position: number; original_id: string | null; kind: string }): string {
  const step = item.original_id ? STEP_NAMES[item.original_id] : undefined;
  return step ?? item.original_id ?? `${item.kind === 'video' ? 'Video' : 'Photo'} ${item.position + 1}`;
}

const STEP_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(TEMPLATE_TEXTS.en.photo.steps).map(([id, texts]) => [id, texts.label]),
);

/** `n` things in words: "1 photo", "3 photos" (English plurals in `s`, or the one given). */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A camera's clock reading (`2003-12-20T16:10:54`, with its offset when the camera recorded one) as a
 * person reads it, without moving it to another zone: the camera's clock is all there is.
 */
export function cameraTime(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(
    text,
  );
  if (!match) return text;
  const [, y, mo, d, h, mi, offset] = match;
  const shown = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!)).toLocaleString('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return offset ? `${shown} (UTC${offset === 'Z' ? '' : offset})` : `${shown} (camera clock)`;
}

/** A screen orientation as the browser names it (`portrait-primary`), in words. */
export const orientationText = (value: string): string =>
  value.startsWith('portrait') ? 'portrait' : value.startsWith('landscape') ? 'landscape' : value;

/** Maker and model, without the maker twice ("Canon" + "Canon EOS 5D" → "Canon EOS 5D"). */
export function deviceText(make: string | null | undefined, model: string | null | undefined): string {
  if (make && model && model.toLowerCase().startsWith(make.toLowerCase())) return model;
  return [make, model].filter(Boolean).join(' ');
}
