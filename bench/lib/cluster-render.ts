// Instrument clusters of the reading set, as a driver photographs the odometer: digital screens
// (seven-segment LCD, dot matrix or a TFT's fonts, in white, amber, blue or green) with the total
// odometer among other figures (trip meters, a clock, the outside temperature, range, consumption) and
// gauges around; analogue clusters, a speedometer dial with its numbers, a drum counter for the total
// (its last drum sometimes the tenths, in another colour) and a trip drum counter with red tenths; and
// clusters with no figure at all. Units are a drawing's own; every cluster is 2600x1900 of them, its
// face or dial the focus.
import { integer, pickOne, type Rng } from './reading-random.js';
import {
  dotText,
  FONTS,
  n,
  onCircle,
  segmentNumber,
  text,
  type Box,
  type Drawing,
  padded,
  type Glyphs,
  type SegmentStyle,
} from './svg-draw.js';

const W = 2600;
const H = 1900;

/** What the odometer shows, decided with the sample (the truth depends on it). */
export interface DigitalOdometer {
  value: number;
  /** The vehicle's unit: what its speed, trip and range are in. */
  unit: 'km' | 'mi';
  /** The unit written beside the total (`km`, `mi`, `miles`), or null when none is. */
  unitLabel: string | null;
  /** Thousands separator ('' none, ',' or ' '); a seven-segment display shows none. */
  separator: '' | ',' | ' ';
  /** `ODO` before it, or nothing. */
  label: boolean;
  style: 'segment' | 'dot' | 'tft';
}

export interface AnalogueOdometer {
  value: number;
  unit: 'km' | 'mi';
  /** Drums of the total counter, the tenths drum included when there is one. */
  drums: 5 | 6 | 7;
  /** The last drum counts tenths (another colour); the value is what the other drums show. */
  tenths: boolean;
  /** `km` or `MILES` beside the counter, or null. */
  unitLabel: string | null;
  /** Where the trip counter is: beside the total or below it. */
  trip: 'beside' | 'below';
}

/**
 * A cluster, on dashboard plastic reaching far past it; the capital height of the odometer's figures
 * and where they are, for judging their legibility.
 */
export interface Cluster {
  drawing: Drawing;
  glyphs: Glyphs;
  textAt: { x: number; y: number };
}

/** Plastic around the cluster: a camera seeing past the drawing sees more dashboard, not a mirror image. */
const PAD = 2000;
const PLASTIC = '#141517';
const inPlastic = (drawing: Drawing) => padded(drawing, PAD, PLASTIC);

const INKS = ['#f1f3f4', '#ffb000', '#58c6ff', '#62f58a', '#ff6a3d'] as const;

/** The value with `separator` between its thousands. */
export const withSeparator = (value: number, separator: string): string =>
  String(value).replace(/\B(?=(\d{3})+(?!\d))/g, separator);

// ---------------------------------------------------------------------------------------------------
// Surroundings

/** The dashboard around the cluster and its hood: dark plastic, lighter towards the top. */
function surround(): string {
  return (
    `<defs><linearGradient id="plastic" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${PLASTIC}"/>` +
    `<stop offset="0.3" stop-color="#1f2023"/><stop offset="0.75" stop-color="${PLASTIC}"/></linearGradient>` +
    `<radialGradient id="face" cx="0.5" cy="0.45" r="0.65"><stop offset="0" stop-color="#101216"/>` +
    `<stop offset="1" stop-color="#030304"/></radialGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#plastic)"/>` +
    `<path d="M 80 1560 L 80 560 Q 1300 160 2520 560 L 2520 1560 Q 1300 1700 80 1560 Z" fill="#0a0a0b"/>` +
    `<path d="M 150 1500 L 150 600 Q 1300 260 2450 600 L 2450 1500 Q 1300 1620 150 1500 Z" fill="url(#face)"/>`
  );
}

interface Dial {
  cx: number;
  cy: number;
  r: number;
  /** Numbers at the major ticks (none: ticks only). */
  numbers: readonly string[] | null;
  /** Minor ticks between two numbers. */
  minor: number;
  from: number;
  to: number;
  ink: string;
  numberCap: number;
  needle: number;
  caption?: string;
}

