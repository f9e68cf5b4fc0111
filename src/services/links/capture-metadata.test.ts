// The capture metadata rules (docs/api.md#resumable-uploads): each key alone, against the persona's options.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.js';
import { checkCaptureMetadata, type UploadMetadata } from './capture-metadata.js';

const OPEN = { allow_gallery: 1, ask_location: 1 };
const CLOSED = { allow_gallery: 0, ask_location: 0 };
const FULL = {
  step: 'front',
  filename: 'front.jpg',
  filetype: 'image/jpeg',
  source: 'camera',
  captured_at: '2026-11-23T10:05:12.345+01:00',
  orientation: 'portrait-primary',
  latitude: '48.856613',
  longitude: '2.352222',
  accuracy: '12',
};

const refusal = (persona: typeof OPEN, metadata: UploadMetadata) => {
  try {
    checkCaptureMetadata(persona, metadata);
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.message}`;
    throw error;
  }
  return 'accepted';
};

describe('capture metadata', () => {
  it('keeps every fact, ignoring the keys it does not know', () => {
    expect(checkCaptureMetadata(OPEN, FULL)).toEqual({
      source: 'camera',
      captured_at: '2026-11-23T10:05:12.345+01:00',
      orientation: 'portrait-primary',
      location: { latitude: 48.856613, longitude: 2.352222, accuracy_m: 12 },
    });
  });

  it('is null when the app sends none, and fills what it leaves out with null', () => {
    expect(checkCaptureMetadata(OPEN, undefined)).toBeNull();
    expect(checkCaptureMetadata(OPEN, { step: 'front', filename: 'x.jpg' })).toBeNull();
    expect(checkCaptureMetadata(OPEN, { source: 'gallery' })).toEqual({
      source: 'gallery',
      captured_at: null,
      orientation: null,
      location: null,
    });
    expect(checkCaptureMetadata(OPEN, { latitude: '-33.9', longitude: '151.2' })?.location).toEqual({
      latitude: -33.9,
      longitude: 151.2,
      accuracy_m: null,
    });
  });

  it('drops the location of a persona that does not ask for it, even a malformed one', () => {
    expect(checkCaptureMetadata(CLOSED, { ...FULL, latitude: 'north' })).toEqual({
      source: 'camera',
      captured_at: FULL.captured_at,
      orientation: 'portrait-primary',
      location: null,
    });
    expect(checkCaptureMetadata(CLOSED, { latitude: '1', longitude: '2', accuracy: '3' })).toBeNull();
  });

  it('refuses the gallery where the persona does not allow it', () => {
    expect(refusal(CLOSED, { source: 'gallery' })).toBe(
      '400 Photos and videos from the gallery are not allowed for this inspection',
    );
    expect(refusal(CLOSED, { source: 'camera' })).toBe('accepted');
  });

  it.each([
    ['source', 'Camera'],
    ['source', ''],
    ['source', null],
    ['captured_at', '2026-11-23T10:05:12'], // no time zone
    ['captured_at', '2026-11-23 10:05:12Z'],
    ['captured_at', '2026-02-30T10:05:12Z'], // no such day
    ['captured_at', '2026-11-23T24:00:00Z'],
    ['captured_at', '2026-11-23T10:05:12+15:00'],
    ['captured_at', 'yesterday'],
    ['orientation', 'Portrait'],
    ['orientation', 'portrait primary'],
    ['orientation', 'p'.repeat(33)],
    ['latitude', '90.5'],
    ['latitude', '0x10'],
    ['latitude', 'NaN'],
    ['latitude', `0.${'1'.repeat(40)}`], // in range, but no phone is that precise
    ['longitude', '-180.01'],
    ['longitude', 'Infinity'],
    ['accuracy', '-1'],
    ['accuracy', '12 m'],
  ])('refuses %s %j, naming it', (field, value) => {
    expect(refusal(OPEN, { ...FULL, [field]: value })).toBe(`400 Invalid capture metadata: ${field}`);
  });

  it('wants latitude and longitude together', () => {
    expect(refusal(OPEN, { latitude: '48.8' })).toBe('400 Invalid capture metadata: longitude');
    expect(refusal(OPEN, { longitude: '2.3' })).toBe('400 Invalid capture metadata: latitude');
    expect(refusal(OPEN, { accuracy: '5' })).toBe('400 Invalid capture metadata: latitude');
  });

  it('takes the numbers and times a browser writes', () => {
    const metadata = checkCaptureMetadata(OPEN, {
      captured_at: '2026-11-23T09:05:12.345Z',
      orientation: 'landscape-secondary',
      latitude: '1e-7',
      longitude: '-0',
      accuracy: '0',
    });
    expect(metadata?.location).toEqual({ latitude: 1e-7, longitude: 0, accuracy_m: 0 });
    expect(refusal(OPEN, { captured_at: '2028-02-29T23:59Z' })).toBe('accepted');
  });
});
