import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeOcr } from './ocr/index.js';
import { polarityAt, readCrop, readLines } from './text-lines.js';

afterAll(closeOcr);

/** A 48 px high line crop of `ground`, with a 6 px stroke of `stroke` down the middle of each 30 px cell. */
function crop(cells: readonly (readonly [ground: number, stroke: number])[]) {
  const [width, height] = [30 * cells.length, 48];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [ground, stroke] = cells[Math.floor(x / 30)]!;
      data.fill(
        x % 30 >= 12 && x % 30 < 18 && y >= 8 && y < 40 ? stroke : ground,
        (y * width + x) * 3,
        (y * width + x + 1) * 3,
      );
    }
  return { width, height, data };
}

describe('polarityAt', () => {
  it('tells a dark character on light ground from a light one on dark, whatever the ground level', () => {
    // White on black drums, then a black on white tenths drum; under glare, the drums' ground grey.
    const line = crop([
      [20, 230],
      [150, 250],
      [230, 15],
    ]);
    const at = (cell: number) => polarityAt(line, (cell * 30 + 15) / line.width);
    expect(at(0)).toBeLessThan(-0.15);
    expect(at(1)).toBeLessThan(-0.15);
    expect(at(2)).toBeGreaterThan(0.15);
  });
});

/** A digit cut out tightly, as the detector boxes one alone: a bold 2, `ink` on `ground`, 34 x 44 px. */
async function loneDigit(ground: string, ink: string) {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="34" height="44">` +
    `<rect width="100%" height="100%" fill="${ground}"/>` +
    `<text x="17" y="40" font-family="DejaVu Sans" font-weight="bold" font-size="54" text-anchor="middle" fill="${ink}">2</text>` +
    `</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('readCrop', () => {
  it('measures a character alone in its box over the whole box: its ground, not its strokes', async () => {
    // A tenths drum's dark 2 on white, and a drum's white 2 on black.
    const tenths = await readCrop(await loneDigit('#e8e4da', '#141414'));
    const drum = await readCrop(await loneDigit('#141414', '#e8e4da'));
    expect(tenths?.text).toBe('2');
    expect(drum?.text).toBe('2');
    const lightness = (ink: readonly number[] | undefined) => (ink ?? []).reduce((sum, c) => sum + c, 0) / 3;
    expect(lightness(tenths?.inks?.[0])).toBeGreaterThan(180);
    expect(lightness(drum?.inks?.[0])).toBeLessThan(75);
  });
});

describe('faces', () => {
  it("measures each drum's face above and below its digit, whatever the digit's strokes", async () => {
    // Two drums: a heavy white 8 on black, filling most of its cell, and a black 8 on white (a tenths
    // drum).
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64">` +
      `<rect width="48" height="64" fill="#141414"/><rect x="48" width="48" height="64" fill="#ecebe6"/>` +
      `<g font-family="DejaVu Sans" font-weight="bold" font-size="52" text-anchor="middle">` +
      `<text x="24" y="51" fill="#ecebe6" stroke="#ecebe6" stroke-width="5">8</text>` +
      `<text x="72" y="51" fill="#141414">8</text></g></svg>`;
    const { data, info } = await sharp(Buffer.from(svg))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const read = await readCrop({ data, width: info.width, height: info.height });
    expect(read?.text).toBe('88');
    const lightness = (ink: readonly number[] | undefined) => (ink ?? []).reduce((sum, c) => sum + c, 0) / 3;
    expect(lightness(read?.faces?.[0])).toBeLessThan(60);
    expect(lightness(read?.faces?.[1])).toBeGreaterThan(180);
  });
});

describe('readLines', () => {
  it('looks again on the whole preview when the first look found nothing: faint small text', async () => {
    // A VIN 10 px high, faint and soft on a dark ground (a windshield plate seen steeply): at 640 px
    // the detector finds no box.
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768"><rect width="100%" height="100%" fill="#2a2c30"/>` +
      `<text x="420" y="400" font-family="DejaVu Sans" font-weight="bold" font-size="10" letter-spacing="2.5" fill="#555a5a">1HGCM82633A004352</text></svg>`;
    const { data, info } = await sharp(Buffer.from(svg))
      .blur(0.8)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const lines = await readLines({ data, width: info.width, height: info.height });
    expect(lines.map((line) => line.text)).toEqual(['1HGCM82633A004352']);
  });
});