/** A round gauge: rim, ticks, numbers, caption, needle and hub. */
function dial(d: Dial, majors: number): string {
  const parts = [
    `<circle cx="${d.cx}" cy="${d.cy}" r="${d.r}" fill="#050506" stroke="#3b3e43" stroke-width="${n(d.r * 0.03)}"/>`,
  ];
  const steps = (majors - 1) * d.minor;
  // Numbers no wider than the arc between two of them allows.
  const arc = ((d.r * 0.66 * Math.abs(d.to - d.from)) / Math.max(1, majors - 1)) * (Math.PI / 180);
  const longest = Math.max(1, ...(d.numbers ?? []).map((number) => number.length));
  const numberCap = Math.min(d.numberCap, (arc * 0.8) / (longest * 0.87));
  for (let i = 0; i <= steps; i++) {
    const angle = d.from + ((d.to - d.from) * i) / steps;
    const major = i % d.minor === 0;
    const [x1, y1] = onCircle(d.cx, d.cy, d.r * 0.94, angle);
    const [x2, y2] = onCircle(d.cx, d.cy, d.r * (major ? 0.82 : 0.88), angle);
    parts.push(
      `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${d.ink}" stroke-width="${n(d.r * (major ? 0.022 : 0.011))}"/>`,
    );
    if (major && d.numbers) {
      const [tx, ty] = onCircle(d.cx, d.cy, d.r * 0.66, angle);
      parts.push(
        text(d.numbers[i / d.minor]!, tx, ty + numberCap / 2, numberCap, {
          font: FONTS.sans,
          fill: d.ink,
          anchor: 'middle',
        }),
      );
    }
  }
  if (d.caption)
    parts.push(
      text(d.caption, d.cx, d.cy - d.r * 0.3, d.numberCap * 0.6, {
        font: FONTS.sans,
        fill: '#9aa0a6',
        anchor: 'middle',
      }),
    );
  const [nx, ny] = onCircle(d.cx, d.cy, d.r * 0.86, d.needle);
  const [bx, by] = onCircle(d.cx, d.cy, d.r * 0.05, d.needle + 90);
  const [cx2, cy2] = onCircle(d.cx, d.cy, d.r * 0.05, d.needle - 90);
  parts.push(
    `<polygon points="${n(bx)},${n(by)} ${n(nx)},${n(ny)} ${n(cx2)},${n(cy2)}" fill="#ff4a1c"/>`,
    `<circle cx="${d.cx}" cy="${d.cy}" r="${n(d.r * 0.09)}" fill="#1d1f22" stroke="#4a4d52" stroke-width="${n(d.r * 0.015)}"/>`,
  );
  return parts.join('');
}

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => String(from + i * step));

/** Warning lamps: shapes, no letters. */
function lamps(rng: Rng, x: number, y: number): string {
  const colours = ['#e8a400', '#d92b2b', '#2fbf4a', '#3b82f6'];
  return Array.from({ length: integer(rng, 2, 5) }, (_, i) => {
    const colour = pickOne(rng, colours);
    const cx = x + i * 70;
    return pickOne(rng, [
      `<circle cx="${cx}" cy="${y}" r="18" fill="none" stroke="${colour}" stroke-width="6"/>`,
      `<path d="M ${cx - 20} ${y + 16} L ${cx} ${y - 18} L ${cx + 20} ${y + 16} Z" fill="none" stroke="${colour}" stroke-width="6"/>`,
      `<rect x="${cx - 20}" y="${y - 12}" width="40" height="24" rx="6" fill="none" stroke="${colour}" stroke-width="6"/>`,
    ]);
  }).join('');
}

