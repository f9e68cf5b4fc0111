import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QualityPart } from '../domain/result/image-parts.js';
import type { AnalysisContext } from './analyzer.js';
import { prepareImage } from './prepare.js';
import { assessQuality, BLUR_MIN_VARIANCE, qualityAnalyzer } from './quality.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const photo = (name: string) => path.join(PHOTOS, name);
const context = (): AnalysisContext => ({ inputMetaData: {}, signal: new AbortController().signal });
const analyse = async (file: string, mime = 'image/jpeg') =>
  qualityAnalyzer.analyse(await prepareImage(file, mime), context());

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-quality-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('quality analyzer', () => {
  it('flags the motion-blurred photo as blurry', async () => {
    const result = await analyse(photo('licenseplate_motion.jpg'));
    expect(result.blur.pass).toBe(false);
    expect(result.blur.score).toBeLessThan(BLUR_MIN_VARIANCE);
    expect(result.pass).toBe(false);
  });

  it.each(['home.jpg', 'exif.jpg'])('finds %s sharp and well exposed', async (name) => {
    const result = await analyse(photo(name));
    expect(result.blur.pass).toBe(true);
    expect(result.exposure).toMatchObject({ state: 'ok', pass: true });
  });

  it('judges resolution on the original short side', async () => {
    const large = await analyse(photo('exif.jpg'));
    expect(large.resolution).toEqual({
      score: 1200,
      threshold: 720,
      width: 1600,
      height: 1200,
      megapixels: 1.92,
      pass: true,
    });
    expect(large.pass).toBe(true);
    const small = await analyse(photo('home.jpg'));
    expect(small.resolution).toMatchObject({ score: 384, pass: false });
  });

  it("calls a very dark photo 'dark' and a blown-out one 'overexposed'", async () => {
    const dark = path.join(dir, 'dark.jpg');
    const bright = path.join(dir, 'bright.jpg');
    await sharp(photo('home.jpg')).linear(0.15, 0).toFile(dark);
    await sharp(photo('home.jpg')).linear(2.5, 60).toFile(bright);
    const darkResult = await analyse(dark);
    expect(darkResult.exposure).toMatchObject({ state: 'dark', pass: false });
    expect(darkResult.exposure.score).toBeLessThan(30);
    expect((await analyse(bright)).exposure).toMatchObject({ state: 'overexposed', pass: false });
  });

  it('analyses HEIC like any other photo', async () => {
    const result = await analyse(photo('scene.heic'), 'image/heic');
    expect(result.pass).toBe(true);
  });

  it('gives output that validates against its schema', async () => {
    for (const name of ['licenseplate_motion.jpg', 'home.jpg', 'exif.jpg', 'scenetext01.jpg']) {
      expect(Value.Check(QualityPart, await analyse(photo(name)))).toBe(true);
    }
  });

  it('stops when its time is up', async () => {
    const image = await prepareImage(photo('home.jpg'), 'image/jpeg');
    const controller = new AbortController();
    controller.abort();
    await expect(
      qualityAnalyzer.analyse(image, { inputMetaData: {}, signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe('assessQuality', () => {
  it('copes with a one-pixel image', () => {
    const result = assessQuality({
      width: 1,
      height: 1,
      preview: { data: Buffer.from([10, 10, 10]), width: 1, height: 1 },
    });
    expect(result.blur).toMatchObject({ score: 0, pass: false });
    expect(result.exposure.state).toBe('dark');
    expect(Value.Check(QualityPart, result)).toBe(true);
  });
});
