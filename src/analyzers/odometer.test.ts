import { describe, expect, it } from 'vitest';
import { matchOdometer, odometerMatches, showsInstrumentCluster } from './odometer.js';
import type { ReadLine } from './text-lines.js';

const line = (text: string, height = 0.05, confidence = 0.9): ReadLine => ({
  text,
  confidence,
  box: { x: 0.4, y: 0.5, width: 0.2, height },
});

describe('odometer', () => {
  it.each([
    ['0123456', 123456, null],
    ['662 19 miles', 66219, 'mi'],
    ['8 494 kn', 8494, 'km'],
    ['123 456 km', 123456, 'km'],
    ['123,456 mi', 123456, 'mi'],
    ['ODO 45218', 45218, null],
    ['0 4 5 2 1 8', 45218, null],
    ['047538MILS', 47538, 'mi'],
    ['O45Z18 km', 45218, 'km'],
    ['45218km', 45218, 'km'],
    ['TOTAL 1,234 MILES', 1234, 'mi'],
    ['0D0 45218', 45218, null],
    ['obo 129 110 km', 129110, 'km'],
    ['ODO 86', 86, null],
    ['2692 MILE', 2692, 'mi'],
  ] as const)('reads %s', (text, value, unit) => {
    expect(matchOdometer([line(text)])).toMatchObject({ value, unit });
  });

  it('leaves out the trip meter, clocks, speeds and temperatures', () => {
    const lines = [
      line('TRIP A 123.4', 0.04),
      line('12:45'),
      line('21°C'),
      line('88 km/h'),
      line('98765 km', 0.05),
    ];
    expect(matchOdometer(lines)).toMatchObject({ value: 98765, unit: 'km' });
    expect(matchOdometer([line('TRIP A 123.4'), line('A 1234'), line('345.6')])).toBeUndefined();
  });

  it('prefers the main figure with a unit over a smaller number beside it', () => {
    expect(matchOdometer([line('1234', 0.02), line('76543 km', 0.06)])).toMatchObject({ value: 76543 });
  });

  it('finds nothing in words or short numbers', () => {
    expect(matchOdometer([line('PARKING PROHIBITED'), line('12'), line('ABCDEF')])).toBeUndefined();
    // Digits beside other letters or digits (a VIN, a plate, a part number, a phone number) are none.
    for (const text of ['1M8GDM9AXKP042788', 'AB-123-CD', '1234 BCD', 'PN 8K0-945-095', 'TEL 0800 1234'])
      expect(matchOdometer([line(text)]), text).toBeUndefined();
    // Three digits alone are too few to be sure of (a speedometer's 120).
    expect(matchOdometer([line('120')])).toBeUndefined();
  });

  it('leaves out a last drum of another colour: the tenths', () => {
    const black = [30, 30, 30] as const;
    const red = [180, 40, 40] as const;
    const drums = (last: readonly [number, number, number]) => ({
      ...line('0452183'),
      inks: [black, black, black, black, black, black, last],
    });
    expect(matchOdometer([drums(red)])).toMatchObject({ value: 45218 });
    expect(matchOdometer([drums([235, 235, 230])])).toMatchObject({ value: 45218 });
    expect(matchOdometer([drums(black)])).toMatchObject({ value: 452183 });
  });

  it('keeps a last drum that is only darker: the counter in less light', () => {
    const grey = [90, 90, 92] as const;
    const inks = [grey, grey, grey, grey, [70, 70, 72], [72, 72, 74], [30, 30, 31]] as const;
    expect(matchOdometer([{ ...line('0465157'), inks }])).toMatchObject({ value: 465157 });
  });

  it('leaves out a red last drum though light makes the other drums differ', () => {
    // Glare across the counter: the drums range from dark to grey.
    const lit = [
      [44, 51, 63],
      [58, 68, 84],
      [20, 22, 31],
      [18, 21, 28],
    ] as const;
    const counter = (last: readonly [number, number, number]) => ({ ...line('08445'), inks: [...lit, last] });
    expect(matchOdometer([counter([131, 19, 30])])).toMatchObject({ value: 844 });
    // Only red: a last drum as grey as the lightest is one of the counter's.
    expect(matchOdometer([counter([70, 80, 95])])).toMatchObject({ value: 8445 });
  });

  it('leaves out a last drum black on white though glare makes every drum as light', () => {
    // 127874 and a white tenths drum 5, under glare (tuning photo odometer-analogue-30).
    const inks = [
      [141, 142, 143],
      [155, 155, 156],
      [153, 153, 154],
      [154, 154, 155],
      [98, 99, 100],
      [72, 73, 73],
      [144, 144, 142],
    ] as const;
    const counter = (polarity: number[]) => ({ ...line('1278745 KM'), inks, polarity });
    expect(matchOdometer([counter([-0.65, -0.66, -0.74, -0.36, -0.67, -0.67, 0.26])])).toMatchObject({
      value: 127874,
    });
    // Unclear, or not alone: a dot display's digits, their dots run together (odometer-digital-41).
    expect(matchOdometer([counter([-0.25, -0.39, -0.17, -0.18, -0.3, -0.2, 0.05])])).toMatchObject({
      value: 1278745,
    });
    expect(matchOdometer([counter([-0.65, -0.03, -0.74, -0.36, -0.67, -0.67, 0.26])])).toMatchObject({
      value: 1278745,
    });
  });

  it("counts the tenths drum among a counter's 5 digits, and does not mind its doubtful reading", () => {
    const black = [30, 30, 30] as const;
    const red = [180, 40, 40] as const;
    // 0227 and a red tenths drum: a counter, although only 4 digits are the total.
    const counter = { ...line('02274'), inks: [black, black, black, black, red] };
    expect(matchOdometer([counter])).toMatchObject({ value: 227 });
    const doubtfulTenths = { ...counter, chars: [0.99, 0.99, 0.99, 0.99, 0.4] };
    expect(matchOdometer([doubtfulTenths])).toMatchObject({ value: 227 });
    const doubtfulDrum = { ...counter, chars: [0.99, 0.99, 0.4, 0.99, 0.99] };
    expect(matchOdometer([doubtfulDrum])).toBeUndefined();
  });

  it("reads a label run into the figure, never a counter's own zeros as one", () => {
    expect(matchOdometer([line('OBO335 686')])).toMatchObject({ value: 335686 });
    expect(matchOdometer([line('ODO12345 km')])).toMatchObject({ value: 12345, unit: 'km' });
    expect(matchOdometer([line('000832')])).toMatchObject({ value: 832, unit: null });
  });

  it('reads nothing rather than a lesser figure when the likeliest one is in doubt', () => {
    const total = { ...line('047538 MILS', 0.08), chars: [0.99, 0.99, 0.99, 0.99, 0.99, 0.5, 1, 1, 1, 1, 1] };
    const trip = line('08338', 0.05);
    expect(matchOdometer([trip])).toMatchObject({ value: 8338 });
    expect(matchOdometer([total, trip])).toBeUndefined();
    // A taller figure without leading zeros may be the total: no reading, not the trip's.
    expect(matchOdometer([line('86877', 0.065), line('05829', 0.06)])).toBeUndefined();
    // Far taller (a fifth), it is the total beside the trip counter; with a unit vouching for the other,
    // or beside another such figure, it is in doubt again.
    expect(matchOdometer([line('86877', 0.08), line('05829', 0.06)])).toMatchObject({ value: 86877 });
    expect(matchOdometer([line('86877', 0.08), line('05829 km', 0.06)])).toBeUndefined();
    expect(matchOdometer([line('86877', 0.08), line('86878', 0.08), line('05829', 0.06)])).toBeUndefined();
    // A speedometer's numbers read together are no such rival.
    expect(matchOdometer([line('120140', 0.08), line('006335', 0.06)])).toMatchObject({ value: 6335 });
    expect(matchOdometer([line('100120140', 0.08), line('006335', 0.06)])).toMatchObject({ value: 6335 });
  });

  it("does not mind a leading zero's doubt unless it is with another digit", () => {
    // ODO 665 miles, the label's last O read into the figure, unsurely: a zero or nothing.
    const figure = { ...line('O665 MILES'), chars: [0.69, 0.88, 0.99, 1, 1, 1, 1, 1, 1, 1] };
    expect(matchOdometer([figure])).toMatchObject({ value: 665, unit: 'mi' });
    const withRival = (char: string) => ({ ...figure, rivals: [{ char, confidence: 0.2 }] });
    expect(matchOdometer([withRival('O')])).toMatchObject({ value: 665 });
    expect(matchOdometer([withRival('8')])).toBeUndefined();
    expect(matchOdometer([withRival('B')])).toBeUndefined();
    // A doubted zero inside the figure changes it whatever its rival.
    expect(
      matchOdometer([{ ...line('6065 MILES'), chars: [1, 0.5, 1, 1, 1, 1, 1, 1, 1, 1] }]),
    ).toBeUndefined();
  });

  it('reads nothing when another cut of the line shows another number', () => {
    const again = (text: string, ...cuts: string[]): ReadLine => ({ ...line(text), again: cuts });
    // A drum missed in one cut (000832 | 0008321) or a segment digit that changes: no reading.
    expect(matchOdometer([again('000832', '0008321')])).toBeUndefined();
    expect(matchOdometer([again('258 KM', '251 KM')])).toBeUndefined();
    // The same digits, whatever the label, the unit or a stray mark read around them, confirm it.
    expect(matchOdometer([again('OBO 129 110 KM', 'OPO129 110 KM')])).toMatchObject({ value: 129110 });
    expect(matchOdometer([again('761,814 MI', '761,814 , MIL')])).toMatchObject({ value: 761814 });
    expect(matchOdometer([again('000832', '00832')])).toMatchObject({ value: 832 });
  });

  it('takes a wider cut that also read the red tenths drum boxed apart as confirming the figure', () => {
    // 2835 km and its red tenths drum 2, boxed apart; the wider cut reads 28352.
    const figure = { ...line('2835 KM', 0.052), box: { x: 0.356, y: 0.575, width: 0.109, height: 0.052 } };
    const drum = (ink: readonly [number, number, number], x = 0.457) => ({
      ...line('2', 0.046),
      box: { x, y: 0.583, width: 0.029, height: 0.046 },
      inks: [ink],
    });
    const red = [76, 9, 12] as const;
    const confirmedBy = (cut: string, ...others: ReadLine[]) =>
      matchOdometer([{ ...figure, again: [cut] }, ...others]);
    expect(confirmedBy('28352 KM', drum(red))).toMatchObject({ value: 2835, unit: 'km' });
    // Not a red drum, far to the right, or another digit read: in doubt.
    expect(confirmedBy('28352 KM', drum([60, 60, 60]))).toBeUndefined();
    expect(confirmedBy('28352 KM', drum(red, 0.6))).toBeUndefined();
    expect(confirmedBy('28353 KM', drum(red))).toBeUndefined();
    expect(confirmedBy('28352 KM')).toBeUndefined();
  });

  it('tells an instrument cluster by its marks, or one mark beside an odometer read', () => {
    expect(showsInstrumentCluster([line('14:58'), line('88 km/h')], false)).toBe(true);
    expect(showsInstrumentCluster([line('14:58'), line('A8999')], true)).toBe(true);
    expect(showsInstrumentCluster([line('14:58'), line('A8999')], false)).toBe(false);
    expect(showsInstrumentCluster([line('AB-123-CD'), line('PARKING')], false)).toBe(false);
  });

  it("tells a speedometer's dial by three of its numbers", () => {
    const dial = ['100', '120', '160'].map((text) => line(text));
    expect(showsInstrumentCluster(dial, false)).toBe(true);
    expect(showsInstrumentCluster(dial.slice(0, 2), false)).toBe(false);
    // Not numbers of a dial: past its end, or not multiples of ten.
    expect(
      showsInstrumentCluster(
        ['350', '400', '450'].map((text) => line(text)),
        false,
      ),
    ).toBe(false);
    expect(
      showsInstrumentCluster(
        ['105', '123', '161'].map((text) => line(text)),
        false,
      ),
    ).toBe(false);
  });

  it('reads a long figure without leading zeros as the total on an instrument cluster only', () => {
    const dial = ['100', '120', '160'].map((text) => line(text, 0.03));
    const total = line('841424', 0.05);
    expect(matchOdometer([total])).toBeUndefined();
    expect(matchOdometer([...dial, total])).toMatchObject({ value: 841424, unit: null });
    expect(matchOdometer([line('TRIP 250.4'), line('X1000R/MIN'), total])).toMatchObject({ value: 841424 });
    // A speedometer's numbers read as one stay no figure.
    expect(matchOdometer([...dial, line('100120140', 0.05)])).toBeUndefined();
  });

  it('takes the unit from a box of its own beside or under the figure', () => {
    const figure = line('45218', 0.05);
    const right = { ...line('km', 0.05), box: { x: 0.61, y: 0.5, width: 0.04, height: 0.05 } };
    const under = { ...line('MILES', 0.03), box: { x: 0.45, y: 0.56, width: 0.08, height: 0.03 } };
    const far = { ...line('km', 0.05), box: { x: 0.9, y: 0.1, width: 0.04, height: 0.05 } };
    expect(matchOdometer([figure, right])).toMatchObject({ value: 45218, unit: 'km' });
    expect(matchOdometer([figure, under])).toMatchObject({ value: 45218, unit: 'mi' });
    // Without a unit, a figure must look like a counter: 5 digits or more with leading zeros.
    expect(matchOdometer([figure, far])).toBeUndefined();
    expect(matchOdometer([line('045218'), far])).toMatchObject({ value: 45218, unit: null });
  });

  it('takes a figure with a trip label in a box of its own just left of it for a trip meter', () => {
    // TRIP 900.5 km read without its point: 9005 km, the total 666 km above it read unsurely.
    const trip = { ...line('9005 KM', 0.058), box: { x: 0.367, y: 0.466, width: 0.077, height: 0.058 } };
    const label = { ...line('TRIP', 0.022), box: { x: 0.343, y: 0.479, width: 0.031, height: 0.022 } };
    expect(matchOdometer([trip])).toMatchObject({ value: 9005 });
    expect(matchOdometer([trip, label])).toBeUndefined();
    // A label on another row, or far left, is another line's.
    const above = { ...label, box: { ...label.box, y: 0.3 } };
    const farLeft = { ...label, box: { ...label.box, x: 0.05 } };
    expect(matchOdometer([trip, above])).toMatchObject({ value: 9005 });
    expect(matchOdometer([trip, farLeft])).toMatchObject({ value: 9005 });
  });

  it('matches the expected value within 500, or 2 %', () => {
    expect(odometerMatches(45218, 45000)).toBe(true);
    expect(odometerMatches(45218, 44000)).toBe(false);
    expect(odometerMatches(102000, 100000)).toBe(true);
    expect(odometerMatches(103000, 100000)).toBe(false);
  });
});
