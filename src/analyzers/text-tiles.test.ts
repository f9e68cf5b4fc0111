import { describe, expect, it } from 'vitest';
import { cutTile, type GreyImage } from './text-tiles.js';

/** A white image with one black pixel-wide vertical bar at `barX`. */
function withBar(width: number, height: number, barX: number): GreyImage {
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) data[y * width + barX] = 0;
  return { data, width, height };
}

const darkest = (tile: GreyImage) => Math.min(...tile.data);

describe('cutTile', () => {
  it('enlarges the region, keeping what lies where', () => {
    const image = withBar(100, 50, 30);
    const tile = cutTile(
      image,
      { x: 20, y: 10, width: 20, height: 10 },
      { scale: 2, angle: 0, stretch: false },
    );
    expect([tile.width, tile.height]).toEqual([40, 20]);
    expect(tile.margin).toEqual({ x: 0, y: 0 });
    // The bar, 10 px into the region, is 20 px into the tile.
    const row = Array.from(tile.data.subarray(10 * tile.width, 11 * tile.width));
    const dark = row.findIndex((value) => value < 128);
    expect(dark).toBeGreaterThanOrEqual(19);
    expect(dark).toBeLessThanOrEqual(21);
  });

  it('turns the region on a canvas that holds it whole, white around it', () => {
    const image = withBar(100, 50, 30);
    const region = { x: 20, y: 10, width: 40, height: 20 };
    const tile = cutTile(image, region, { scale: 1, angle: 10, stretch: false });
    expect(tile.width).toBeGreaterThan(40);
    expect(tile.height).toBeGreaterThan(20);
    expect(tile.margin.x).toBeGreaterThan(0);
    expect(tile.data[0]).toBe(255); // a corner of the canvas, outside the turned region
    expect(darkest(tile)).toBeLessThan(128); // the bar is still there
  });

  it('stretches grey text on grey to black on white, from the region’s own levels', () => {
    const data = new Uint8Array(40 * 20).fill(150);
    for (let y = 5; y < 15; y++) for (let x = 10; x < 30; x += 4) data[y * 40 + x] = 110;
    const image = { data, width: 40, height: 20 };
    const tile = cutTile(image, { x: 0, y: 0, width: 40, height: 20 }, { scale: 1, angle: 0, stretch: true });
    expect(darkest(tile)).toBe(0);
    expect(Math.max(...tile.data)).toBe(255);
    const plain = cutTile(
      image,
      { x: 0, y: 0, width: 40, height: 20 },
      { scale: 1, angle: 0, stretch: false },
    );
    expect(darkest(plain)).toBe(110);
  });
});
