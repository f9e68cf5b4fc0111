import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { TextPart } from '../domain/result/detection-parts.js';
import type { AnalysisContext, PreparedImage } from './analyzer.js';
import {
  closeTextReader,
  compact,
  isEuStylePlate,
  isPlausiblePlate,
  isVinCheckDigitValid,
  normalisePlate,
  normaliseVin,
  plateCandidates,
  sameReading,
  textAnalyzer,
  textPartFrom,
  vinCandidates,
  vinCheckDigit,
  type OcrLine,
} from './text.js';
import { preparedFrom } from '../../test/helpers/prepared-image.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const context = (inputMetaData: Record<string, unknown> = {}): AnalysisContext => ({
  inputMetaData,
  signal: new AbortController().signal,
});
/** One OCR line from `text`, every space-separated word read with `confidence`. */
const line = (text: string, confidence = 90): OcrLine =>
  text.split(' ').map((word) => ({ text: word, confidence }));

const prepare = (input: string | Buffer, sourcePath = 'synthetic.png'): Promise<PreparedImage> =>
  preparedFrom(input, { sourcePath: typeof input === 'string' ? input : sourcePath, mime: 'image/png' });

/** Dark text on a light plate, rendered with the system's DejaVu fonts. */
const textImage = (text: string, { width = 640, size = 96, font = 'DejaVu Sans' } = {}) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="200">` +
      `<rect width="100%" height="100%" fill="#f4f4f4"/>` +
      `<rect x="10" y="30" width="${width - 20}" height="140" fill="white" stroke="black" stroke-width="6"/>` +
      `<text x="${width / 2}" y="135" font-family="${font}" font-size="${size}" font-weight="bold" ` +
      `text-anchor="middle" fill="black">${text}</text></svg>`,
  );

afterAll(async () => {
  await closeTextReader();
});

describe('plate normalisation', () => {
  it('writes plates as uppercase groups joined by dashes and compares them compactly', () => {
    expect(normalisePlate(' ab 123·cd ')).toBe('AB-123-CD');
    expect(normalisePlate('AB-123-CD')).toBe('AB-123-CD');
    expect(compact('ab - 123 cd')).toBe('AB123CD');
    expect(sameReading('AB-123-CD', 'ab123cd')).toBe(true);
    expect(sameReading('AB-123-CD', 'AB-123-CE')).toBe(false);
    expect(sameReading(null, 'AB-123-CD')).toBeNull();
    expect(sameReading('AB-123-CD', null)).toBeNull();
  });

  it('knows EU-style plates', () => {
    for (const plate of ['AB-123-CD', 'M-AB-1234', '1234-BCD', '12-ABC-3', 'AB 123 CD']) {
      expect(isEuStylePlate(normalisePlate(plate).split('-')), plate).toBe(true);
    }
    for (const plate of ['ABC-DEF', '123-456', 'AB12-CD', 'A-1', 'ABCDE-123']) {
      expect(isEuStylePlate(normalisePlate(plate).split('-')), plate).toBe(false);
    }
  });

  it('takes 4–10 characters with a letter and a digit as a generic plate', () => {
    expect(isPlausiblePlate(['7ABC123'])).toBe(true);
    expect(isPlausiblePlate(['AB12', 'CDE'])).toBe(true);
    expect(isPlausiblePlate(['A1B'])).toBe(false);
    expect(isPlausiblePlate(['PARKING'])).toBe(false);
    expect(isPlausiblePlate(['12345'])).toBe(false);
    expect(isPlausiblePlate(['PARKING', '2HR'])).toBe(false);
    expect(isPlausiblePlate(['ABCDEF12345'])).toBe(false);
  });

  it('picks plate candidates from OCR lines, EU-style and longest first', () => {
    expect(plateCandidates([line('AB-123-CD.')])[0]).toEqual({ text: 'AB-123-CD', confidence: 0.9 });
    expect(plateCandidates([line('AB 123 CD')])[0]?.text).toBe('AB-123-CD');
    expect(plateCandidates([line('COVID19 zone'), line('AB-123-CD')])[0]?.text).toBe('AB-123-CD');
    expect(plateCandidates([line('DOUBLE PARKING PROHIBITED'), line('AT ALL TIMES')])).toEqual([]);
    expect(plateCandidates([line('AB-123-CD', 30)])).toEqual([]);
  });
});

describe('VIN normalisation', () => {
  it('computes the North American check digit', () => {
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(isVinCheckDigitValid('1M8GDM9AXKP042788')).toBe(true);
    expect(isVinCheckDigitValid('11111111111111111')).toBe(true);
    expect(isVinCheckDigitValid('1HGCM82633A004352')).toBe(true);
    expect(isVinCheckDigitValid('1M8GDM9A1KP042788')).toBe(false);
    expect(vinCheckDigit('1M8GDM9AXKP04278')).toBeNull();
    expect(vinCheckDigit('1M8GDM9AXKP04278O')).toBeNull();
  });

  it('drops separators and reads I, O, Q as 1, 0, 0', () => {
    expect(normaliseVin('1m8-gdm9a xkp O42788')).toBe('1M8GDM9AXKP042788');
    expect(normaliseVin('IHGCM82633AOO4352')).toBe('1HGCM82633A004352');
  });

  it('finds a VIN written whole, in groups, after a label, or with a stray character', () => {
    expect(vinCandidates([line('VIN: 1M8GDM9AXKP042788')])).toEqual([
      { text: '1M8GDM9AXKP042788', confidence: 0.9 },
    ]);
    expect(vinCandidates([line('1M8GDM9A XKP042788')])[0]?.text).toBe('1M8GDM9AXKP042788');
    expect(vinCandidates([line('1IM8GDM9AXKP042788')])[0]?.text).toBe('1M8GDM9AXKP042788');
    expect(vinCandidates([line('WVWZZZ1JZXW000001')])[0]?.text).toBe('WVWZZZ1JZXW000001');
    expect(vinCandidates([line('DOUBLE PARKING PROHIBITED')])).toEqual([]);
    expect(vinCandidates([line('1M8GDM9AXKP042788', 10)])).toEqual([]);
  });

  it('prefers a candidate whose check digit holds', () => {
    const lines = [line('1M8GDM9A1KP042788', 95), line('1M8GDM9AXKP042788', 70)];
    expect(vinCandidates(lines)[0]?.text).toBe('1M8GDM9AXKP042788');
  });
});

describe('comparison with inputMetaData', () => {
  const lines = [line('AB-123-CD'), line('VIN 1M8GDM9AXKP042788', 80)];

  it('reports matches, case- and separator-insensitively', () => {
    const part = textPartFrom(lines, { licensePlate: 'ab 123 cd', vin: '1m8gdm9axkp042788' });
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part).toEqual({
      plate: { read: 'AB-123-CD', expected: 'AB-123-CD', match: true, confidence: 0.9 },
      vin: {
        read: '1M8GDM9AXKP042788',
        expected: '1M8GDM9AXKP042788',
        match: true,
        confidence: 0.8,
        check_digit_valid: true,
      },
      flags: [],
    });
  });

  it('flags a plate and a VIN that differ from the expected ones', () => {
    const part = textPartFrom(lines, { licensePlate: 'XY-987-ZZ', vin: 'WVWZZZ1JZXW000001' });
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', expected: 'XY-987-ZZ', match: false });
    expect(part.vin).toMatchObject({ read: '1M8GDM9AXKP042788', match: false });
    expect(part.flags).toEqual(['plate_mismatch', 'vin_mismatch']);
  });

  it('flags nothing when the expected text is not found', () => {
    const part = textPartFrom([line('DOUBLE PARKING')], {
      licensePlate: 'AB-123-CD',
      vin: '1M8GDM9AXKP042788',
    });
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.plate).toEqual({ read: null, expected: 'AB-123-CD', match: null, confidence: null });
    expect(part.vin).toEqual({
      read: null,
      expected: '1M8GDM9AXKP042788',
      match: null,
      confidence: null,
      check_digit_valid: null,
    });
    expect(part.flags).toEqual([]);
  });

  it('compares nothing when nothing is expected', () => {
    const part = textPartFrom(lines, { licensePlate: '  ', vin: { not: 'a string' } });
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', expected: null, match: null });
    expect(part.vin).toMatchObject({ expected: null, match: null, check_digit_valid: true });
    expect(part.flags).toEqual([]);
  });

  it('reports the candidate equal to the expected plate when the photo shows several', () => {
    const part = textPartFrom([line('TEL-0800'), line('AB-123-CD'), line('XY-987-ZZ')], {
      licensePlate: 'XY 987 ZZ',
    });
    expect(part.plate).toMatchObject({ read: 'XY-987-ZZ', match: true });
    expect(part.flags).toEqual([]);
  });
});

describe('text analyzer (OCR)', () => {
  it('reads a clean plate', async () => {
    const part = await textAnalyzer.analyse(
      await prepare(await sharp(textImage('AB-123-CD')).png().toBuffer()),
      context(),
    );
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.plate.read).toBe('AB-123-CD');
    expect(part.plate.confidence).toBeGreaterThan(0.5);
    expect(part.plate.match).toBeNull();
    expect(part.vin.read).toBeNull();
    expect(part.flags).toEqual([]);
  });

  it('matches the expected plate and flags a different one', async () => {
    const image = await prepare(await sharp(textImage('AB-123-CD')).png().toBuffer());
    const same = await textAnalyzer.analyse(image, context({ licensePlate: 'ab 123 cd' }));
    expect(same.plate).toMatchObject({ read: 'AB-123-CD', expected: 'AB-123-CD', match: true });
    expect(same.flags).toEqual([]);
    const other = await textAnalyzer.analyse(image, context({ licensePlate: 'XY-987-ZZ' }));
    expect(other.plate).toMatchObject({ read: 'AB-123-CD', expected: 'XY-987-ZZ', match: false });
    expect(other.flags).toEqual(['plate_mismatch']);
  });

  it('reads a clean VIN and checks its check digit', async () => {
    const png = await sharp(textImage('1M8GDM9AXKP042788', { width: 700, size: 40 }))
      .png()
      .toBuffer();
    const part = await textAnalyzer.analyse(await prepare(png), context({ vin: '1M8GDM9AXKP042788' }));
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.vin).toMatchObject({ read: '1M8GDM9AXKP042788', match: true, check_digit_valid: true });
    expect(part.flags).toEqual([]);
  });

  it('reads no plate on a photo without one and flags nothing', async () => {
    const part = await textAnalyzer.analyse(
      await prepare(path.join(PHOTOS, 'home.jpg')),
      context({ licensePlate: 'AB-123-CD' }),
    );
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.plate).toMatchObject({ read: null, expected: 'AB-123-CD', match: null });
    expect(part.flags).toEqual([]);
  });

  it('gives up on an aborted analysis', async () => {
    const controller = new AbortController();
    controller.abort(new Error('time is up'));
    const image = await prepare(path.join(PHOTOS, 'home.jpg'));
    await expect(
      textAnalyzer.analyse(image, { inputMetaData: {}, signal: controller.signal }),
    ).rejects.toThrow('time is up');
  });
});
