// The red code box of an Abu Dhabi plate, found beside its number on rendered pixels.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RgbImage } from './ocr/index.js';
import { findCodeBox } from './plate-code-box.js';
import { onRed } from './red.js';

/**
 * A 400 x 120 plate on a grey car at (100, 200) of a 640 x 480 image: a code box in `box` colour at
 * x 110–170 with the emirate's name above the code `17`, the number 89947 at x 200–480, y 225–295.
 */
async function plate(box = '#d0112b', turn = 0): Promise<RgbImage> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">` +
    `<rect width="100%" height="100%" fill="#6a6d72"/>` +
    `<g transform="rotate(${turn} 340 260)">` +
    `<rect x="100" y="200" width="400" height="120" rx="8" fill="#f4f4f4" stroke="#222" stroke-width="4"/>` +
    `<rect x="110" y="210" width="60" height="100" fill="${box}"/>` +
    `<text x="140" y="240" font-family="DejaVu Sans" font-size="16" text-anchor="middle" fill="#fff">A.D</text>` +
    `<text x="140" y="296" font-family="DejaVu Sans" font-weight="bold" font-size="44" text-anchor="middle" fill="#fff">17</text>` +
    `<text x="340" y="292" font-family="DejaVu Sans" font-weight="bold" font-size="72" text-anchor="middle" fill="#111">89947</text>` +
    `</g></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const number = { x: 200 / 640, y: 225 / 480, width: 280 / 640, height: 70 / 480 };

describe('findCodeBox', () => {
  it('finds the red box left of the number, and its code below the name', async () => {
    const found = findCodeBox(await plate(), number)!;
    expect(found).toBeDefined();
    expect(found.redBox.x * 640).toBeCloseTo(110, -1);
    expect((found.redBox.x + found.redBox.width) * 640).toBeCloseTo(170, -1);
    // The code (y 264–296), not the name (y 228–240).
    expect(found.box.y * 480).toBeGreaterThan(250);
    expect(onRed(found.ink)).toBe(true);
    // The cut reaches to the number's right end, the code dark on light.
    expect(found.crop.width).toBeGreaterThan(280);
    // It takes in the code with its margin, lower than the number (y 225–295): from the number's top
    // down to the code's margin below it.
    const [, , [, bottom], [, bottomLeft]] = found.quad;
    const [[, top]] = found.quad;
    expect(Math.min(bottom, bottomLeft) - top).toBeGreaterThanOrEqual(
      (found.box.y + found.box.height) * 480 - 225 - 1,
    );
  });

  it('finds the box beside a slanted number, and cuts both out along its slope', async () => {
    // Turned 14° about (340, 260). The detector's box around the number reaches 15 px left of its
    // first digit (x 185–480 before the turn, 295 x 70): its upright bounds, 303 x 141 px, then reach 6 px
    // into the code box's (x 105–187).
    const image = await plate('#d0112b', 14);
    const turn = (14 * Math.PI) / 180;
    const [width, height] = [
      295 * Math.cos(turn) + 70 * Math.sin(turn),
      295 * Math.sin(turn) + 70 * Math.cos(turn),
    ];
    const slanted = {
      x: (332.5 - width / 2) / 640,
      y: (260 - height / 2) / 480,
      width: width / 640,
      height: height / 480,
    };
    const found = findCodeBox(image, slanted, 14)!;
    expect(found).toBeDefined();
    // The whole box, not the part of it left of the number's bounds.
    expect(found.redBox.width * 640).toBeGreaterThan(80);
    // The cut runs along the slope: its top edge falls 14° from the code's end to the number's.
    const [[x0, y0], [x1, y1]] = found.quad;
    expect((Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI).toBeCloseTo(14, 3);
    expect(Math.hypot(x1 - x0, y1 - y0)).toBeGreaterThan(330);
  });

  it('finds none beside a number on a box of another colour', async () => {
    expect(findCodeBox(await plate('#1b3f8f'), number)).toBeUndefined();
  });
});
