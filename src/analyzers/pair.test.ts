import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PairPart } from '../domain/result/video-pair-parts.js';
import type { PreparedImage } from './analyzer.js';
import { BLOCK, changedRegions, comparePair, PAIR_HEIGHT, PAIR_WIDTH } from './pair.js';
import { preparedFrom } from '../../test/helpers/prepared-image.js';

const photo = (name: string): string =>
  decodeURIComponent(new URL(`../../test/fixtures/photos/${name}`, import.meta.url).pathname);

const prepare = (input: string | Buffer): Promise<PreparedImage> =>
  preparedFrom(input, { sourcePath: 'memory' });

async function compare(a: PreparedImage, b: PreparedImage): Promise<PairPart> {
  const part = await comparePair(a, b);
  expect(Value.Check(PairPart, part)).toBe(true);
  return part;
}

describe('comparePair', () => {
  it('finds the same photo identical, with no changed region', async () => {
    const image = await prepare(photo('scenetext01.jpg'));
    expect(await compare(image, image)).toEqual({ similarity: 1, changed_regions: [] });
  });

  it('ignores JPEG re-encoding', async () => {
    const original = await prepare(photo('home.jpg'));
    const reencoded = await prepare(await sharp(photo('home.jpg')).jpeg({ quality: 50 }).toBuffer());
    const part = await compare(original, reencoded);
    expect(part.similarity).toBeGreaterThan(0.95);
    expect(part.changed_regions).toEqual([]);
  });

  it('puts one changed region around a rectangle drawn on a copy', async () => {
    const original = await prepare(photo('scenetext01.jpg'));
    const { width, height, data } = original.preview;
    // A "scratch" at x 0.5–0.7, y 0.3–0.45 of the image.
    const patch = { width: Math.round(width * 0.2), height: Math.round(height * 0.15), channels: 3 as const };
    const rectangle = await sharp({ create: { ...patch, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    const drawn = await sharp(data, { raw: { width, height, channels: 3 } })
      .composite([{ input: rectangle, left: Math.round(width * 0.5), top: Math.round(height * 0.3) }])
      .png()
      .toBuffer();

    const part = await compare(original, await prepare(drawn));
    expect(part.similarity).toBeGreaterThan(0.9);
    expect(part.similarity).toBeLessThan(1);
    expect(part.changed_regions).toHaveLength(1);
    const [region] = part.changed_regions;
    // The box matches the rectangle to within one block.
    const column = BLOCK / PAIR_WIDTH;
    const row = BLOCK / PAIR_HEIGHT;
    expect(Math.abs((region?.x ?? 0) - 0.5)).toBeLessThanOrEqual(column);
    expect(Math.abs((region?.y ?? 0) - 0.3)).toBeLessThanOrEqual(row);
    expect(Math.abs((region?.x ?? 0) + (region?.width ?? 0) - 0.7)).toBeLessThanOrEqual(column);
    expect(Math.abs((region?.y ?? 0) + (region?.height ?? 0) - 0.45)).toBeLessThanOrEqual(row);
    expect(region?.ssim).toBeLessThan(0.5);
  });

  it('finds different photos dissimilar', async () => {
    const street = await prepare(photo('scenetext01.jpg'));
    for (const other of ['home.jpg', 'exif.jpg']) {
      const part = await compare(street, await prepare(photo(other)));
      expect(part.similarity).toBeLessThan(0.3);
      expect(part.changed_regions.length).toBeGreaterThan(0);
    }
  });
});

describe('changedRegions', () => {
  const columns = PAIR_WIDTH / BLOCK;
  const grid = (changed: [number, number, number][]): Float64Array => {
    const scores = new Float64Array(columns * (PAIR_HEIGHT / BLOCK)).fill(1);
    for (const [column, row, score] of changed) scores[row * columns + column] = score;
    return scores;
  };

  it('merges blocks that touch or are one block apart, keeps distant ones apart, most changed first', () => {
    const regions = changedRegions(
      grid([
        [0, 0, 0.4],
        [2, 0, 0.4], // one block from the first: same region
        [20, 10, 0.1], // far away: a region of its own
        [21, 11, 0.1], // diagonal neighbour
      ]),
    );
    // Regions are rounded to 4 decimals.
    const box = (...values: number[]): number[] => values.map((value) => Number(value.toFixed(4)));
    expect(regions.map((r) => [r.x, r.y, r.width, r.height, r.ssim])).toEqual([
      box(20 / 32, 10 / 24, 2 / 32, 2 / 24, 0.55),
      box(0, 0, 3 / 32, 1 / 24, 0.6),
    ]);
  });
});
