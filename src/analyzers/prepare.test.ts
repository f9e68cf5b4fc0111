import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageDecodeError, makeThumbnail, prepareImage } from './prepare.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const photo = (name: string) => path.join(PHOTOS, name);

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'walkaround-prepare-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('prepareImage', () => {
  it('scales a large JPEG to a 1024 px RGB preview and keeps the original size', async () => {
    const image = await prepareImage(photo('exif.jpg'), 'image/jpeg');
    expect(image).toMatchObject({
      sourcePath: photo('exif.jpg'),
      mime: 'image/jpeg',
      width: 1600,
      height: 1200,
    });
    expect(image.preview).toMatchObject({ width: 1024, height: 768 });
    expect(image.preview.data.length).toBe(1024 * 768 * 3);
  });

  it('decodes a smaller preview when asked, for the change comparison, the same picture', async () => {
    const full = await prepareImage(photo('exif.jpg'), 'image/jpeg');
    const small = await prepareImage(photo('exif.jpg'), 'image/jpeg', { maxSide: 768, kernel: 'mitchell' });
    expect([small.width, small.height]).toEqual([1600, 1200]);
    expect([small.preview.width, small.preview.height]).toEqual([768, 576]);
    expect(small.preview.data.length).toBe(768 * 576 * 3);
    // The same picture as the 1024 px preview brought to 768 px: a pixel differs by a few levels at most.
    const { data } = await sharp(full.preview.data, { raw: { width: 1024, height: 768, channels: 3 } })
      .resize(768, 576)
      .raw()
      .toBuffer({ resolveWithObject: true });
    let sum = 0;
    for (let i = 0; i < data.length; i++) sum += Math.abs(data[i]! - small.preview.data[i]!);
    expect(sum / data.length).toBeLessThan(3);
  });

  it('never enlarges a small photo', async () => {
    const image = await prepareImage(photo('home.jpg'), 'image/jpeg');
    expect([image.width, image.height]).toEqual([512, 384]);
    expect([image.preview.width, image.preview.height]).toEqual([512, 384]);
  });

  it('decodes HEVC HEIC through heic-decode, with the right aspect', async () => {
    const image = await prepareImage(photo('scene.heic'), 'image/heic');
    expect([image.width, image.height]).toEqual([1600, 1200]);
    expect([image.preview.width, image.preview.height]).toEqual([1024, 768]);
    expect(image.preview.data.length).toBe(1024 * 768 * 3);
    // Not a blank frame: the synthetic scene has a blue sky at the top and a grey road at the bottom.
    const top = image.preview.data.subarray(0, 3);
    expect(top[2]).toBeGreaterThan(top[0]!);
  });

  it('applies EXIF orientation to the original size and the preview', async () => {
    const file = path.join(dir, 'rotated.jpg');
    await sharp({ create: { width: 200, height: 100, channels: 3, background: '#369' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toFile(file);
    const image = await prepareImage(file, 'image/jpeg');
    expect([image.width, image.height]).toEqual([100, 200]);
    expect([image.preview.width, image.preview.height]).toEqual([100, 200]);
  });

  it('gives 3 channels for grey and transparent PNGs', async () => {
    const grey = path.join(dir, 'grey.png');
    const rgba = path.join(dir, 'rgba.png');
    await sharp({ create: { width: 40, height: 30, channels: 3, background: '#777' } })
      .greyscale()
      .png()
      .toFile(grey);
    await sharp({
      create: { width: 40, height: 30, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } },
    })
      .png()
      .toFile(rgba);
    for (const file of [grey, rgba]) {
      const image = await prepareImage(file, 'image/png');
      expect(image.preview.data.length).toBe(40 * 30 * 3);
    }
  });

  it('throws a clear error for undecodable input, without the local path', async () => {
    const junk = path.join(dir, 'junk.jpg');
    await fs.writeFile(junk, 'this is not an image');
    const truncated = path.join(dir, 'truncated.jpg');
    await fs.writeFile(truncated, (await fs.readFile(photo('home.jpg'))).subarray(0, 5000));
    for (const file of [junk, truncated, path.join(dir, 'missing.jpg')]) {
      const error = await prepareImage(file, 'image/jpeg').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImageDecodeError);
      expect((error as Error).message).toMatch(/^Cannot decode the image\/jpeg image: /);
      expect((error as Error).message).not.toContain(dir);
    }
  });
});

describe('makeThumbnail', () => {
  it('makes a JPEG whose long side is at most maxSide', async () => {
    const image = await prepareImage(photo('exif.jpg'), 'image/jpeg');
    const thumbnail = await makeThumbnail(image);
    const metadata = await sharp(thumbnail).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    expect(await sharp(await makeThumbnail(image, 100)).metadata()).toMatchObject({ width: 100, height: 75 });
    await expect(makeThumbnail(image, 0)).rejects.toThrow(RangeError);
  });
});
