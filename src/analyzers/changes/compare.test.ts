import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTOS } from '../../../test/helpers/media.js';
import type { RgbImage } from '../ocr/types.js';
import { comparePhotos, judgedRegions, type ChangeRegion } from './compare.js';

const WIDTH = 800;
const HEIGHT = 600;

/**
 * A fixture photo (by name, or as an encoded image) as raw RGB, `WIDTH` × `HEIGHT`, turned by `degrees`
 * and zoomed by `zoom` about its centre.
 */
async function view(photo: string | Buffer, degrees = 0, zoom = 1): Promise<RgbImage> {
  const turned = await sharp(typeof photo === 'string' ? `${PHOTOS}/${photo}` : photo)
    .resize(Math.round(WIDTH * zoom), Math.round(HEIGHT * zoom))
    .rotate(degrees, { background: '#000' })
    .toBuffer({ resolveWithObject: true });
  const { data } = await sharp(turned.data)
    .extract({
      left: Math.round((turned.info.width - WIDTH) / 2),
      top: Math.round((turned.info.height - HEIGHT) / 2),
      width: WIDTH,
      height: HEIGHT,
    })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: WIDTH, height: HEIGHT };
}

/** `image` with a filled rectangle (fractions of it) of grey `level`: a panel of another colour. */
function withPanel(
  image: RgbImage,
  box: { x: number; y: number; width: number; height: number },
  level: number,
) {
  const data = Uint8Array.from(image.data);
  for (let y = Math.round(box.y * HEIGHT); y < Math.round((box.y + box.height) * HEIGHT); y++)
    for (let x = Math.round(box.x * WIDTH); x < Math.round((box.x + box.width) * WIDTH); x++)
      data.fill(level, (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3);
  return { ...image, data };
}

/** `image` with a straight line one pixel wide, `by` levels lighter, from `from` to `to` (fractions): a scratch. */
function withLine(image: RgbImage, from: [number, number], to: [number, number], by: number) {
  const data = Uint8Array.from(image.data);
  const [x0, y0, x1, y1] = [from[0] * WIDTH, from[1] * HEIGHT, to[0] * WIDTH, to[1] * HEIGHT];
  const steps = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
  for (let k = 0; k <= steps; k++) {
    const [x, y] = [Math.round(x0 + ((x1 - x0) * k) / steps), Math.round(y0 + ((y1 - y0) * k) / steps)];
    for (let i = (y * WIDTH + x) * 3; i < (y * WIDTH + x) * 3 + 3; i++)
      data[i] = Math.max(0, Math.min(255, data[i]! + by));
  }
  return { ...image, data };
}

/** `region` covers `box`, within a few pixels' margin (from the joining of its pixels). */
function expectCovering(region: ChangeRegion, box: { x: number; y: number; width: number; height: number }) {
  expect(region.box.x).toBeLessThanOrEqual(box.x + 0.01);
  expect(region.box.y).toBeLessThanOrEqual(box.y + 0.01);
  expect(region.box.x + region.box.width).toBeGreaterThanOrEqual(box.x + box.width - 0.01);
  expect(region.box.y + region.box.height).toBeGreaterThanOrEqual(box.y + box.height - 0.01);
}

// The car of scenetext01.jpg, seen again turned by 2° and 5 % nearer.
const CAR = { x: 0.05, y: 0.35, width: 0.6, height: 0.55 };

describe('comparePhotos', () => {
  it('finds no change between two views of the same scene, and the change drawn into one', async () => {
    const before = await view('scenetext01.jpg');
    const after = await view('scenetext01.jpg', 2, 1.05);
    const same = await comparePhotos(before, after, CAR);
    expect(same).toEqual({ status: 'compared', regions: [] });

    const panel = { x: 0.3, y: 0.6, width: 0.12, height: 0.1 };
    const changed = await comparePhotos(before, withPanel(after, panel, 250), CAR);
    expect(changed.status).toBe('compared');
    const regions = changed.status === 'compared' ? changed.regions : [];
    expect(regions).toHaveLength(1);
    expectCovering(regions[0]!, panel);
    expect(regions[0]!.score).toBeGreaterThan(0);
  });

  it('gives the regions in the whole photo when the vehicle box lies away from its edges', async () => {
    // The maps are made around the box only: their regions must come back to the photo's frame.
    const box = { x: 0.2, y: 0.45, width: 0.4, height: 0.42 };
    const panel = { x: 0.3, y: 0.6, width: 0.12, height: 0.1 };
    const before = await view('scenetext01.jpg');
    const after = withPanel(await view('scenetext01.jpg', 2, 1.05), panel, 250);
    const result = await comparePhotos(before, after, box);
    const regions = result.status === 'compared' ? result.regions : [];
    expect(regions).toHaveLength(1);
    expectCovering(regions[0]!, panel);
  });

  it('finds a change joined to the edge of the box by a change around the vehicle', async () => {
    const before = await view('scenetext01.jpg');
    const panel = { x: 0.3, y: 0.6, width: 0.12, height: 0.1 };
    // A strip from the box's left edge to the panel: the background changed up to the vehicle's outline.
    const strip = { x: CAR.x, y: 0.63, width: panel.x - CAR.x, height: 0.02 };
    const after = withPanel(withPanel(await view('scenetext01.jpg', 2, 1.05), panel, 250), strip, 250);
    const result = await comparePhotos(before, after, CAR);
    const regions = result.status === 'compared' ? result.regions : [];
    const covering = regions.filter(
      ({ box }) =>
        box.x <= panel.x + panel.width / 2 &&
        box.x + box.width >= panel.x + panel.width / 2 &&
        box.y <= panel.y + panel.height / 2 &&
        box.y + box.height >= panel.y + panel.height / 2,
    );
    expect(covering).toHaveLength(1);
  });

  it('finds a dark scratch one pixel wide, which an opening would erase', async () => {
    const before = await view('scenetext01.jpg');
    // Down the grey pole: a 3 px opening leaves only its top.
    const [from, to] = [
      [0.43, 0.55],
      [0.46, 0.75],
    ] as [[number, number], [number, number]];
    const after = withLine(await view('scenetext01.jpg', 2, 1.05), from, to, -130);
    const result = await comparePhotos(before, after, CAR);
    const regions = result.status === 'compared' ? result.regions : [];
    expect(regions).toHaveLength(1);
    expectCovering(regions[0]!, { x: from[0], y: from[1], width: to[0] - from[0], height: to[1] - from[1] });
  });

  it('finds a small dark spot: a change of 0.1–0.2 % of the box', async () => {
    const before = await view('scenetext01.jpg');
    // A spot of 7 × 7 px on the grey pole: joined over 9 px it covers about 0.15 % of the box.
    const spot = { x: 0.44, y: 0.62, width: 7 / WIDTH, height: 7 / HEIGHT };
    const after = withPanel(await view('scenetext01.jpg', 2, 1.05), spot, 10);
    const result = await comparePhotos(before, after, CAR);
    const regions = result.status === 'compared' ? result.regions : [];
    expect(regions).toHaveLength(1);
    expectCovering(regions[0]!, spot);
  });

  it('keeps the candidates the trees judge likely, the likeliest first, each change once, 8 at most', () => {
    const candidate = (x: number, likely: number, width = 0.05) => ({
      box: { x, y: 0.5, width, height: 0.05 },
      score: 0.5,
      features: [likely],
    });
    const byFirst = (features: number[]) => features[0]!;
    const spread = Array.from({ length: 10 }, (_, k) => candidate(k / 10, 0.5 + k / 100));
    const kept = judgedRegions(spread, byFirst);
    expect(kept.map((r) => r.box.x)).toEqual([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]);
    expect(judgedRegions(spread, () => 0.1)).toEqual([]);
    // The same change found twice, whole and in part: the part within the likelier whole is not shown.
    const twice = [candidate(0.15, 0.6, 0.05), candidate(0.1, 0.9, 0.2)];
    expect(judgedRegions(twice, byFirst).map((r) => r.box.width)).toEqual([0.2]);
  });

  it('finds a scuff: short strokes close together, each a speck alone', async () => {
    const before = await view('scenetext01.jpg');
    // Twelve strokes of 5 px, one pixel wide, 4 px apart in rows and 6 in columns, on the grey pole.
    let after = await view('scenetext01.jpg', 2, 1.05);
    const [x0, y0] = [0.43, 0.6];
    for (let row = 0; row < 4; row++)
      for (let column = 0; column < 3; column++) {
        const [x, y] = [x0 + (column * 8 + (row % 2) * 3) / WIDTH, y0 + (row * 6) / HEIGHT];
        after = withLine(after, [x, y], [x + 4 / WIDTH, y + 1 / HEIGHT], -120);
      }
    const result = await comparePhotos(before, after, CAR);
    const regions = result.status === 'compared' ? result.regions : [];
    expect(regions).toHaveLength(1);
    expectCovering(regions[0]!, { x: x0, y: y0, width: 23 / WIDTH, height: 19 / HEIGHT });
  });

  it('finds a faint scuff, too faint stroke by stroke, by the texture it adds to flat paint', async () => {
    // A panel of flat paint in the scene, seen from both places; rows of 5 px strokes 3 px apart, one
    // pixel wide and 16 levels darker, on it in the later photo.
    const painted = await sharp(`${PHOTOS}/scenetext01.jpg`)
      .resize(WIDTH, HEIGHT)
      .composite([
        {
          input: Buffer.from(
            `<svg width="${WIDTH}" height="${HEIGHT}"><rect x="300" y="330" width="140" height="90" fill="#8a8a8a"/></svg>`,
          ),
        },
      ])
      .png()
      .toBuffer();
    const before = await view(painted);
    let after = await view(painted, 2, 1.05);
    const [x0, y0] = [0.43, 0.6];
    for (let row = 0; row < 8; row++)
      for (let column = 0; column < 6; column++) {
        const [x, y] = [x0 + (column * 8 + (row % 2) * 3) / WIDTH, y0 + (row * 3) / HEIGHT];
        after = withLine(after, [x, y], [x + 4 / WIDTH, y], -16);
      }
    const result = await comparePhotos(before, after, CAR);
    const regions = result.status === 'compared' ? result.regions : [];
    expect(regions).toHaveLength(1);
    expectCovering(regions[0]!, {
      x: x0 + 4 / WIDTH,
      y: y0 + 4 / HEIGHT,
      width: 40 / WIDTH,
      height: 14 / HEIGHT,
    });
  });

  it('says when two photos of different scenes cannot be aligned', async () => {
    const result = await comparePhotos(await view('home.jpg'), await view('scenetext01.jpg'), CAR);
    expect(result.status).toBe('not_aligned');
  });

  it('gives the same regions for the same pair every time', async () => {
    const before = await view('scenetext01.jpg');
    const after = withPanel(
      await view('scenetext01.jpg', -1.5, 1.03),
      { x: 0.2, y: 0.5, width: 0.1, height: 0.1 },
      10,
    );
    const first = await comparePhotos(before, after, CAR);
    expect(await comparePhotos(before, after, CAR)).toEqual(first);
  });
});
