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
    ['17,602 MI1ES', 17602, 'mi'],
    ['OPO633892 MI', 633892, 'mi'],
    ['OOO 730 MILES', 730, 'mi'],
    ['000-5778-KM', 5778, 'km'],
    ['0D0 332515 M11ES', 332515, 'mi'],
    ['695KB', 695, 'km'],
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

  it('leaves out a last drum whose face is red though a cast turns its cell pink', () => {
    // 5082 and a red tenths drum 0 under a cold cast (odometer-analogue-482 of an exploration batch).
    const inks = [
      [24, 28, 36],
      [47, 55, 66],
      [73, 82, 99],
      [37, 44, 54],
      [140, 76, 94],
    ] as const;
    const dark = [9, 12, 15] as const;
    const counter = (lastFace: readonly [number, number, number]) => ({
      ...line('50820 MILES'),
      inks,
      faces: [dark, dark, dark, dark, lastFace],
    });
    expect(matchOdometer([counter([103, 17, 24])])).toMatchObject({ value: 5082 });
    expect(matchOdometer([counter([40, 30, 34])])).toMatchObject({ value: 50820 });
    // On a red display every face is of a red hue: its last digit's is no drum's.
    const display = {
      ...counter([97, 46, 31]),
      faces: [
        [33, 18, 17],
        [26, 15, 15],
        [36, 20, 17],
        [70, 33, 24],
        [97, 46, 31],
      ] as const,
    };
    expect(matchOdometer([display])).toMatchObject({ value: 50820 });
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
    // Glare greying one drum's digit does not hide it (065444 and its white tenths 4, an exploration photo).
    expect(matchOdometer([counter([-0.65, 0.09, -0.74, -0.36, -0.67, -0.67, 0.26])])).toMatchObject({
      value: 127874,
    });
    // Unclear, or not alone: a dot display's digits, their dots run together (odometer-digital-41); a
    // drum as dark on light as the last; most drums unclear.
    expect(matchOdometer([counter([-0.25, -0.39, -0.17, -0.18, -0.3, -0.2, 0.05])])).toMatchObject({
      value: 1278745,
    });
    expect(matchOdometer([counter([-0.65, 0.2, -0.74, -0.36, -0.67, -0.67, 0.26])])).toMatchObject({
      value: 1278745,
    });
    expect(matchOdometer([counter([-0.65, -0.03, -0.1, -0.36, 0.02, -0.07, 0.26])])).toMatchObject({
      value: 1278745,
    });
  });

  it('leaves out a white last drum whose digit turns only faintly, when its face is far lighter', () => {
    // 00560 and a white tenths drum 0 under a shadow (exploration photo odometer-analogue-363): its cell
    // no lighter than the others, its digit at 0.11, its face 62 against 7 at most.
    const inks = [
      [65, 65, 65],
      [57, 57, 57],
      [39, 39, 39],
      [40, 40, 40],
      [33, 33, 33],
      [57, 57, 56],
    ] as const;
    const face = (level: number) => [level, level, level] as const;
    const counter = (lastFace: number, polarity = [-0.29, -0.26, -0.33, -0.2, -0.29, 0.11]) => ({
      ...line('005600'),
      inks,
      faces: [face(7), face(6), face(6), face(4), face(4), face(lastFace)],
      polarity,
    });
    expect(matchOdometer([counter(62)])).toMatchObject({ value: 560 });
    // A face not far lighter (a digit's strokes reaching into it), a digit not turned, or another drum
    // not clearly light on dark: read whole.
    expect(matchOdometer([counter(20)])).toMatchObject({ value: 5600 });
    expect(matchOdometer([counter(62, [-0.29, -0.26, -0.33, -0.2, -0.29, -0.02])])).toMatchObject({
      value: 5600,
    });
    expect(matchOdometer([counter(62, [-0.29, -0.26, -0.05, -0.2, -0.29, 0.11])])).toMatchObject({
      value: 5600,
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

  it('takes a wider cut that also read the first stroke of the unit boxed apart as a 1 for the same figure', () => {
    // Exploration photo odometer-digital-363: 177892 with its MI boxed apart; the wider cut reads 1778921.
    const figure = { ...line('ODO 177892', 0.06), again: ['ODO 1778921'] };
    const unit = (text: string, x = 0.61) => ({
      ...line(text, 0.05),
      box: { x, y: 0.505, width: 0.04, height: 0.05 },
    });
    expect(matchOdometer([figure, unit('MI')])).toMatchObject({ value: 177892, unit: 'mi' });
    // Without the unit just after it, or with another digit more: in doubt.
    expect(matchOdometer([figure])).toBeUndefined();
    expect(matchOdometer([figure, unit('MI', 0.75)])).toBeUndefined();
    expect(matchOdometer([{ ...figure, again: ['ODO 1778927'] }, unit('MI')])).toBeUndefined();
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

  it("reads a figure with its thousands set apart by a space, not a dial's numbers read as one", () => {
    const cluster = [line('12:45', 0.03), line('KM/H', 0.02)];
    expect(matchOdometer([...cluster, line('25 625', 0.06)])).toMatchObject({ value: 25625 });
    // A counter's zeros before it (the label ODO read as 000) tell a counter even off a cluster.
    expect(matchOdometer([line('00072 795', 0.06)])).toMatchObject({ value: 72795 });
    expect(matchOdometer([...cluster, line('20 140', 0.06)])).toBeUndefined();
    expect(matchOdometer([...cluster, line('25 62', 0.06)])).toBeUndefined();
  });

  it('reads zeros set apart before a figure as its leading zeros: the label ODO read as 000', () => {
    // Exploration photo odometer-digital-316: `ODO 459494` on a segment display, nothing beside it.
    expect(matchOdometer([line('000 459494', 0.07)])).toMatchObject({ value: 459494, unit: null });
    expect(matchOdometer([line('0 84993', 0.07)])).toMatchObject({ value: 84993 });
    // Other numbers before it are not zeros.
    expect(matchOdometer([line('100 459494', 0.07)])).toBeUndefined();
    expect(matchOdometer([line('000 459 494 1', 0.07)])).toBeUndefined();
  });

  it('reads four digits alone as the total where they are the tallest on a cluster', () => {
    // What the display of exploration photo odometer-digital-373 showed: a clock, a trip, a range.
    const cluster = [
      line('20:05', 0.036),
      line('855.8 KM', 0.04),
      line('RANGE391KM', 0.029),
      line('X1000R/MIN'),
    ];
    const total = line('6245', 0.058);
    expect(matchOdometer([...cluster, total])).toMatchObject({ value: 6245, unit: null });
    // Not off a cluster, nor as tall as another figure (a dial's number read with a tick, `1001`).
    expect(matchOdometer([total, line('855.8 KM', 0.04)])).toBeUndefined();
    expect(matchOdometer([...cluster, total, line('1001', 0.055)])).toBeUndefined();
    expect(matchOdometer([...cluster, line('6245', 0.044)])).toBeUndefined();
    // Nor with a counter's leading zero: part of a counter.
    expect(matchOdometer([...cluster, line('0624', 0.058)])).toBeUndefined();
  });

  it('takes four digits far taller than the counter read for the total whose last drum was missed', () => {
    // Exploration photo odometer-analogue-390: the total 1033 (its tenths drum missed) stands far taller
    // than the trip counter 04871 beside it, the dial's numbers taller still.
    const dial = ['100', '120', '140'].map((text) => line(text, 0.08));
    const trip = line('04871', 0.056);
    expect(matchOdometer([...dial, trip, line('1033', 0.075)])).toMatchObject({ value: 1033 });
    expect(matchOdometer([...dial, trip, { ...line('1033', 0.075), again: ['1033Z'] }])).toBeUndefined();
    // A figure only a little taller (a dial's `100` read with a tick) does not stand in the counter's way.
    expect(matchOdometer([...dial, trip])).toMatchObject({ value: 4871 });
    expect(matchOdometer([...dial, trip, line('1001', 0.06)])).toMatchObject({ value: 4871 });
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

  it("keeps a heavy last 8 whose cell is lighter but not its drum's face: no tenths", () => {
    // 226238, white on black drums seen from 39° above: the 8 fills its cell (odometer-analogue-82 of an
    // exploration batch).
    const inks = [
      [42, 42, 44],
      [31, 32, 35],
      [67, 69, 69],
      [42, 43, 44],
      [61, 61, 62],
      [118, 118, 120],
    ] as const;
    const dark = [60, 60, 62] as const;
    const counter = (lastFace: readonly [number, number, number]) => ({
      ...line('226238 KM'),
      inks,
      faces: [dark, dark, dark, dark, dark, lastFace],
    });
    expect(matchOdometer([counter([64, 64, 66])])).toMatchObject({ value: 226238 });
    expect(matchOdometer([counter([200, 200, 196])])).toMatchObject({ value: 22623 });
  });

  it('keeps a last drum lit as its neighbour is: light growing along the counter, not the tenths', () => {
    // 075296 km seen from 37° aside under a warm cast (odometer-analogue-76 of an exploration batch).
    const dark = [27, 26, 22] as const;
    const counter = (fifth: readonly [number, number, number]) => ({
      ...line('075296 KM'),
      inks: [dark, dark, dark, dark, fifth, [59, 54, 39] as const],
    });
    expect(matchOdometer([counter([59, 52, 40])])).toMatchObject({ value: 75296 });
    expect(matchOdometer([counter(dark)])).toMatchObject({ value: 7529 });
  });

  describe('a drum boxed apart at the end of the line', () => {
    // 5096 2 and a drum beside it, boxed alone (blur runs it into the counter's frame).
    const grey = [100, 100, 100] as const;
    const figure = (
      text = '50962',
      inks: readonly (readonly [number, number, number])[] = Array(5).fill(grey),
    ) => ({
      ...line(text, 0.053),
      box: { x: 0.416, y: 0.569, width: 0.129, height: 0.053 },
      inks,
      again: [text],
    });
    const drum = (text: string, ink: readonly [number, number, number], polarity: number, x = 0.539) => ({
      ...line(text, 0.027),
      box: { x, y: 0.596, width: 0.028, height: 0.027 },
      inks: [ink],
      polarity: [polarity],
    });
    // The speedometer's dial around: a figure without leading zeros is the total there.
    const dial = ['100', '120', '140'].map((text, i) => ({
      ...line(text, 0.05),
      box: { x: 0.2 + 0.2 * i, y: 0.2, width: 0.05, height: 0.05 },
    }));
    const matchAmong = (...lines: ReadLine[]) => matchOdometer([...lines, ...dial]);

    it("reads nothing when it may be the counter's last drum or a greyed tenths drum", () => {
      // A blurred 0 (polarity 0.17), an 8 on a white drum under glare (-0.32).
      expect(matchAmong(figure())).toMatchObject({ value: 50962 });
      expect(matchAmong(figure(), drum('0', [59, 59, 60], 0.17))).toBeUndefined();
      expect(matchAmong(figure(), drum('8', [65, 65, 63], -0.32))).toBeUndefined();
      // Far from the line's end, or on another row, it is not its.
      expect(matchAmong(figure(), drum('0', [59, 59, 60], 0.17, 0.6))).toMatchObject({ value: 50962 });
      const below = {
        ...drum('0', [59, 59, 60], 0.17),
        box: { x: 0.539, y: 0.66, width: 0.028, height: 0.027 },
      };
      expect(matchAmong(figure(), below)).toMatchObject({ value: 50962 });
    });

    it("leaves out a red or clearly white drum apart, and then not the figure's own last digit", () => {
      // 07039 and its white tenths drum 4 apart; the 9's cell lit lighter than the others'.
      const inks = [
        [36, 37, 41],
        [33, 34, 38],
        [60, 60, 62],
        [42, 43, 46],
        [71, 71, 72],
      ] as const;
      expect(matchAmong(figure('07039', inks))).toMatchObject({ value: 703 });
      expect(matchAmong(figure('07039', inks), drum('4', [252, 243, 242], 0.89))).toMatchObject({
        value: 7039,
      });
      expect(matchAmong(figure(), drum('7', [180, 30, 34], -0.5))).toMatchObject({ value: 50962 });
    });

    it("takes the red last drum boxed a second time over the line's end for the same drum", () => {
      // 00182 and its red tenths 2, read at the end of the line and boxed alone over it as well.
      const dark = [33, 34, 38] as const;
      const red = [176, 27, 34] as const;
      const counter = figure('001822', [dark, dark, dark, dark, dark, red]);
      expect(matchAmong(counter, drum('2', [232, 90, 97], -0.43, 0.535))).toMatchObject({ value: 182 });
    });
  });

  it('follows a slanted line to the unit beside its end, past a trip counter under it', () => {
    // 075296 seen from 37° aside (slope 23° in a 4:3 photo), KM beside its lower end, as low as the trip.
    const total = {
      ...line('075296', 0.16),
      box: { x: 0.354, y: 0.573, width: 0.203, height: 0.16 },
      slope: 0.575,
    };
    const trip = {
      ...line('6642', 0.108),
      box: { x: 0.385, y: 0.689, width: 0.107, height: 0.108 },
      slope: 0.685,
    };
    const unit = { ...line('KM', 0.069), box: { x: 0.557, y: 0.699, width: 0.069, height: 0.069 } };
    expect(matchOdometer([total, trip, unit])).toMatchObject({ value: 75296, unit: 'km' });
    // Level, the unit would be the trip's.
    expect(matchOdometer([{ ...total, slope: 0 }, { ...trip, slope: 0 }, unit])).toMatchObject({
      value: 6642,
    });
  });

  it("leaves a unit ending a counter's row to it, though a speedometer's numbers stand over it", () => {
    // 00726 and its red tenths 2, MILES beside it along its 21° slope; over MILES, the speedometer's
    // 200 and 120 read together, unsurely (odometer-analogue-40).
    const dark = [47, 47, 49] as const;
    const counter = {
      ...line('007262', 0.154, 1),
      box: { x: 0.387, y: 0.563, width: 0.215, height: 0.154 },
      slope: 0.512,
      inks: [dark, dark, dark, dark, dark, [225, 68, 73] as const],
    };
    const speed = {
      ...line('200120', 0.137, 0.92),
      box: { x: 0.649, y: 0.553, width: 0.2, height: 0.137 },
      chars: [1, 0.95, 0.58, 0.99, 1, 1],
    };
    const unit = { ...line('MILES', 0.092, 1), box: { x: 0.602, y: 0.681, width: 0.125, height: 0.092 } };
    const dial = ['60', '80', '40'].map((text, i) => ({
      ...line(text, 0.09),
      box: { x: 0.3 + 0.15 * i, y: 0.1, width: 0.07, height: 0.09 },
    }));
    expect(matchOdometer([counter, speed, unit, line('KM/H'), ...dial])).toMatchObject({
      value: 726,
      unit: 'mi',
    });
  });

  it("takes no unit run into the front of a figure: a speedometer's number after what is left of KM/H", () => {
    const counter = { ...line('030363', 0.089), box: { x: 0.444, y: 0.57, width: 0.158, height: 0.089 } };
    const speed = { ...line('KM220', 0.079), box: { x: 0.592, y: 0.556, width: 0.087, height: 0.079 } };
    expect(matchOdometer([counter, speed])).toMatchObject({ value: 30363 });
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