/** The two gauges either side of a digital display; numbers on most. */
function sideGauges(rng: Rng, unit: 'km' | 'mi', numbers: boolean): string {
  const ink = pickOne(rng, ['#e9ecef', '#cfd6dd', '#ffd7a8']);
  const speeds = unit === 'km' ? range(0, 260, 20) : range(0, 160, 20);
  return (
    dial(
      {
        cx: 560,
        cy: 1000,
        r: 350,
        numbers: numbers ? speeds : null,
        minor: 2,
        from: -130,
        to: 130,
        ink,
        numberCap: 38,
        needle: -130 + rng() * 120,
        ...(numbers && { caption: unit === 'km' ? 'km/h' : 'MPH' }),
      },
      speeds.length,
    ) +
    dial(
      {
        cx: 2040,
        cy: 1000,
        r: 350,
        numbers: numbers ? range(0, 8, 1) : null,
        minor: 4,
        from: -130,
        to: 130,
        ink,
        numberCap: 40,
        needle: -130 + rng() * 60,
        ...(numbers && { caption: 'x1000 r/min' }),
      },
      9,
    )
  );
}

// ---------------------------------------------------------------------------------------------------
// Digital

interface Figure {
  label: string | null;
  value: string;
  unit: string | null;
  /** Capital height wanted; less when the row would not fit. */
  cap: number;
  odo: boolean;
}

/** Width of a row at capital height 1 in `style`: label, value, unit and the gaps between them. */
function rowWidth(style: DigitalOdometer['style'], row: Figure, places: number): number {
  if (style === 'dot') return ([row.label, row.value, row.unit].filter(Boolean).join(' ').length * 6) / 7;
  const label = row.label ? row.label.length * 0.45 * 0.95 + 0.45 : 0;
  const value =
    style === 'segment'
      ? places * 0.66
      : [...row.value].reduce((w, c) => w + (/[0-9]/.test(c) ? 0.87 : 0.45), 0);
  const unit = row.unit ? 0.3 + row.unit.length * 0.54 * 0.8 : 0;
  return label + value + unit;
}

/** The odometer's characters at capital height `cap`: their pitch in each style (see rowWidth). */
function glyphsOf(style: DigitalOdometer['style'], cap: number): Glyphs {
  const pitch = { segment: 0.66, dot: 6 / 7, tft: 0.87 }[style];
  return { capHeight: cap, pitch: pitch * cap };
}

/** One row of the display in its style: a label, the figure, its unit; top-left corner at (x, y). */
function figure(
  style: DigitalOdometer['style'],
  ink: string,
  off: string | undefined,
  x: number,
  y: number,
  cap: number,
  row: Figure,
  places: number,
): string {
  if (style === 'dot') {
    const line = [row.label, row.value, row.unit].filter(Boolean).join(' ');
    return dotText(line, x, y, cap / 7, ink, off).svg;
  }
  const labelCap = cap * 0.45;
  const parts: string[] = [];
  let at = x;
  if (row.label) {
    parts.push(text(row.label, at, y + cap, labelCap, { font: FONTS.bold, fill: ink }));
    at += row.label.length * labelCap * 0.95 + labelCap;
  }
  if (style === 'segment') {
    const style7: SegmentStyle = { on: ink, ...(off !== undefined && { off }), thickness: 0.2, slant: 5 };
    parts.push(segmentNumber(row.value, places, at, y, cap * 0.5, cap, style7).svg);
    at += places * cap * 0.66 + cap * 0.3;
  } else {
    parts.push(text(row.value, at, y + cap, cap, { font: FONTS.sans, fill: ink }));
    at += [...row.value].reduce((w, c) => w + (/[0-9]/.test(c) ? 0.87 : 0.45), 0) * cap + cap * 0.3;
  }
  if (row.unit) parts.push(text(row.unit, at, y + cap, cap * 0.54, { font: FONTS.sans, fill: ink }));
  return parts.join('');
}

/**
 * A cluster with a digital display between two gauges: the odometer and, always, a trip meter, the
 * time and the outside temperature; a second trip meter, the range or the consumption on some.
 */
