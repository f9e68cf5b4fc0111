// The text analyzer on real pixels: a plate and a VIN label composited into a fixture photo, a dashboard
// rendered with the system's DejaVu fonts, and a photo without text.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import sharp, { type OverlayOptions } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextPart } from '../domain/result/detection-parts.js';
import type { AnalysisContext, PreparedImage } from './analyzer.js';
import { closeTextReader, onlyPieces, textAnalyzer } from './text.js';
import { preparedFrom } from '../../test/helpers/prepared-image.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const context = (inputMetaData: Record<string, unknown> = {}): AnalysisContext => ({
  inputMetaData,
  signal: new AbortController().signal,
});

/** A card of `width` x `height` with one line of text, as SVG. */
const card = (text: string, { width = 300, height = 64, size = 44, ink = '#111', paper = '#f6f6f2' } = {}) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="100%" height="100%" fill="${paper}" stroke="#222" stroke-width="3"/>` +
      `<text x="${width / 2}" y="${height / 2 + size * 0.36}" font-family="DejaVu Sans" font-weight="bold" ` +
      `font-size="${size}" text-anchor="middle" fill="${ink}">${text}</text></svg>`,
  );

/** The vehicle photo at 1024 px with `overlays` pasted on it, blurred by `blur` px (none when 0). */
async function onVehiclePhoto(overlays: OverlayOptions[], blur = 0): Promise<PreparedImage> {
  const png = await sharp(path.join(PHOTOS, 'licenseplate_motion.jpg'))
    .resize(1024)
    .composite(overlays)
    .png()
    .toBuffer();
  return preparedFrom(blur > 0 ? await sharp(png).blur(blur).png().toBuffer() : png, { mime: 'image/png' });
}

/** The vehicle photo at 1024 px with a French plate and a VIN label on it. */
async function vehiclePhoto(): Promise<PreparedImage> {
  const plate = await sharp(card('AB-123-CD')).rotate(-4, { background: '#0000' }).png().toBuffer();
  const vin = card('1M8GDM9AXKP042788', { width: 420, height: 40, size: 26, paper: '#e8e8e8' });
  return onVehiclePhoto([
    { input: plate, left: 380, top: 520 },
    { input: vin, left: 60, top: 80 },
  ]);
}

/**
 * The vehicle photo at 1024 px with an Abu Dhabi plate 200 px wide, slightly blurred: its code 5 white on
 * red under the emirate's name, beside the number 53397. The detector alone finds the number only.
 */
async function abuDhabiPhoto(): Promise<PreparedImage> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="110">` +
    `<rect x="1" y="1" width="518" height="108" rx="8" fill="#fafafa" stroke="#222" stroke-width="3"/>` +
    `<rect x="6" y="6" width="96" height="98" rx="4" fill="#c8102e"/>` +
    `<text x="54" y="28" font-family="DejaVu Sans" font-size="11" text-anchor="middle" fill="#fff">أبوظبي</text>` +
    `<text x="54" y="44" font-family="DejaVu Sans" font-weight="bold" font-size="11" text-anchor="middle" fill="#fff">A.D</text>` +
    `<text x="54" y="94" font-family="DejaVu Sans Condensed" font-weight="bold" font-size="58" text-anchor="middle" fill="#fff">5</text>` +
    `<text x="335" y="87" font-family="DejaVu Sans Condensed" font-weight="bold" font-size="88" text-anchor="middle" fill="#111">53397</text>` +
    `</svg>`;
  const plate = await sharp(Buffer.from(svg)).resize(200).png().toBuffer();
  return onVehiclePhoto([{ input: plate, left: 380, top: 520 }], 1.3);
}

