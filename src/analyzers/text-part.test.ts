import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { TextPart } from '../domain/result/detection-parts.js';
import type { ReadLine } from './text-lines.js';
import { compact, normalisePlate, sameReading, textPartFrom } from './text-part.js';

/** A read line at `x` along one row (fractions of the image), `width` wide. */
const line = (
  text: string,
  { confidence = 0.95, x = 0.3, y = 0.6, width = 0.2, height = 0.04 } = {},
): ReadLine => ({
  text,
  confidence,
  box: { x, y, width, height },
});

describe('comparison forms', () => {
  it('writes plates as uppercase groups and compares them compactly', () => {
    expect(normalisePlate(' ab 123·cd ')).toBe('AB-123-CD');
    expect(compact('ab - 123 cd')).toBe('AB123CD');
    expect(sameReading('AB-123-CD', 'ab123cd')).toBe(true);
    expect(sameReading('AB-123-CD', 'AB-123-CE')).toBe(false);
    expect(sameReading(null, 'AB-123-CD')).toBeNull();
    expect(sameReading('AB-123-CD', null)).toBeNull();
  });
});

describe('the plate among the lines', () => {
  it('takes a plate of the format table, with its country and the box it was read from', () => {
    const part = textPartFrom([line('SERVICE 0800 123'), line('AB-123-CD', { y: 0.7 })], {});
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', country: 'FR', confidence: 0.95 });
    expect(part.plate.box).toEqual({ x: 0.3, y: 0.7, width: 0.2, height: 0.04 });
  });

  it('reads an Abu Dhabi plate, a code of digits in a red box beside the number, and no other two numbers', () => {
    const red = [196, 24, 52] as const;
    const white = [236, 236, 232] as const;
    const code = (inks: readonly (readonly [number, number, number])[]) => ({
      ...line('50', { x: 0.3, width: 0.03 }),
      inks,
    });
    const number = { ...line('90577', { x: 0.345, width: 0.1 }), inks: Array(5).fill(white) };
    expect(textPartFrom([code([red, red]), number], {}).plate).toMatchObject({
      read: '50-90577',
      country: 'AE',
    });
    // The same in a dark photo: the box is a dark red, still red.
    const dark = [88, 11, 23] as const;
    expect(textPartFrom([code([dark, dark]), number], {}).plate.read).toBe('50-90577');
    // On white, or on an orange-brown, two numbers are no plate.
    expect(textPartFrom([code([white, white]), number], {}).plate.read).toBeNull();
    const brown = [200, 150, 90] as const;
    expect(textPartFrom([code([brown, brown]), number], {}).plate.read).toBeNull();
    expect(textPartFrom([line('50', { x: 0.3, width: 0.03 }), number], {}).plate.read).toBeNull();
  });

  it("reads no odometer from the plate's own digits", () => {
    // A US plate whose letters read as digits (D as 0, J as 1) would be the counter 0147204.
    const part = textPartFrom([line('DJ47204')], {});
    expect(part.plate).toMatchObject({ read: 'DJ-47204' });
    expect(part.odometer?.read).toBeNull();
    // Elsewhere on the photo a counter is still read.
    const both = textPartFrom([line('DJ47204'), line('0047204', { y: 0.2 })], {});
    expect(both.odometer?.read).toBe(47204);
  });

  it('joins the pieces of a plate found apart on one row (a seal or a wide gap)', () => {
    const part = textPartFrom(
      [line('M', { x: 0.3, width: 0.03 }), line('AB 1234', { x: 0.345, width: 0.12 })],
      {},
    );
    expect(part.plate).toMatchObject({ read: 'M-AB-1234', country: 'DE' });
    expect(part.plate.box?.x).toBe(0.3);
  });

  it('takes a plate inside a longer line, but no words', () => {
    expect(textPartFrom([line('D AB 123 CD')], {}).plate.read).toBe('AB-123-CD');
    expect(textPartFrom([line('DOUBLE PARKING PROHIBITED'), line('AT ALL TIMES')], {}).plate.read).toBeNull();
    // No part of a measure: the trip meter's A and 123 of 123.4 are no Emirati plate.
    expect(textPartFrom([line('TRIP A 123.4 km')], {}).plate.read).toBeNull();
  });

  it("takes no plate out of a tyre's size or a date", () => {
    // The end of REAR 235/65R17 on a door pillar's placard, cut there by the detector.
    expect(textPartFrom([line('EAR235/')], {}).plate.read).toBeNull();
    expect(textPartFrom([line('EAR235')], {}).plate.read).toBe('EAR-235');
    expect(textPartFrom([line('AB 12/24')], {}).plate.read).toBeNull();
  });

  it('takes a plate only as the whole of its line, a band code before it aside', () => {
    expect(textPartFrom([line('F AB-123-CD')], {}).plate).toMatchObject({
      read: 'AB-123-CD',
      confidence: 0.81,
    });
    // Labels and measures beside a number are no plate, nor is a plate cut out of a longer line.
    for (const text of ['FRT 1106', 'AUG 2020', 'ODO 335', 'TRIP A 8999', '1106KG', 'SERVICE AB-123-CD'])
      expect(textPartFrom([line(text)], {}).plate.read, text).toBeNull();
  });

  it('leaves out a doubtful first character: the band letter read as part of the plate', () => {
    const banded: ReadLine = { ...line('95-GHB-778'), chars: [0.74, ...Array<number>(9).fill(0.99)] };
    expect(textPartFrom([banded], {}).plate).toMatchObject({ read: '5-GHB-778', country: 'BE' });
  });

  it("leaves out a first character on the band's blue, however it was read and without a guess counted", () => {
    // Belgian 8-OAI-237, the band's B read 9 at 0.85: `980A1237` fits a format whole, and the two
    // look-alike changes leave no room for a guess more.
    const white = [236, 236, 232] as const;
    const chars = [0.85, 0.99, 0.99, 0.8, 1, 0.78, 0.99, 1, 1, 1];
    const read = (first: readonly [number, number, number]): ReadLine => ({
      ...line('98-0A1-237'),
      chars,
      inks: [first, ...Array<readonly [number, number, number]>(9).fill(white)],
    });
    expect(textPartFrom([read([117, 96, 173])], {}).plate).toMatchObject({
      read: '8-OAI-237',
      country: 'BE',
    });
    expect(textPartFrom([read(white)], {}).plate.read).not.toBe('8-OAI-237');
  });

  it("keeps a doubtful first character a format takes as the plate's own: no shorter plate of it", () => {
    // An Emirati `ID 7457` with its I in doubt is no `D 7457`: too unsure to read, not a band letter.
    const emirati: ReadLine = { ...line('ID7457'), chars: [0.67, 0.99, 1, 1, 1, 1] };
    expect(textPartFrom([emirati], {}).plate.read).toBeNull();
  });

  it('leaves out a first character read too unsurely to be one, though a format would take it', () => {
    // A Dubai plate's code `X` beside its number, the emirate's name before it read `O` at 0.24: the
    // box of `OX` apart from the number's, as the detector made them.
    const code = (first: number): ReadLine => ({
      ...line('OX', { x: 0.285, width: 0.067, confidence: (first + 0.9) / 2 }),
      chars: [first, 0.9],
    });
    const number = line('5964', { x: 0.376, width: 0.115, confidence: 1 });
    expect(textPartFrom([code(0.24), number], {}).plate).toMatchObject({ read: 'X-5964', country: 'AE' });
    // Read at 0.5 it may be the plate's own letter: the plate is not read rather than read shorter.
    expect(textPartFrom([code(0.5), number], {}).plate.read).toBeNull();
  });

  it('takes no reading it is not sure of, counting each look-alike changed against it', () => {
    expect(textPartFrom([line('AB-123-CD', { confidence: 0.5 })], {}).plate.read).toBeNull();
    /** The line read with `confidence`, unsure of its I. */
    const unsureOfI = (confidence: number): ReadLine => ({
      ...line('AB-I23-CD', { confidence }),
      chars: [...'AB-I23-CD'].map((c) => (c === 'I' ? 0.6 : confidence)),
    });
    expect(textPartFrom([unsureOfI(0.95)], {}).plate).toMatchObject({ read: 'AB-123-CD', confidence: 0.81 });
    expect(textPartFrom([unsureOfI(0.7)], {}).plate.read).toBeNull();
    // Sure of the I: it stays an I.
    expect(textPartFrom([line('AB-I23-CD')], {}).plate.read).not.toBe('AB-123-CD');
  });
});