export function digitalCluster(odometer: DigitalOdometer, rng: Rng): Cluster {
  const ink = pickOne(rng, INKS);
  const lcd = odometer.style !== 'tft' && rng() < 0.6;
  const off = lcd ? `${ink}22` : undefined;
  const km = odometer.unit === 'km';
  const style = odometer.style;
  const trip = () => `${integer(rng, 0, 999)}.${integer(rng, 0, 9)}`;
  const [dx, dy, dw, dh] = [940, 560, 720, 820];
  const left = dx + 40;
  const room = dw - 80;
  const parts: string[] = [];
  // The top bar: the time and the outside temperature, in the display's letters (segments: a TFT's).
  const small: DigitalOdometer['style'] = style === 'dot' ? 'dot' : 'tft';
  const clock = `${integer(rng, 0, 23)}:${String(integer(rng, 0, 59)).padStart(2, '0')}`;
  const temperature = km ? `${integer(rng, -9, 34)}°C` : `${integer(rng, 20, 95)}°F`;
  const bar = (value: string): Figure => ({ label: null, value, unit: null, cap: 34, odo: false });
  parts.push(figure(small, ink, off, left, dy + 36, 34, bar(clock), 0));
  const temperatureWidth = rowWidth(small, bar(temperature), 0) * 34;
  parts.push(figure(small, ink, off, dx + dw - 40 - temperatureWidth, dy + 36, 34, bar(temperature), 0));
  parts.push(
    `<line x1="${dx + 30}" y1="${dy + 100}" x2="${dx + dw - 30}" y2="${dy + 100}" stroke="${ink}" stroke-opacity="0.35" stroke-width="3"/>`,
  );
  // The figures, the odometer among them.
  const rows: Figure[] = [
    {
      label: pickOne(rng, ['TRIP A', 'TRIP', 'A']),
      value: trip(),
      unit: rng() < 0.7 ? (km ? 'km' : 'mi') : null,
      cap: 46,
      odo: false,
    },
  ];
  const extra = pickOne(rng, ['trip-b', 'range', 'consumption', 'none'] as const);
  if (extra === 'trip-b')
    rows.push({ label: 'TRIP B', value: trip(), unit: km ? 'km' : 'mi', cap: 40, odo: false });
  if (extra === 'range')
    rows.push({
      label: 'RANGE',
      value: String(integer(rng, 40, 720)),
      unit: km ? 'km' : 'mi',
      cap: 40,
      odo: false,
    });
  if (extra === 'consumption')
    rows.push(
      km
        ? {
            label: 'AVG',
            value: `${integer(rng, 4, 11)}.${integer(rng, 0, 9)}`,
            unit: 'L/100km',
            cap: 40,
            odo: false,
          }
        : {
            label: 'AVG',
            value: `${integer(rng, 18, 45)}.${integer(rng, 0, 9)}`,
            unit: 'MPG',
            cap: 40,
            odo: false,
          },
    );
  const odo: Figure = {
    label: odometer.label ? 'ODO' : null,
    value: style === 'segment' ? String(odometer.value) : withSeparator(odometer.value, odometer.separator),
    unit: odometer.unitLabel,
    cap: 72,
    odo: true,
  };
  // The odometer at the bottom on most, at the top on some.
  if (rng() < 0.7) rows.push(odo);
  else rows.unshift(odo);
  const placesOf = (row: Figure) =>
    row.odo ? Math.max(6, row.value.length) : row.value.replace('.', '').length;
  const caps = rows.map((row) => Math.min(row.cap, room / rowWidth(style, row, placesOf(row))));
  let y = dy + 130;
  const gap = (dh - 150 - caps.reduce((sum, cap) => sum + cap, 0)) / rows.length;
  rows.forEach((row, i) => {
    y += gap / 2;
    parts.push(figure(style, ink, off, left, y, caps[i]!, row, placesOf(row)));
    y += caps[i]! + gap / 2;
  });
  const display =
    `<rect x="${dx}" y="${dy}" width="${dw}" height="${dh}" rx="28" fill="#05070a" stroke="#25282d" stroke-width="6"/>` +
    `<rect x="${dx}" y="${dy}" width="${dw}" height="${dh}" rx="28" fill="${ink}" opacity="0.04"/>`;
  const body =
    surround() +
    sideGauges(rng, odometer.unit, rng() < 0.8) +
    display +
    parts.join('') +
    lamps(rng, 1000, 1460);
  return {
    drawing: inPlastic({ body, width: W, height: H, focus: { x: 150, y: 460, width: 2300, height: 1100 } }),
    glyphs: glyphsOf(style, caps[rows.indexOf(odo)]!),
    textAt: { x: PAD + dx + dw / 2, y: PAD + dy + dh / 2 },
  };
}

