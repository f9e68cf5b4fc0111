import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FingerprintPart } from '../domain/result/image-parts.js';
import { dHash, fingerprintAnalyzer, hammingDistance, REUSE_MAX_DISTANCE } from './fingerprint.js';
import { prepareImage } from './prepare.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const photo = (name: string) => path.join(PHOTOS, name);
const JPEGS = ['exif.jpg', 'home.jpg', 'licenseplate_motion.jpg', 'scenetext01.jpg'];

const hashOf = async (file: string, mime = 'image/jpeg') => dHash((await prepareImage(file, mime)).preview);

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-fingerprint-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('fingerprint analyzer', () => {
  it('gives a 16-hex dHash and no matches, valid against its schema', async () => {
    for (const [name, mime] of [
      ...JPEGS.map((n) => [n, 'image/jpeg']),
      ['scene.heic', 'image/heic'],
    ] as const) {
      const image = await prepareImage(photo(name), mime);
      const part = await fingerprintAnalyzer.analyse(image, {
        inputMetaData: {},
        signal: new AbortController().signal,
      });
      expect(part.dhash).toMatch(/^[0-9a-f]{16}$/);
      expect(part.matches).toEqual([]);
      expect(Value.Check(FingerprintPart, part)).toBe(true);
    }
  });

  it('keeps the same photo within REUSE_MAX_DISTANCE after recompression, resizing and darkening', async () => {
    for (const name of JPEGS) {
      const original = await hashOf(photo(name));
      const { width } = await sharp(photo(name)).metadata();
      const variants = {
        recompressed: sharp(photo(name))
          .resize(Math.round(width / 2))
          .jpeg({ quality: 40 }),
        darkened: sharp(photo(name)).linear(0.5, 0).jpeg(),
      };
      for (const [kind, pipeline] of Object.entries(variants)) {
        const file = path.join(dir, `${kind}-${name}`);
        await pipeline.toFile(file);
        expect(hammingDistance(original, await hashOf(file)), `${name} ${kind}`).toBeLessThanOrEqual(
          REUSE_MAX_DISTANCE,
        );
      }
    }
  });

  it('finds the HEIC round trip of exif.jpg the same photo', async () => {
    const distance = hammingDistance(
      await hashOf(photo('exif.jpg')),
      await hashOf(photo('scene.heic'), 'image/heic'),
    );
    expect(distance).toBeLessThanOrEqual(REUSE_MAX_DISTANCE);
  });

  it('keeps different photos far apart', async () => {
    const hashes = await Promise.all(JPEGS.map((name) => hashOf(photo(name))));
    for (let i = 0; i < hashes.length; i++) {
      for (let j = i + 1; j < hashes.length; j++) {
        expect(hammingDistance(hashes[i]!, hashes[j]!), `${JPEGS[i]} vs ${JPEGS[j]}`).toBeGreaterThan(
          2 * REUSE_MAX_DISTANCE,
        );
      }
    }
  });
});

describe('hammingDistance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('a08c727169691648', 'a08c727169691649')).toBe(1);
    expect(hammingDistance('8000000000000000', '0000000000000001')).toBe(2);
  });

  it('refuses what is not a dHash', () => {
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow(TypeError);
    expect(() => hammingDistance('A08C727169691648', 'a08c727169691648')).toThrow(TypeError);
  });
});
