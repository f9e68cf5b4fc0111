import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExifPart } from '../domain/result/image-parts.js';
import { exifAnalyzer, exifFacts, isoTime } from './exif.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const photo = (name: string) => path.join(PHOTOS, name);

// The exif analyzer reads the file itself; the preview is not used.
const analyse = (sourcePath: string) =>
  exifAnalyzer.analyse(
    {
      sourcePath,
      mime: 'image/jpeg',
      width: 1,
      height: 1,
      preview: { data: Buffer.alloc(3), width: 1, height: 1 },
    },
    { inputMetaData: {}, signal: new AbortController().signal },
  );

const NONE: ExifPart = {
  capture_time: null,
  modify_time: null,
  gps: null,
  camera_make: null,
  camera_model: null,
  lens: null,
  software: null,
  edited: false,
  edited_reasons: [],
};

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-exif-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('exif analyzer', () => {
  it('reads capture time with its offset, GPS, camera and software from exif.jpg', async () => {
    const result = await analyse(photo('exif.jpg'));
    expect(result).toEqual({
      capture_time: '2024-04-30T14:22:11+02:00',
      modify_time: '2024-05-01T10:00:00',
      gps: {
        latitude: expect.closeTo(52.370094, 5) as number,
        longitude: expect.closeTo(4.889444, 5) as number,
        altitude: 12,
      },
      camera_make: 'Apple',
      camera_model: 'iPhone 14 Pro',
      lens: null,
      software: 'Adobe Photoshop 25.0',
      edited: true,
      edited_reasons: ['software', 'modify_date'],
    });
    expect(Value.Check(ExifPart, result)).toBe(true);
  });

  it('gives nulls for photos without EXIF, HEIC included', async () => {
    for (const name of ['home.jpg', 'scene.heic']) {
      const result = await analyse(photo(name));
      expect(result).toEqual(NONE);
      expect(Value.Check(ExifPart, result)).toBe(true);
    }
  });

  it('gives nulls for a file exifr does not know', async () => {
    const junk = path.join(dir, 'junk.bin');
    await fs.writeFile(junk, 'not an image at all, just some text to read');
    expect(await analyse(junk)).toEqual(NONE);
  });

  it('leaves a capture time without offset local, and reads the lens', async () => {
    const file = path.join(dir, 'pixel.jpg');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#888' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Google', Model: 'Pixel 7', Software: 'HDR+ 1.0.540104767zd' },
        IFD2: { DateTimeOriginal: '2023:01:02 03:04:05', LensModel: 'Pixel 7 back camera 6.81mm f/1.85' },
      })
      .toFile(file);
    const result = await analyse(file);
    expect(result).toMatchObject({
      capture_time: '2023-01-02T03:04:05',
      camera_make: 'Google',
      lens: 'Pixel 7 back camera 6.81mm f/1.85',
      software: 'HDR+ 1.0.540104767zd',
      edited: false,
      gps: null,
    });
    expect(Value.Check(ExifPart, result)).toBe(true);
  });
});

describe('exifFacts', () => {
  it('does not call a phone camera an editor, nor equal dates an edit', () => {
    const facts = exifFacts({
      Software: '17.4.1',
      DateTimeOriginal: '2024:04:30 14:22:11',
      ModifyDate: '2024:04:30 14:22:11',
      OffsetTimeOriginal: '+02:00',
      OffsetTime: '+02:00',
    });
    expect(facts).toMatchObject({ edited: false, edited_reasons: [] });
  });

  it.each(['GIMP 2.10.36', 'Snapseed 2.0', 'Adobe Photoshop Lightroom Classic 13.0', 'Picsart'])(
    'names %s an editor',
    (software) => {
      expect(exifFacts({ Software: software })).toMatchObject({ edited: true, edited_reasons: ['software'] });
    },
  );

  it('signs the altitude below sea level and drops a 0/0 position', () => {
    const at = { latitude: -33.87, longitude: 151.21, GPSAltitude: 2.5 };
    expect(exifFacts({ ...at, GPSAltitudeRef: 1 }).gps).toEqual({
      ...{ latitude: -33.87, longitude: 151.21 },
      altitude: -2.5,
    });
    expect(exifFacts({ ...at, GPSAltitudeRef: Uint8Array.of(1) }).gps?.altitude).toBe(-2.5);
    expect(exifFacts({ latitude: -33.87, longitude: 151.21 }).gps?.altitude).toBeNull();
    expect(exifFacts({ latitude: 0, longitude: 0 }).gps).toBeNull();
  });
});

describe('isoTime', () => {
  it('combines an EXIF date with a valid offset only', () => {
    expect(isoTime('2024:04:30 14:22:11', '-05:00')).toBe('2024-04-30T14:22:11-05:00');
    expect(isoTime('2024:04:30 14:22:11', 'junk')).toBe('2024-04-30T14:22:11');
    expect(isoTime('2024:04:30 14:22:11\0', undefined)).toBe('2024-04-30T14:22:11');
  });

  it('gives null for placeholders and impossible dates', () => {
    for (const value of [
      '0000:00:00 00:00:00',
      '    :  :     :  :  ',
      '2023:02:29 10:00:00',
      '',
      42,
      undefined,
    ]) {
      expect(isoTime(value, '+01:00')).toBeNull();
    }
  });
});