// ---------------------------------------------------------------------------------------------------
// Analogue

/** Width of a trip counter of `count` drums (38 units wide, the gap between them included). */
const tripDigitsWidth = (count: number) => count * 38 * 1.12;

/** A row of counter drums: dark cylinders with white figures, the last one (tenths) in `last` colours. */
function drums(
  digits: string,
  x: number,
  y: number,
  width: number,
  height: number,
  last?: { paper: string; ink: string },
): string {
  const gap = width * 0.12;
  const parts = [
    `<rect x="${n(x - gap * 2)}" y="${n(y - gap * 2)}" width="${n(digits.length * (width + gap) + gap * 3)}" height="${n(height + gap * 4)}" rx="${n(gap)}" fill="#1a1b1d" stroke="#6d7176" stroke-width="${n(gap * 0.6)}"/>`,
  ];
  [...digits].forEach((digit, i) => {
    const special = last && i === digits.length - 1;
    const left = x + i * (width + gap);
    parts.push(
      `<rect x="${n(left)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" fill="${special ? last.paper : 'url(#drum)'}"/>`,
      text(digit, left + width / 2, y + height / 2 + height * 0.28, height * 0.56, {
        font: FONTS.bold,
        fill: special ? last.ink : '#f2f2f2',
        anchor: 'middle',
      }),
      `<rect x="${n(left)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" fill="url(#drum-shade)"/>`,
    );
  });
  return parts.join('');
}

/**
 * An analogue cluster: the speedometer (numbers 20 … 240 km/h, or 20 … 160 MPH with km/h inside) with
 * the total drum counter under its hub and the trip counter (red tenths) beside or below it; a fuel and
 * a temperature gauge either side.
 */