/** An analogue counter 02274 with its tenths drum white on red, and the trip counter 00859 right of it. */
async function drumCounters(): Promise<PreparedImage> {
  const drums = (digits: string, x: number, y: number, width: number, height: number) =>
    [...digits]
      .map((digit, i) => {
        const fill = i === digits.length - 1 ? '#b3121b' : '#141414';
        const centre = x + i * width + (width - 2) / 2;
        return (
          `<rect x="${x + i * width}" y="${y}" width="${width - 2}" height="${height}" fill="${fill}"/>` +
          `<text x="${centre}" y="${y + height * 0.78}" font-family="DejaVu Sans Condensed" font-weight="bold" ` +
          `font-size="${height * 0.8}" text-anchor="middle" fill="#f4f4f4">${digit}</text>`
        );
      })
      .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="576">` +
    `<rect width="100%" height="100%" fill="#262b26"/>` +
    `<circle cx="512" cy="288" r="260" fill="#1b1f1b" stroke="#777" stroke-width="6"/>` +
    drums('02274', 360, 330, 26, 40) +
    drums('00859', 520, 342, 21, 30) +
    `</svg>`;
  return preparedFrom(await sharp(Buffer.from(svg)).blur(0.8).png().toBuffer(), { mime: 'image/png' });
}

/**
 * The vehicle photo at 1024 px with a VIN plate (light characters on dark metal) seen steeply, slanted
 * and squashed: the detector cuts it in two pieces at the preview's scale.
 */
async function steepVinPhoto(): Promise<PreparedImage> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="60"><rect width="100%" height="100%" fill="#2a2d30"/>` +
    `<text x="280" y="44" font-family="DejaVu Sans Mono" font-weight="bold" font-size="38" text-anchor="middle" ` +
    `fill="#d8d8d0">KNAZW7R2778351550</text></svg>`;
  const strip = await sharp(Buffer.from(svg)).resize(520).png().toBuffer();
  const seen = await sharp(strip)
    .affine(
      [
        [1, 0],
        [0.3, 0.6],
      ],
      { background: '#0000' },
    )
    .png()
    .toBuffer();
  return onVehiclePhoto([{ input: seen, left: 300, top: 200 }], 1);
}

/** A digital instrument cluster: the odometer, a trip meter, a clock and the outside temperature. */
async function dashboard(): Promise<PreparedImage> {
  const line = (text: string, x: number, y: number, size: number) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${size}" fill="#f2f2f2">${text}</text>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="576">` +
    `<rect width="100%" height="100%" fill="#0b0d12"/>` +
    `<circle cx="200" cy="300" r="170" fill="none" stroke="#555" stroke-width="8"/>` +
    `<circle cx="824" cy="300" r="170" fill="none" stroke="#555" stroke-width="8"/>` +
    line('12:45', 460, 90, 34) +
    line('21°C', 470, 140, 28) +
    line('TRIP A 123.4 km', 400, 330, 26) +
    line('ODO 45218 km', 400, 400, 40) +
    `</svg>`;
  return preparedFrom(await sharp(Buffer.from(svg)).png().toBuffer(), { mime: 'image/png' });
}