describe('a plate read again widened', () => {
  /** `HPR-4380` (a US plate seen from the side) read unsurely at its 8, and read again widened. */
  const narrowed = (widened: string): ReadLine => ({
    ...line('HPR-4380', { confidence: 0.92 }),
    chars: [...'HPR-4380'].map((c) => (c === '8' ? 0.58 : 0.97)),
    widened: { text: widened, confidence: 0.99, chars: [...widened].map(() => 0.99) },
  });

  it('takes the widened reading when the line as read gives no plate', () => {
    expect(textPartFrom([narrowed('HPR-4380')], {}).plate).toMatchObject({
      read: 'HPR-4380',
      confidence: 0.99,
    });
    // Without the widened reading, its doubted 8 is a guess.
    const { widened: _, ...asRead } = narrowed('HPR-4380');
    expect(textPartFrom([asRead], {}).plate.read).toBeNull();
  });

  it('keeps to the lines as read when they give a plate, and to their rules for the widened one', () => {
    const other = line('AB-123-CD', { y: 0.8 });
    expect(textPartFrom([narrowed('HPR-4380'), other], {}).plate.read).toBe('AB-123-CD');
    expect(textPartFrom([narrowed('PARKING')], {}).plate.read).toBeNull();
  });
});

describe('a doubt the plate format settles', () => {
  /** `WH02 SHC` (a British plate) read unsurely at its 0, whose rival was `rival`. */
  const doubtfulZero = (rival: { char: string; confidence: number } | undefined): ReadLine => ({
    ...line('WH02SHC', { confidence: 0.93 }),
    chars: [...'WH02SHC'].map((c) => (c === '0' ? 0.51 : 0.99)),
    rivals: [...'WH02SHC'].map((c) => (c === '0' ? rival : undefined)),
  });

  it('reads a character doubted only against its look-alike of the kind its slot refuses', () => {
    // A digit must be there: the O it hesitated over cannot be, so the 0 is no guess.
    expect(textPartFrom([doubtfulZero({ char: 'O', confidence: 0.48 })], {}).plate).toMatchObject({
      read: 'WH02-SHC',
      country: 'GB',
    });
  });

  it('still refuses the reading when the doubt was with a character the slot takes, or not with one alone', () => {
    // An 8 fits a digit's slot as well as the 0: the format cannot tell them apart.
    expect(textPartFrom([doubtfulZero({ char: '8', confidence: 0.48 })], {}).plate.read).toBeNull();
    // The O held too little of the probability: the doubt was not between the two alone.
    expect(textPartFrom([doubtfulZero({ char: 'O', confidence: 0.2 })], {}).plate.read).toBeNull();
    expect(textPartFrom([doubtfulZero(undefined)], {}).plate.read).toBeNull();
  });
});