export function analogueCluster(odometer: AnalogueOdometer, rng: Rng): Cluster {
  const km = odometer.unit === 'km';
  const [cx, cy, r] = [1300, 950, 600];
  const ink = pickOne(rng, ['#f4f4f2', '#e9edf2', '#fff2d6']);
  const speeds = km ? range(0, pickOne(rng, [220, 240, 260]), 20) : range(0, pickOne(rng, [140, 160]), 20);
  const defs =
    `<defs><linearGradient id="drum" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000"/>` +
    `<stop offset="0.5" stop-color="#202124"/><stop offset="1" stop-color="#000"/></linearGradient>` +
    `<linearGradient id="drum-shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.55"/>` +
    `<stop offset="0.3" stop-color="#000" stop-opacity="0"/><stop offset="0.7" stop-color="#000" stop-opacity="0"/>` +
    `<stop offset="1" stop-color="#000" stop-opacity="0.55"/></linearGradient></defs>`;
  const parts = [surround(), defs];
  // Fuel and temperature, letters only.
  for (const [gx, labels] of [
    [420, ['E', 'F']],
    [2180, ['C', 'H']],
  ] as const) {
    parts.push(
      dial(
        {
          cx: gx,
          cy: 1120,
          r: 220,
          numbers: null,
          minor: 2,
          from: -60,
          to: 60,
          ink,
          numberCap: 40,
          needle: -50 + rng() * 100,
        },
        3,
      ),
      text(labels[0], gx - 150, 1040, 44, { font: FONTS.bold, fill: ink, anchor: 'middle' }),
      text(labels[1], gx + 150, 1040, 44, { font: FONTS.bold, fill: ink, anchor: 'middle' }),
    );
  }
  parts.push(
    dial(
      {
        cx,
        cy,
        r,
        numbers: speeds,
        minor: 2,
        from: -125,
        to: 125,
        ink,
        numberCap: 56,
        needle: -125 + rng() * 150,
        caption: km ? 'km/h' : 'MPH',
      },
      speeds.length,
    ),
  );
  if (!km) {
    // The inner km/h ring of a miles dial, small and orange.
    const inner = range(0, 240, 40);
    inner.forEach((value, i) => {
      const angle = -125 + (250 * Number(value)) / (Number(speeds.at(-1)) * 1.609);
      if (angle > 125) return;
      const [tx, ty] = onCircle(cx, cy, r * 0.5, angle);
      parts.push(text(value, tx, ty + 12, 24, { font: FONTS.sans, fill: '#ff9a3c', anchor: 'middle' }));
      void i;
    });
  }
  // The total counter under the hub.
  const integerDrums = odometer.drums - (odometer.tenths ? 1 : 0);
  const shown = String(odometer.value).padStart(integerDrums, '0');
  const tenthsDigit = String(integer(rng, 0, 9));
  const digits = odometer.tenths ? `${shown}${tenthsDigit}` : shown;
  const [dw, dh] = [54, 82];
  const gap = dw * 0.12;
  const total = digits.length * (dw + gap);
  // Beside the total only when both fit between the dial's lower numbers; below it otherwise.
  const beside = odometer.trip === 'beside' && total + 40 + tripDigitsWidth(5) <= 600;
  const tripDigits = `${String(integer(rng, 0, 999)).padStart(integer(rng, 3, 4), '0')}${integer(rng, 0, 9)}`;
  const [tw, th] = [38, 58];
  const tripWidth = tripDigits.length * (tw * 1.12);
  const totalX = beside ? cx - (total + 40 + tripWidth) / 2 : cx - total / 2;
  const totalY = cy + 130;
  const tenthsColours = pickOne(rng, [
    { paper: '#eeeeea', ink: '#111' },
    { paper: '#b3151b', ink: '#fff' },
  ]);
  parts.push(drums(digits, totalX, totalY, dw, dh, odometer.tenths ? tenthsColours : undefined));
  const tripX = beside ? totalX + total + 40 : cx - tripWidth / 2;
  const tripY = beside ? totalY + (dh - th) / 2 : totalY + dh + 40;
  parts.push(drums(tripDigits, tripX, tripY, tw, th, { paper: '#b3151b', ink: '#fff' }));
  if (odometer.unitLabel) {
    const [ux, uy] = beside
      ? [totalX + total / 2, totalY + dh + 58]
      : [totalX + total + 24, totalY + dh * 0.7];
    parts.push(
      text(odometer.unitLabel, ux, uy, 34, {
        font: FONTS.bold,
        fill: ink,
        anchor: beside ? 'middle' : 'start',
      }),
    );
  }
  // The trip reset knob.
  parts.push(
    `<circle cx="${cx + r * 0.62}" cy="${cy + r * 0.62}" r="26" fill="#2a2c2f" stroke="#75797e" stroke-width="6"/>`,
  );
  const focus: Box = { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r };
  return {
    drawing: inPlastic({ body: parts.join(''), width: W, height: H, focus }),
    glyphs: { capHeight: dh * 0.56, pitch: dw + gap },
    textAt: { x: PAD + cx, y: PAD + totalY + dh / 2 },
  };
}

// ---------------------------------------------------------------------------------------------------
// No figures

/** A cluster with gauges and a display but no figure and no letter: a photo without text. */
export function blankCluster(rng: Rng): Drawing {
  const analogue = rng() < 0.5;
  const ink = pickOne(rng, INKS);
  let body = surround();
  if (analogue) {
    body += dial(
      {
        cx: 1300,
        cy: 950,
        r: 600,
        numbers: null,
        minor: 4,
        from: -135,
        to: 135,
        ink: '#eeeeee',
        numberCap: 50,
        needle: -135 + rng() * 200,
      },
      13,
    );
  } else {
    body += sideGauges(rng, 'km', false);
    // The display: a fuel bar graph and a car outline, no figures.
    body += `<rect x="940" y="560" width="720" height="820" rx="28" fill="#05070a" stroke="#25282d" stroke-width="6"/>`;
    body += Array.from(
      { length: 8 },
      (_, i) =>
        `<rect x="${1060 + i * 62}" y="1230" width="48" height="60" fill="${ink}" opacity="${i < integer(rng, 2, 8) ? 0.9 : 0.15}"/>`,
    ).join('');
    body += `<path d="M 1180 900 Q 1300 760 1420 900 L 1440 1040 L 1160 1040 Z" fill="none" stroke="${ink}" stroke-width="10"/>`;
  }
  body += lamps(rng, 1030, 1470);
  return inPlastic({ body, width: W, height: H, focus: { x: 150, y: 460, width: 2300, height: 1100 } });
}
