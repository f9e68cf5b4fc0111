// Where the lines look like the pieces of one VIN, and the closer look's lines brought back.
import { describe, expect, it } from 'vitest';
import { closerLook, fromCloserLook, vinPiecesRegion } from './closer-look.js';
import type { ReadLine } from './text-lines.js';

const line = (text: string, x: number, y: number, width: number, height: number): ReadLine => ({
  text,
  confidence: 0.95,
  box: { x, y, width, height },
});

describe('vinPiecesRegion', () => {
  it('finds two pieces running down a slanted line, 15 to 20 characters together', () => {
    // A windshield VIN split in two, its 7 read in both pieces (tuning photo vin-windshield-10).
    const lines = [
      line('KNAZWT', 0.214, 0.291, 0.106, 0.105),
      line('7R2778351550', 0.305, 0.364, 0.301, 0.283),
    ];
    const region = vinPiecesRegion(lines, 4 / 3)!;
    expect(region.x).toBeLessThan(0.214);
    expect(region.y).toBeLessThan(0.291);
    expect(region.x + region.width).toBeGreaterThan(0.606);
    expect(region.y + region.height).toBeGreaterThan(0.647);
  });

  it('finds a line of 15 or 16 characters: a VIN whose box cut off an end', () => {
    // LSVLHE3P81W373908 read without its L (tuning photo vin-windshield-32).
    const region = vinPiecesRegion([line('SVLHE3P81W373908', 0.3, 0.4, 0.3, 0.1)], 4 / 3)!;
    expect(region.x).toBeLessThan(0.3 - 0.03);
    expect(region.x + region.width).toBeGreaterThan(0.6 + 0.03);
    expect(vinPiecesRegion([line('SVLHE3P81W37', 0.3, 0.4, 0.3, 0.1)], 4 / 3)).toBeUndefined();
  });

  it('finds none for a whole VIN, a plate, words, or pieces far apart', () => {
    const aspect = 4 / 3;
    expect(vinPiecesRegion([line('1M8GDM9AXKP042788', 0.1, 0.1, 0.5, 0.05)], aspect)).toBeUndefined();
    expect(vinPiecesRegion([line('AB-123-CD', 0.4, 0.6, 0.1, 0.04)], aspect)).toBeUndefined();
    const words = [
      line('MADE IN GERMANY', 0.1, 0.1, 0.3, 0.04),
      line('BY VOLKSWAGEN AG', 0.42, 0.1, 0.3, 0.04),
    ];
    expect(vinPiecesRegion(words, aspect)).toBeUndefined();
    const apart = [line('KNAZW7R2', 0.05, 0.1, 0.1, 0.04), line('778351550', 0.7, 0.8, 0.12, 0.04)];
    expect(vinPiecesRegion(apart, aspect)).toBeUndefined();
  });
});

describe('closerLook', () => {
  it('cuts the region out twice as large, and brings its lines back to the whole image', () => {
    const image = { width: 100, height: 50, data: new Uint8Array(100 * 50 * 3).fill(128) };
    const region = { x: 0.2, y: 0.2, width: 0.5, height: 0.4 };
    expect(closerLook(image, region)).toMatchObject({ width: 100, height: 40 });
    const back = fromCloserLook(line('KNAZW7R2778351550', 0.5, 0.5, 0.5, 0.25), region);
    expect(back.box).toEqual({ x: 0.45, y: 0.4, width: 0.25, height: 0.1 });
    expect(back.vinOnly).toBe(true);
  });
});