describe('the VIN among the lines', () => {
  it('takes a VIN after its label, whole or in groups, and its box', () => {
    for (const text of ['VIN: 1M8GDM9AXKP042788', '1M8GDM9A XKP042788'])
      expect(textPartFrom([line(text)], {}).vin, text).toMatchObject({
        read: '1M8GDM9AXKP042788',
        check_digit_valid: true,
        box: { x: 0.3 },
      });
  });

  it("takes the closer look's lines for the VIN only", () => {
    const closer = (text: string) => ({ ...line(text, { y: 0.2 }), vinOnly: true });
    const part = textPartFrom(
      [line('KNAZWT'), closer('KNAZW7R2778351550'), closer('AB-123-CD'), closer('ODO 45218 km')],
      {},
    );
    expect(part.vin).toMatchObject({ read: 'KNAZW7R2778351550', check_digit_valid: true });
    expect([part.plate.read, part.odometer?.read]).toEqual([null, null]);
    // The same lines read on the first look are a plate and an odometer.
    const first = textPartFrom([line('AB-123-CD'), line('ODO 45218 km', { y: 0.2 })], {});
    expect([first.plate.read, first.odometer?.read]).toEqual(['AB-123-CD', 45218]);
  });

  it("takes no VIN holding a label's word, though its 17 characters pass a check digit", () => {
    // A door pillar's axle weights: GAWRFRT1100KG2425 passes, its F read unsurely beside the blank.
    const weights = 'GAWR FRT: 1100 KG (2425 LB)';
    const label = { ...line(weights), chars: [...weights].map((_, i) => (i === 5 ? 0.67 : 0.99)) };
    expect(textPartFrom([label], {}).vin.read).toBeNull();
  });

  it('takes no VIN out of a run of words', () => {
    expect(textPartFrom([line('MADEBYHYUNDAIMOTORCOMPANY')], {}).vin.read).toBeNull();
    expect(textPartFrom([line('VIN1M8GDM9AXKP042788')], {}).vin.read).toBe('1M8GDM9AXKP042788');
  });

  it('reports no VIN whose check digit fails, unless its maker uses none', () => {
    expect(textPartFrom([line('1M8GDM9A1KP042788')], {}).vin.read).toBeNull();
    expect(textPartFrom([line('1HGCM8Z633A004352')], {}).vin.read).toBeNull();
    const unsure = {
      ...line('1HGCM8Z633A004352'),
      chars: [...'1HGCM8Z633A004352'].map((c) => (c === 'Z' ? 0.5 : 0.99)),
    };
    expect(textPartFrom([unsure], {}).vin).toMatchObject({
      read: '1HGCM82633A004352',
      check_digit_valid: true,
    });
    expect(textPartFrom([line('WVWZZZ1JZXW000001')], {}).vin).toMatchObject({
      read: 'WVWZZZ1JZXW000001',
      check_digit_valid: false,
    });
  });
});

