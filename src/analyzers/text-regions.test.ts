import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { greyOf, textRegions, type PixelBox } from './text-regions.js';

/** An RGB image of `width`×`height` from an SVG body, as the analyzers' preview holds it. */
async function render(width: number, height: number, body: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { grey: greyOf(data, info.width, info.height), width: info.width, height: info.height };
}

const contains = (outer: PixelBox, inner: PixelBox) =>
  outer.x <= inner.x &&
  outer.y <= inner.y &&
  outer.x + outer.width >= inner.x + inner.width &&
  outer.y + outer.height >= inner.y + inner.height;

/** A white plate with dark text on a mid-grey car body, centred on (cx, cy). */
const plate = (text: string, cx: number, cy: number, size: number) => {
  const w = size * text.length * 0.62;
  return (
    `<rect x="${cx - w / 2}" y="${cy - size * 0.7}" width="${w}" height="${size * 1.4}" fill="white"/>` +
    `<text x="${cx}" y="${cy + size * 0.36}" font-family="DejaVu Sans" font-size="${size}" font-weight="bold" ` +
    `text-anchor="middle" fill="#111">${text}</text>`
  );
};

describe('textRegions', () => {
  it('finds a small plate on a car, whole, and little else', async () => {
    const body = `<rect width="1024" height="768" fill="#8a1c1c"/>` + plate('AB 123 CD', 512, 520, 22);
    const { grey, width, height } = await render(1024, 768, body);
    const regions = textRegions(grey, width, height);
    expect(regions.length).toBeGreaterThan(0);
    // The plate spans 450..573 × 505..536; its characters lie within.
    expect(contains(regions[0]!, { x: 452, y: 508, width: 118, height: 18 })).toBe(true);
    const area = regions.reduce((sum, r) => sum + r.width * r.height, 0);
    expect(area).toBeLessThan(0.05 * width * height);
  });

  it('finds large text as one line, at a coarser scale', async () => {
    const body = `<rect width="1024" height="768" fill="#ddd"/>` + plate('GE-482-KL', 512, 384, 110);
    const { grey, width, height } = await render(1024, 768, body);
    const [best] = textRegions(grey, width, height);
    expect(best).toBeDefined();
    expect(best!.width).toBeGreaterThan(500); // the whole line, not one of its groups
    expect(best!.textHeight).toBeGreaterThan(40);
  });

  it('finds nothing on a flat image or a smooth gradient', async () => {
    const flat = await render(640, 480, `<rect width="640" height="480" fill="#777"/>`);
    expect(textRegions(flat.grey, flat.width, flat.height)).toEqual([]);
    const gradient = await render(
      640,
      480,
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient></defs>` +
        `<rect width="640" height="480" fill="url(#g)"/>`,
    );
    expect(textRegions(gradient.grey, gradient.width, gradient.height)).toEqual([]);
  });

  it('bounds what it hands to OCR on a busy photo', async () => {
    // Noise everywhere: many text-like blobs, of which at most 8 and 30 % of the image are kept.
    const width = 800;
    const height = 600;
    const grey = new Uint8Array(width * height);
    let state = 12345;
    for (let i = 0; i < grey.length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      grey[i] = state >>> 24;
    }
    const regions = textRegions(grey, width, height);
    expect(regions.length).toBeLessThanOrEqual(8);
    const area = regions.slice(1).reduce((sum, r) => sum + r.width * r.height, 0);
    expect(area).toBeLessThanOrEqual(0.3 * width * height);
  });
});