/** Rows of a 5 × 7 dot-matrix font (bit 4 the leftmost column), as a display's controller draws them. */
const DOT_FONT: Record<string, readonly number[]> = {
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  k: [0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12],
  m: [0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11],
  ',': [0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

/** A trip computer's dot-matrix display: amber dots on black, the odometer on one line. */
async function dotDisplay(text: string): Promise<PreparedImage> {
  const pitch = 9;
  const dots = [...text].flatMap((char, i) =>
    DOT_FONT[char]!.flatMap((bits, row) =>
      [0, 1, 2, 3, 4]
        .filter((column) => (bits >> (4 - column)) & 1)
        .map(
          (column) =>
            `<rect x="${240 + (i * 6 + column) * pitch}" y="${250 + row * pitch}" width="7.5" height="7.5" rx="2"/>`,
        ),
    ),
  );
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="576">` +
    `<rect width="100%" height="100%" fill="#0c0906"/><g fill="#ffa53a">${dots.join('')}</g></svg>`;
  return preparedFrom(await sharp(Buffer.from(svg)).png().toBuffer(), { mime: 'image/png' });
}

afterAll(closeTextReader);

describe('text analyzer', () => {
  let vehicle: PreparedImage;
  beforeAll(async () => {
    vehicle = await vehiclePhoto();
  });

  it('reads the plate and the VIN, with their boxes, and matches them with inputMetaData', async () => {
    const part = await textAnalyzer.analyse(
      vehicle,
      context({ licensePlate: 'ab 123 cd', vin: '1M8GDM9AXKP042788' }),
    );
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', country: 'FR', match: true });
    expect(part.plate.confidence).toBeGreaterThan(0.8);
    // The plate was pasted at (380, 520) of 1024 x 823.
    expect(part.plate.box!.x).toBeCloseTo(380 / 1024, 1);
    expect(part.plate.box!.y).toBeCloseTo(520 / vehicle.preview.height, 1);
    expect(part.vin).toMatchObject({ read: '1M8GDM9AXKP042788', match: true, check_digit_valid: true });
    expect(part.odometer?.read).toBeNull();
    expect(part.flags).toEqual([]);
  });

  it('flags a plate other than the expected one', async () => {
    const part = await textAnalyzer.analyse(vehicle, context({ licensePlate: 'XY-987-ZZ' }));
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', expected: 'XY-987-ZZ', match: false });
    expect(part.flags).toEqual(['plate_mismatch']);
  });

  it('reads a VIN seen steeply, which the detector cut in pieces, on a closer look', async () => {
    const part = await textAnalyzer.analyse(await steepVinPhoto(), context({ vin: 'KNAZW7R2778351550' }));
    expect(part.vin).toMatchObject({ read: 'KNAZW7R2778351550', check_digit_valid: true, match: true });
    // Within the strip pasted at x 300–820 of 1024: the closer look's box brought back to the photo.
    const { x, width } = part.vin.box!;
    expect(x).toBeGreaterThanOrEqual(300 / 1024);
    expect(x + width).toBeLessThanOrEqual(820 / 1024);
  });

  it('reads a windshield VIN the first look found only a piece of, looking again at full size', async () => {
    // The detector, at the first look's scale, boxes only `KNAA` of the plate's widely spaced characters.
    const photo = await preparedFrom(await readFile(path.join(PHOTOS, 'windshield-vin-spaced.jpg')));
    const part = await textAnalyzer.analyse(photo, context({ vin: 'KNAADZDB2G8579073' }));
    expect(part.vin).toMatchObject({ read: 'KNAADZDB2G8579073', check_digit_valid: true, match: true });
    expect(part.plate.read).toBeNull();
  });

  it("looks again only where the first look found a VIN's pieces, not a photo's stray words", () => {
    const lines = (...texts: string[]) =>
      texts.map((text) => ({ text, confidence: 0.9, box: { x: 0.4, y: 0.5, width: 0.1, height: 0.03 } }));
    for (const pieces of [['KNAA'], ['S', 'A'], ['08', 'W2'], ['A', 'BRU3903']])
      expect(onlyPieces(lines(...pieces)), pieces.join(' ')).toBe(true);
    // Letters no VIN holds, one character alone, a whole VIN's length or more, words, many lines.
    for (const stray of [
      ['OTO'],
      ['INSPECTION42'],
      ['1'],
      ['1HGCM82633A004352'],
      ['AB 123'],
      ['A', 'B', 'C', 'D'],
      [],
    ])
      expect(onlyPieces(lines(...stray)), stray.join(' ')).toBe(false);
  });

  it('reads an Abu Dhabi plate with its code, white on red beside the number', async () => {
    const part = await textAnalyzer.analyse(await abuDhabiPhoto(), context({ licensePlate: '5 53397' }));
    expect(part.plate).toMatchObject({ read: '5-53397', country: 'AE', match: true });
    // The box reaches from the code's box to the number's end.
    expect(part.plate.box!.x).toBeLessThan(400 / 1024);
  });

  it("takes an odometer's red tenths drum beside the trip counter for no plate's code box", async () => {
    const part = await textAnalyzer.analyse(await drumCounters(), context());
    expect(part.odometer?.read).toBe(227);
    expect(part.plate.read).toBeNull();
  });

  it('reads the odometer on a dashboard, not the trip meter, clock or temperature', async () => {
    const part = await textAnalyzer.analyse(await dashboard(), context({ odometer: 52000 }));
    expect(part.odometer).toMatchObject({ read: 45218, unit: 'km', expected: 52000, match: false });
    expect(part.flags).toEqual(['odometer_mismatch']);
    expect(part.plate.read).toBeNull();
  });

  it('reads an odometer drawn in dots, as a dot-matrix display shows it', async () => {
    const part = await textAnalyzer.analyse(await dotDisplay('56,919 km'), context({ odometer: 56919 }));
    expect(part.odometer).toMatchObject({ read: 56919, unit: 'km', match: true });
    expect(part.flags).toEqual([]);
  });

  it('reads nothing on a photo without text and flags nothing', async () => {
    const part = await textAnalyzer.analyse(
      await preparedFrom(path.join(PHOTOS, 'home.jpg')),
      context({ licensePlate: 'AB-123-CD', vin: '1M8GDM9AXKP042788', odometer: 45000 }),
    );
    expect(Value.Check(TextPart, part)).toBe(true);
    expect([part.plate.read, part.vin.read, part.odometer?.read]).toEqual([null, null, null]);
    expect(part.flags).toEqual([]);
  });

  it('gives the same part for a photo read alone and as two copies at once', async () => {
    const alone = await textAnalyzer.analyse(vehicle, context());
    const copy = await vehiclePhoto();
    const together = await Promise.all([
      textAnalyzer.analyse(vehicle, context()),
      textAnalyzer.analyse(copy, context()),
    ]);
    expect(together).toEqual([alone, alone]);
  });

  it('gives up on an aborted analysis', async () => {
    const controller = new AbortController();
    controller.abort(new Error('time is up'));
    await expect(
      textAnalyzer.analyse(vehicle, { inputMetaData: {}, signal: controller.signal }),
    ).rejects.toThrow('time is up');
  });
});