describe('a VIN read with a character in doubt', () => {
  const vin = '1M8GDM9AXKP042788';
  const doubt = (at: number, rival: string): ReadLine => ({
    ...line(vin),
    chars: [...vin].map((_, i) => (i === at ? 0.61 : 0.99)),
    rivals: [...vin].map((_, i) => (i === at ? { char: rival, confidence: 0.3 } : undefined)),
  });

  it('takes it as read when its check digit tells it from the rival', () => {
    // Its 0 beside an O (the same to a VIN), or beside a D (which fails the check digit).
    expect(textPartFrom([doubt(11, 'O')], {}).vin.read).toBe(vin);
    expect(textPartFrom([doubt(11, 'D')], {}).vin.read).toBe(vin);
    // With no rival, the doubt was whether a character stands there: the 17 passing settle it.
    const blank = { ...doubt(11, 'O'), rivals: Array<undefined>(vin.length).fill(undefined) };
    expect(textPartFrom([blank], {}).vin.read).toBe(vin);
  });

  it('takes none on an instrument cluster, where lines joined on a row may pass a check digit', () => {
    // A speedometer's numbers and a figure joined (12D1401600D0304KM passed with one look-alike
    // changed); here a string that passes as it is, among a cluster's clock and speed unit.
    const marks = [line('22:52', { y: 0.2 }), line('KM/H', { y: 0.3 })];
    expect(textPartFrom([line(vin), ...marks], {}).vin.read).toBeNull();
    expect(textPartFrom([line(vin), marks[0]!], {}).vin.read).toBe(vin);
  });

  it('takes nothing when the rival passes the check digit too, or is a mark', () => {
    // Its A beside a J: both count 1.
    expect(textPartFrom([doubt(7, 'J')], {}).vin.read).toBeNull();
    expect(textPartFrom([doubt(11, '.')], {}).vin.read).toBeNull();
  });
});

describe('comparison with inputMetaData', () => {
  const lines = [
    line('AB-123-CD'),
    line('VIN 1M8GDM9AXKP042788', { confidence: 0.8, y: 0.2 }),
    line('ODO 45218 km', { y: 0.4, height: 0.06 }),
  ];

  it('reports matches, case- and separator-insensitively, the odometer within its tolerance', () => {
    const part = textPartFrom(lines, {
      licensePlate: 'ab 123 cd',
      vin: '1m8gdm9axkp042788',
      odometer: 45000,
    });
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', expected: 'AB-123-CD', match: true });
    expect(part.vin).toMatchObject({ read: '1M8GDM9AXKP042788', match: true, confidence: 0.8 });
    expect(part.odometer).toMatchObject({ read: 45218, unit: 'km', expected: 45000, match: true });
    expect(part.flags).toEqual([]);
  });

  it('flags a plate, a VIN and an odometer that differ from the expected ones', () => {
    const part = textPartFrom(lines, {
      licensePlate: 'XY-987-ZZ',
      vin: 'WVWZZZ1JZXW000001',
      odometer: '52 000',
    });
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', expected: 'XY-987-ZZ', match: false });
    expect(part.odometer).toMatchObject({ read: 45218, expected: 52000, match: false });
    expect(part.flags).toEqual(['plate_mismatch', 'vin_mismatch', 'odometer_mismatch']);
  });

  it('flags nothing when the expected text is not found', () => {
    const part = textPartFrom([line('DOUBLE PARKING')], {
      licensePlate: 'AB-123-CD',
      vin: '1M8GDM9AXKP042788',
      odometer: 45000,
    });
    expect(Value.Check(TextPart, part)).toBe(true);
    expect(part.plate).toEqual({ read: null, expected: 'AB-123-CD', match: null, confidence: null });
    expect(part.odometer).toEqual({ read: null, unit: null, expected: 45000, match: null, confidence: null });
    expect(part.flags).toEqual([]);
  });

  it('compares nothing when nothing usable is expected', () => {
    const part = textPartFrom(lines, { licensePlate: '  ', vin: { not: 'a string' }, odometer: 'about 40k' });
    expect(part.plate).toMatchObject({ read: 'AB-123-CD', expected: null, match: null });
    expect(part.vin).toMatchObject({ expected: null, match: null });
    expect(part.odometer).toMatchObject({ read: 45218, expected: null, match: null });
    expect(part.flags).toEqual([]);
  });

  it('reports the candidate equal to the expected plate when the photo shows several', () => {
    const part = textPartFrom([line('AB-123-CD'), line('XY-987-ZZ', { y: 0.1 })], {
      licensePlate: 'XY 987 ZZ',
    });
    expect(part.plate).toMatchObject({ read: 'XY-987-ZZ', match: true });
    expect(part.flags).toEqual([]);
  });
});
