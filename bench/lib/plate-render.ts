// Licence plates of the reading set: random registrations of the formats of the 11 countries the service
// knows (the table below follows src/domain/plate-formats.ts, copied so that the set does not change when
// that table does), each country's letters and codes as it issues them, drawn to look like that country's
// plate: the blue EU band with the country letters, yellow rear plates in Great Britain and the
// Netherlands, red characters in Belgium, a state name and slogan on US plates, the Indian wheel and IND,
// the Emirates' code beside the number. DejaVu Sans Condensed Bold stands in for the plate typefaces.
// Sizes are millimetres. Also the cars they are photographed on: a car's rear or front drawn around a
// plate, and the road it stands on.
import { draw, integer, pickOne, type Rng } from './reading-random.js';
import { FONTS, glyphRow, n, onCircle, smallerGlyphs, text, type Drawing, type Glyphs } from './svg-draw.js';

/** A plate's drawing: the whole plate is the focus, its characters' glyphs those given. */
const wholePlate = (body: string, width: number, height: number, glyphs: Glyphs): Drawing => ({
  body,
  width,
  height,
  focus: { x: 0, y: 0, width, height },
  glyphs,
});

/**
 * The plate formats: groups of `L` a letter, `D` a digit, `A` either, each optionally with a count
 * `{m}` or `{m,n}`, `-` between groups.
 */
const FORMATS: readonly { country: PlateCountry; format: string }[] = [
  { country: 'FR', format: 'LL-DDD-LL' },
  { country: 'FR', format: 'D{1,4}-L{2,3}-D{2}' },
  { country: 'DE', format: 'L{1,3}-L{1,2}-D{1,4}' },
  { country: 'DE', format: 'L{1,3}-L{1,2}-D{1,3}L' },
  { country: 'GB', format: 'LLDD-LLL' },
  { country: 'NL', format: 'DD-LL-LL' },
  { country: 'NL', format: 'DD-LLL-D' },
  { country: 'NL', format: 'D-LLL-DD' },
  { country: 'NL', format: 'LL-DDD-L' },
  { country: 'NL', format: 'L-DDD-LL' },
  { country: 'NL', format: 'LLL-DD-L' },
  { country: 'BE', format: 'D-LLL-DDD' },
  { country: 'IT', format: 'LL-DDD-LL' },
  { country: 'ES', format: 'DDDD-LLL' },
  { country: 'PL', format: 'LL-DDDDD' },
  { country: 'PL', format: 'LL-DDDDL' },
  { country: 'PL', format: 'LLL-DDDD' },
  { country: 'PL', format: 'LLL-LDDD' },
  { country: 'US', format: 'DLLLDDD' },
  { country: 'US', format: 'LLL-DDDD' },
  { country: 'US', format: 'LLL-DDD' },
  { country: 'US', format: 'DDD-LLL' },
  { country: 'US', format: 'LL-DDDDD' },
  { country: 'US', format: 'LLL-LDD' },
  { country: 'IN', format: 'LL-D{1,2}-L{1,3}-DDDD' },
  { country: 'AE', format: 'L{1,2}-D{1,5}' },
  { country: 'AE', format: 'D{1,2}-D{1,5}' },
];

/** One character class of a format, repeated from `min` to `max` times. */
interface PlateSlot {
  kind: 'L' | 'D' | 'A';
  min: number;
  max: number;
}

/** A format's groups as slots: `LL-DDD-LL` → [[L,L],[D,D,D],[L,L]] with their counts. */
function formatGroups(format: string): PlateSlot[][] {
  return format.split('-').map((group) =>
    [...group.matchAll(/([LDA])(?:\{(\d+)(?:,(\d+))?\})?/g)].map((token) => {
      const min = token[2] === undefined ? 1 : Number(token[2]);
      const max = token[3] === undefined ? min : Number(token[3]);
      return { kind: token[1] as PlateSlot['kind'], min, max };
    }),
  );
}

export const PLATE_COUNTRIES = ['FR', 'DE', 'GB', 'NL', 'BE', 'IT', 'ES', 'PL', 'US', 'IN', 'AE'] as const;
export type PlateCountry = (typeof PLATE_COUNTRIES)[number];

export interface Plate {
  country: PlateCountry;
  /** The format of the table it was made from. */
  format: string;
  /** Its letters and digits by group of the format. */
  groups: string[];
  /** As an inspection's inputMetaData would give it (`AB-123-CD`, `M-AB 1234`, `7ABC123`). */
  written: string;
  /** As printed: ` ` a gap, `-` a hyphen, `|` the country's device between groups (seals, emblem). */
  printed: string;
  /** Drawing details decided with the plate (US state, British front or rear plate, Emirate, …). */
  variant: string;
}

const DIGITS = '0123456789';
const ALL_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Letters each country uses in its serial letter groups. */
const LETTERS: Readonly<Record<PlateCountry, string>> = {
  FR: 'ABCDEFGHJKLMNPQRSTVWXYZ', // no I, O, U
  DE: 'ABCDEFGHIJKLMNOPRSTUVWXYZ',
  GB: 'ABCDEFGHJKLMNOPRSTUVWXY', // no I, Q, Z
  NL: 'BDFGHJKLNPRSTVXZ', // consonants
  BE: 'ABCDEFGHIJKLMNOPRSTUVWXYZ',
  IT: 'ABCDEFGHJKLMNPRSTVWXYZ', // no I, O, Q, U
  ES: 'BCDFGHJKLMNPRSTVWXYZ', // consonants
  PL: 'ABCDEFGHJKLMNPRSTUVWXY',
  US: 'ABCDEFGHJKLMNPRSTUVWXYZ', // no I, O, Q
  IN: 'ABCDEFGHJKLMNPRSTUVWXYZ',
  AE: ALL_LETTERS,
};

const DE_DISTRICTS = ['M', 'B', 'K', 'F', 'S', 'D', 'H', 'L', 'N', 'HH', 'DO', 'HB', 'DD', 'BN', 'KA', 'MA'];
const DE_DISTRICTS_3 = ['WES', 'NEU', 'LUD', 'HEI', 'REK', 'BOR', 'STA', 'GAP', 'MSP', 'OVP', 'SIG'];
const PL_DISTRICTS_2 = [
  'WA',
  'WE',
  'WI',
  'KR',
  'PO',
  'PZ',
  'GD',
  'GA',
  'DW',
  'LU',
  'SK',
  'EL',
  'ZS',
  'BI',
  'RZ',
];
const PL_DISTRICTS_3 = ['KRA', 'WPI', 'PGN', 'SBE', 'DLU', 'WOT', 'GKA', 'ELW', 'NOL', 'CTR', 'LBL', 'KNS'];
const IN_STATES = ['MH', 'DL', 'KA', 'TN', 'UP', 'GJ', 'RJ', 'WB', 'HR', 'KL', 'TS', 'AP', 'PB', 'MP'];
const GB_AGES = ['51', '02', '53', '04', '55', '06', '57', '08', '59', '10', '61', '12', '63', '14', '65'];
const GB_AGES_RECENT = [
  '66',
  '17',
  '67',
  '18',
  '68',
  '19',
  '69',
  '20',
  '70',
  '21',
  '71',
  '22',
  '72',
  '23',
  '73',
  '24',
];
const AD_CODES = ['1', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '50'];

/** A group of `slots` filled with the country's characters; digits never start with 0 where `nonZero`. */
function fill(rng: Rng, slots: readonly PlateSlot[], letters: string, nonZero: boolean): string {
  let out = '';
  for (const slot of slots) {
    const count = integer(rng, slot.min, slot.max);
    for (let i = 0; i < count; i++) {
      const first = out.length === 0;
      if (slot.kind === 'L') out += draw(rng, letters, 1);
      else if (slot.kind === 'D') out += draw(rng, first && nonZero ? '123456789' : DIGITS, 1);
      else out += draw(rng, letters + DIGITS, 1);
    }
  }
  return out;
}

/**
 * A random plate of `country`, of one of its formats of the table (picked at random), with the
 * country's own rules where the table is looser: German districts and the 8-character limit, Polish
 * districts, Indian states, British age identifiers, Abu Dhabi's codes.
 */
export function randomPlate(country: PlateCountry, rng: Rng): Plate {
  const formats = FORMATS.filter((f) => f.country === country);
  if (formats.length === 0) throw new Error(`no plate format of ${country}`);
  const { format } = pickOne(rng, formats);
  const slots = formatGroups(format);
  const letters = LETTERS[country];
  // Numbers do not start with 0, except the Indian four-digit number (0001 to 9999).
  let groups = slots.map((group, i) => fill(rng, group, letters, !(country === 'IN' && i === 3)));
  let variant = '';
  switch (country) {
    case 'FR':
      // The department: on the right-hand band of SIV plates, the last group of the older FNI numbers.
      variant = pickOne(rng, ['75', '69', '13', '33', '59', '67', '06', '44', '31', '974']);
      if (groups.length === 3 && !format.startsWith('LL'))
        groups[2] = pickOne(rng, ['75', '69', '13', '33', '59', '67']);
      break;
    case 'DE': {
      const district = rng() < 0.8 ? pickOne(rng, DE_DISTRICTS) : pickOne(rng, DE_DISTRICTS_3);
      const suffix = format.endsWith('L') ? (rng() < 0.7 ? 'E' : 'H') : '';
      const digits = groups[2]!.replace(/[A-Z]/g, '');
      // At most 8 characters in all, the E or H included.
      const room = 8 - district.length - groups[1]!.length - suffix.length;
      groups = [district, groups[1]!, `${digits.slice(0, Math.max(1, room))}${suffix}`];
      break;
    }
    case 'GB':
      groups = [
        `${groups[0]!.slice(0, 2)}${pickOne(rng, rng() < 0.6 ? GB_AGES_RECENT : GB_AGES)}`,
        groups[1]!,
      ];
      variant = rng() < 0.6 ? 'rear' : 'front';
      break;
    case 'PL':
      groups = [pickOne(rng, groups[0]!.length === 2 ? PL_DISTRICTS_2 : PL_DISTRICTS_3), groups[1]!];
      break;
    case 'US':
      variant = pickOne(
        rng,
        US_STATES.map((s) => s.name),
      );
      break;
    case 'IN':
      groups = [
        pickOne(rng, IN_STATES),
        String(integer(rng, 1, 99)).padStart(2, '0'),
        groups[2]!,
        groups[3]!,
      ];
      break;
    case 'AE':
      if (/^D/.test(format)) {
        groups = [pickOne(rng, AD_CODES), groups[1]!];
        variant = 'abu-dhabi';
      } else {
        variant = rng() < 0.75 ? 'dubai' : 'sharjah';
      }
      // Most numbers are 5 digits; shorter ones are the rarer, dearer plates.
      if (groups[1]!.length < 4 && rng() < 0.7) groups[1] = draw(rng, '123456789', 1) + draw(rng, DIGITS, 4);
      break;
    case 'NL':
    case 'BE':
    case 'IT':
    case 'ES':
      break;
  }
  const { written, printed } = layout(country, format, groups, rng);
  return { country, format, groups, written, printed, variant };
}

/** How the groups are written in inputMetaData and printed on the plate. */
function layout(
  country: PlateCountry,
  format: string,
  groups: string[],
  rng: Rng,
): { written: string; printed: string } {
  const g = groups;
  switch (country) {
    case 'FR':
      return format.startsWith('LL')
        ? { written: g.join('-'), printed: g.join('-') }
        : { written: g.join(' '), printed: g.join(' ') };
    case 'DE':
      return { written: `${g[0]}-${g[1]} ${g[2]}`, printed: `${g[0]}|${g[1]} ${g[2]}` };
    case 'GB':
    case 'ES':
    case 'PL':
    case 'IN':
    case 'AE':
      return { written: g.join(' '), printed: g.join(' ') };
    case 'NL':
    case 'BE':
      return { written: g.join('-'), printed: g.join('-') };
    case 'IT':
      return { written: g.join(' '), printed: `${g[0]} ${g[1]}${g[2]}` };
    case 'US': {
      if (g.length === 1) return { written: g[0]!, printed: g[0]! };
      const separator = pickOne(rng, [' ', '-', '|']);
      return { written: g.join(rng() < 0.5 ? ' ' : '-'), printed: g.join(separator) };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Drawing

const EU_CODES: Partial<Record<PlateCountry, string>> = {
  FR: 'F',
  DE: 'D',
  NL: 'NL',
  BE: 'B',
  IT: 'I',
  ES: 'E',
  PL: 'PL',
};

const US_STATES = [
  { name: 'CALIFORNIA', slogan: 'DMV.CA.GOV', colour: '#b01c2e', ink: '#1a2c6b', top: '#ffffff' },
  { name: 'New York', slogan: 'EXCELSIOR', colour: '#1d3f8f', ink: '#1d3f8f', top: '#f6f1d8' },
  { name: 'TEXAS', slogan: 'THE LONE STAR STATE', colour: '#111111', ink: '#111111', top: '#e9eef6' },
  { name: 'FLORIDA', slogan: 'SUNSHINE STATE', colour: '#1f6b3a', ink: '#1f6b3a', top: '#ffffff' },
  { name: 'ILLINOIS', slogan: 'LAND OF LINCOLN', colour: '#1b3d7a', ink: '#8a1c1c', top: '#e8eef5' },
  { name: 'OHIO', slogan: 'BIRTHPLACE OF AVIATION', colour: '#8a1c1c', ink: '#111111', top: '#fbf6ea' },
  { name: 'ARIZONA', slogan: 'GRAND CANYON STATE', colour: '#7a2f12', ink: '#1d2a5e', top: '#f8e9d2' },
  { name: 'Washington', slogan: 'EVERGREEN STATE', colour: '#1f4f86', ink: '#1f4f86', top: '#ffffff' },
] as const;

const EU_W = 520;
const EU_H = 110;
const BAND = 40;

/** The blue EU band: twelve stars in a circle above the country letters. */
function euBand(code: string): string {
  const stars = Array.from({ length: 12 }, (_, i) => {
    const [x, y] = onCircle(BAND / 2 + 2, 36, 11, i * 30);
    return `<circle cx="${n(x)}" cy="${n(y)}" r="1.7" fill="#ffcc00"/>`;
  });
  return (
    `<rect x="2" y="2" width="${BAND}" height="${EU_H - 4}" rx="5" fill="#0a3d9c"/>${stars.join('')}` +
    text(code, BAND / 2 + 2, 92, code.length > 1 ? 16 : 20, {
      font: FONTS.bold,
      fill: '#fff',
      anchor: 'middle',
    })
  );
}

function frame(width: number, height: number, background: string, border: string, radius = 6): string {
  return (
    `<rect x="0.75" y="0.75" width="${width - 1.5}" height="${height - 1.5}" rx="${radius}" fill="${background}" ` +
    `stroke="${border}" stroke-width="1.5"/>`
  );
}

/** The German seals: the inspection sticker above the district's seal. */
function seals(centre: number, pitch: number): string {
  const r = Math.min(pitch * 0.42, 14);
  return (
    `<circle cx="${n(centre)}" cy="${n(EU_H / 2 - r - 1)}" r="${n(r)}" fill="#d9a21b" stroke="#777" stroke-width="0.6"/>` +
    `<circle cx="${n(centre)}" cy="${n(EU_H / 2 + r + 1)}" r="${n(r)}" fill="#e8e8e8" stroke="#8a8a8a" stroke-width="0.8"/>` +
    `<circle cx="${n(centre)}" cy="${n(EU_H / 2 + r + 1)}" r="${n(r * 0.55)}" fill="#b43a3a"/>`
  );
}

/** A plate of the EU layout: band on the left, characters in the rest, an optional right-hand band. */
function euPlate(
  plate: Plate,
  options: { background: string; ink: string; border: string; right?: string; special?: 'seals' | 'stamp' },
): Drawing {
  const code = EU_CODES[plate.country] ?? '';
  const rightWidth = options.right === undefined ? 0 : BAND;
  const left = BAND + 6;
  const right = EU_W - 6 - rightWidth;
  const capHeight = plate.country === 'NL' ? 66 : 72;
  const special =
    options.special === 'seals'
      ? { width: 1.15, draw: seals }
      : options.special === 'stamp'
        ? {
            width: 0.7,
            draw: (c: number) =>
              `<rect x="${n(c - 8)}" y="${n(EU_H / 2 - 12)}" width="16" height="24" rx="2" fill="#f3f3f3" stroke="#999" stroke-width="0.5"/>` +
              `<rect x="${n(c - 8)}" y="${n(EU_H / 2)}" width="16" height="12" rx="2" fill="#c8232c"/>`,
          }
        : undefined;
  const printed = options.special === 'stamp' ? plate.printed.replace(' ', '|') : plate.printed;
  const row = glyphRow(printed, {
    centreX: (left + right) / 2,
    baseline: EU_H / 2 + capHeight / 2,
    maxWidth: right - left - 8,
    capHeight,
    font: FONTS.condensedBold,
    fill: options.ink,
    pitch: 0.62,
    ...(special && { special }),
  });
  let body = frame(EU_W, EU_H, options.background, options.border) + euBand(code) + row.svg;
  if (options.right !== undefined) {
    const x = EU_W - 2 - BAND;
    body +=
      `<rect x="${x}" y="2" width="${BAND}" height="${EU_H - 4}" rx="5" fill="#0a3d9c"/>` +
      (plate.country === 'FR'
        ? `<rect x="${x + 8}" y="16" width="${BAND - 16}" height="34" rx="3" fill="#e8c23a"/>` +
          text(options.right, x + BAND / 2, 90, 18, { font: FONTS.bold, fill: '#fff', anchor: 'middle' })
        : `<circle cx="${x + BAND / 2}" cy="30" r="11" fill="#e8c23a"/>` +
          text(options.right, x + BAND / 2, 90, 16, { font: FONTS.bold, fill: '#fff', anchor: 'middle' }));
  }
  return wholePlate(body, EU_W, EU_H, row.glyphs);
}

function gbPlate(plate: Plate, rng: Rng): Drawing {
  const rear = plate.variant === 'rear';
  const ukBand = rng() < 0.35;
  const left = ukBand ? BAND + 6 : 12;
  const capHeight = 76;
  const row = glyphRow(plate.printed, {
    centreX: (left + EU_W - 12) / 2,
    baseline: EU_H / 2 + capHeight / 2 - 2,
    maxWidth: EU_W - 12 - left - 8,
    capHeight,
    font: FONTS.condensedBold,
    fill: '#111',
    pitch: 0.64,
    space: 0.8,
  });
  let body = frame(EU_W, EU_H, rear ? '#f7c600' : '#f8f8f4', '#222') + row.svg;
  if (ukBand)
    body +=
      `<rect x="2" y="2" width="${BAND}" height="${EU_H - 4}" rx="5" fill="#0b6b3a"/>` +
      text('UK', BAND / 2 + 2, 92, 18, { font: FONTS.bold, fill: '#fff', anchor: 'middle' });
  if (rng() < 0.5)
    body += text(
      pickOne(rng, ['ARNOLD CLARK', 'EVANS HALSHAW', 'STONEACRE MOTORS', 'LOOKERS LEEDS']),
      EU_W / 2,
      106,
      4.2,
      {
        font: FONTS.sans,
        fill: '#333',
        anchor: 'middle',
      },
    );
  return wholePlate(body, EU_W, EU_H, row.glyphs);
}

const US_W = 305;
const US_H = 152;

function usPlate(plate: Plate, rng: Rng): Drawing {
  const state = US_STATES.find((s) => s.name === plate.variant) ?? US_STATES[0];
  const capHeight = 68;
  const emblem = (centre: number, pitch: number) =>
    `<circle cx="${n(centre)}" cy="${n(US_H / 2 + 8)}" r="${n(Math.min(pitch * 0.38, 14))}" fill="${state.colour}" opacity="0.85"/>`;
  const row = glyphRow(plate.printed, {
    centreX: US_W / 2,
    baseline: 112,
    maxWidth: US_W - 24,
    capHeight,
    font: FONTS.condensedBold,
    fill: state.ink,
    pitch: 0.6,
    special: { width: 0.8, draw: emblem },
  });
  const gradient =
    `<defs><linearGradient id="us-sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${state.top}"/>` +
    `<stop offset="0.6" stop-color="#ffffff"/></linearGradient></defs>`;
  const stickers =
    rng() < 0.6
      ? `<rect x="14" y="8" width="24" height="15" rx="1.5" fill="${pickOne(rng, ['#e8c23a', '#3a8fe8', '#e85a3a', '#40b060'])}"/>` +
        text(String(integer(rng, 24, 26)), 26, 20, 8, { font: FONTS.bold, fill: '#111', anchor: 'middle' }) +
        `<rect x="${US_W - 38}" y="8" width="24" height="15" rx="1.5" fill="#f0f0f0" stroke="#999" stroke-width="0.5"/>` +
        text(pickOne(rng, ['MAR', 'JUN', 'SEP', 'DEC', 'JAN']), US_W - 26, 20, 7, {
          font: FONTS.bold,
          fill: '#b01c2e',
          anchor: 'middle',
        })
      : '';
  const body =
    gradient +
    `<rect x="0.75" y="0.75" width="${US_W - 1.5}" height="${US_H - 1.5}" rx="9" fill="url(#us-sky)" stroke="#444" stroke-width="1.5"/>` +
    `<circle cx="${US_W / 2 - 78}" cy="14" r="3.5" fill="#555"/><circle cx="${US_W / 2 + 78}" cy="14" r="3.5" fill="#555"/>` +
    `<circle cx="${US_W / 2 - 78}" cy="${US_H - 14}" r="3.5" fill="#555"/><circle cx="${US_W / 2 + 78}" cy="${US_H - 14}" r="3.5" fill="#555"/>` +
    text(state.name, US_W / 2, 33, 15, {
      font:
        state.name === state.name.toUpperCase()
          ? FONTS.bold
          : 'font-family="DejaVu Serif" font-style="italic" font-weight="bold"',
      fill: state.colour,
      anchor: 'middle',
    }) +
    stickers +
    row.svg +
    text(state.slogan, US_W / 2, 139, 8.5, { font: FONTS.bold, fill: state.colour, anchor: 'middle' });
  return wholePlate(body, US_W, US_H, row.glyphs);
}

const IN_W = 500;
const IN_H = 120;

function inPlate(plate: Plate): Drawing {
  const capHeight = 64;
  const row = glyphRow(plate.printed, {
    centreX: (44 + IN_W - 10) / 2,
    baseline: IN_H / 2 + capHeight / 2,
    maxWidth: IN_W - 10 - 44 - 6,
    capHeight,
    font: FONTS.bold,
    fill: '#111',
    pitch: 0.66,
    space: 0.5,
  });
  const spokes = Array.from({ length: 12 }, (_, i) => {
    const [x, y] = onCircle(22, 26, 10, i * 15);
    const [x2, y2] = onCircle(22, 26, 10, i * 15 + 180);
    return `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x2)}" y2="${n(y2)}" stroke="#1b4fa0" stroke-width="0.8"/>`;
  }).join('');
  const body =
    frame(IN_W, IN_H, '#f8f8f6', '#111', 8) +
    `<circle cx="22" cy="26" r="11" fill="#c9d6ea" stroke="#1b4fa0" stroke-width="1.2"/>${spokes}` +
    ['I', 'N', 'D']
      .map((c, i) => text(c, 22, 62 + i * 17, 11, { font: FONTS.bold, fill: '#1b4fa0', anchor: 'middle' }))
      .join('') +
    row.svg;
  return wholePlate(body, IN_W, IN_H, row.glyphs);
}

function aePlate(plate: Plate): Drawing {
  const [code = '', number = ''] = plate.groups;
  const capHeight = 64;
  const numberRow = glyphRow(number, {
    centreX: 335,
    baseline: EU_H / 2 + capHeight / 2,
    maxWidth: 320,
    capHeight,
    font: FONTS.condensedBold,
    fill: '#111',
    pitch: 0.62,
  });
  const codeRow =
    plate.variant === 'abu-dhabi'
      ? glyphRow(code, {
          centreX: 54,
          baseline: 94,
          maxWidth: 80,
          capHeight: 42,
          font: FONTS.condensedBold,
          fill: '#fff',
          pitch: 0.62,
        })
      : glyphRow(code, {
          centreX: 125,
          baseline: EU_H / 2 + capHeight / 2,
          maxWidth: 80,
          capHeight: 56,
          font: FONTS.condensedBold,
          fill: '#111',
          pitch: 0.62,
        });
  let left: string;
  if (plate.variant === 'abu-dhabi') {
    left =
      `<rect x="6" y="6" width="96" height="${EU_H - 12}" rx="4" fill="#c8102e"/>` +
      text('أبوظبي', 54, 28, 11, { font: FONTS.sans, fill: '#fff', anchor: 'middle' }) +
      text('A.D', 54, 44, 11, { font: FONTS.bold, fill: '#fff', anchor: 'middle' }) +
      codeRow.svg;
  } else {
    const [name, arabic] = plate.variant === 'sharjah' ? ['SHARJAH', 'الشارقة'] : ['DUBAI', 'دبي'];
    left =
      text(arabic, 46, 42, 14, { font: FONTS.sans, fill: '#111', anchor: 'middle' }) +
      text(name, 46, 72, 10, { font: FONTS.bold, fill: '#111', anchor: 'middle' }) +
      codeRow.svg;
  }
  const body = frame(EU_W, EU_H, '#fafafa', '#222') + left + numberRow.svg;
  return wholePlate(body, EU_W, EU_H, smallerGlyphs(codeRow.glyphs, numberRow.glyphs));
}

/** The plate drawn as the country's plates look; `rng` decides the details the plate leaves open. */
export function plateDrawing(plate: Plate, rng: Rng): Drawing {
  switch (plate.country) {
    case 'FR':
      return euPlate(plate, {
        background: '#f8f8f4',
        ink: '#111',
        border: '#222',
        ...(plate.format.startsWith('LL') && { right: plate.variant }),
      });
    case 'DE':
      return euPlate(plate, { background: '#f8f8f4', ink: '#111', border: '#222', special: 'seals' });
    case 'NL':
      return euPlate(plate, { background: '#f4c20d', ink: '#111', border: '#222' });
    case 'BE':
      return euPlate(plate, { background: '#fbfbf9', ink: '#9b1b30', border: '#9b1b30' });
    case 'IT':
      return euPlate(plate, {
        background: '#f8f8f4',
        ink: '#111',
        border: '#222',
        right: pickOne(rng, ['MI', 'RM', 'TO', 'NA', 'BO', 'FI']),
      });
    case 'ES':
      return euPlate(plate, { background: '#f8f8f4', ink: '#111', border: '#222' });
    case 'PL':
      return euPlate(plate, { background: '#f8f8f4', ink: '#111', border: '#222', special: 'stamp' });
    case 'GB':
      return gbPlate(plate, rng);
    case 'US':
      return usPlate(plate, rng);
    case 'IN':
      return inPlate(plate);
    case 'AE':
      return aePlate(plate);
  }
}

/** A plate with nothing printed on it (a blank, of the EU size unless told): a photo without text. */
export function blankPlateDrawing(width = EU_W, height = EU_H): Drawing {
  return {
    body: frame(width, height, '#f6f6f2', '#333'),
    width,
    height,
    focus: { x: 0, y: 0, width, height },
  };
}

// ---------------------------------------------------------------------------------------------------
// The car around the plate

/** Where a drawn car's wheels stand, in its units (millimetres from its roof). */
const CAR_GROUND = 1510;

const PAINTS = ['#b9bdc3', '#e6e6e3', '#222427', '#8f1d1d', '#1f3d78', '#676b71', '#28452f', '#c9b99a'];

/** A vertical gradient from a lighter to a darker shade of `colour`, as a car's paint catches the sky. */
function paintGradient(id: string, colour: string): string {
  return (
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${colour}"/>` +
    `<stop offset="0.55" stop-color="${colour}" stop-opacity="0.92"/><stop offset="1" stop-color="#000" stop-opacity="0.9"/></linearGradient>`
  );
}

/**
 * A car seen square from behind or in front (1800 mm wide), the plate (or a blank, or none) on its
 * bumper: body, glass, lights, bumper and wheels, transparent around it (its road and shadow are
 * roadUnder's). The focus is the plate's box, so that a sample's size is the plate's width.
 */
export function carDrawing(plate: Drawing | null, rng: Rng, side: 'rear' | 'front'): Drawing {
  const paint = pickOne(rng, PAINTS);
  const W = 1800;
  const H = CAR_GROUND;
  const plateW = plate?.width ?? EU_W;
  const plateH = plate?.height ?? EU_H;
  const plateX = W / 2 - plateW / 2;
  const plateY = 1060 - plateH / 2;
  const glass =
    side === 'rear'
      ? `<linearGradient id="car-glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b3440"/><stop offset="0.45" stop-color="#151a21"/><stop offset="0.5" stop-color="#46505c"/><stop offset="0.6" stop-color="#151a21"/><stop offset="1" stop-color="#0c0f13"/></linearGradient>`
      : `<linearGradient id="car-glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8a99a8"/><stop offset="0.4" stop-color="#3a4654"/><stop offset="0.55" stop-color="#9fb0bf"/><stop offset="0.7" stop-color="#2d3743"/><stop offset="1" stop-color="#1b222b"/></linearGradient>`;
  const defs = `<defs>${paintGradient('car-paint', paint)}${glass}</defs>`;
  const wheels =
    `<rect x="130" y="1150" width="230" height="${CAR_GROUND - 1150}" rx="40" fill="#111"/>` +
    `<rect x="${W - 360}" y="1150" width="230" height="${CAR_GROUND - 1150}" rx="40" fill="#111"/>`;
  const cabin =
    `<path d="M 300 110 Q 900 60 1500 110 L 1690 650 L 110 650 Z" fill="url(#car-paint)"/>` +
    `<path d="M 370 170 Q 900 125 1430 170 L 1580 600 L 220 600 Z" fill="url(#car-glass)"/>`;
  const body =
    `<path d="M 70 640 L 1730 640 Q 1780 650 1775 760 L 1765 1230 Q 1760 1280 1700 1285 L 100 1285 Q 40 1280 35 1230 L 25 760 Q 20 650 70 640 Z" fill="url(#car-paint)"/>` +
    `<line x1="120" y1="900" x2="1680" y2="900" stroke="#000" stroke-opacity="0.25" stroke-width="6"/>`;
  let details: string;
  if (side === 'rear') {
    const light = (x1: number, x2: number, x3: number, x4: number) =>
      `<path d="M ${x1} 680 L ${x2} 680 L ${x3} 860 L ${x4} 880 Z" fill="#a3121b" stroke="#3b0508" stroke-width="6"/>` +
      `<path d="M ${(x1 + x2) / 2} 700 L ${x2 - 15} 700 L ${x3 - 10} 840 L ${(x1 + x2) / 2} 850 Z" fill="#e7e1d8" opacity="0.8"/>`;
    details =
      light(70, 480, 460, 80) +
      light(1730, 1320, 1340, 1720) +
      `<ellipse cx="${W / 2}" cy="800" rx="70" ry="36" fill="#c7c9cc" stroke="#6a6d70" stroke-width="8"/>` +
      `<ellipse cx="1420" cy="1300" rx="55" ry="28" fill="#151515" stroke="#8a8a8a" stroke-width="8"/>`;
  } else {
    const lamp = (x: number, dir: number) =>
      `<path d="M ${x} 700 L ${x + dir * 420} 720 L ${x + dir * 400} 830 L ${x + dir * 20} 820 Z" fill="#d9dde2" stroke="#404448" stroke-width="8"/>` +
      `<circle cx="${x + dir * 130}" cy="765" r="45" fill="#f6f7f8" stroke="#9aa0a6" stroke-width="6"/>`;
    details =
      lamp(70, 1) +
      lamp(1730, -1) +
      `<rect x="560" y="720" width="680" height="200" rx="40" fill="#17191c"/>` +
      Array.from(
        { length: 5 },
        (_, i) => `<rect x="590" y="${745 + i * 34}" width="620" height="10" fill="#55595e"/>`,
      ).join('') +
      `<ellipse cx="${W / 2}" cy="820" rx="70" ry="40" fill="#c7c9cc" stroke="#6a6d70" stroke-width="8"/>` +
      `<rect x="500" y="1170" width="800" height="80" rx="30" fill="#111"/>`;
  }
  const recess = `<rect x="${plateX - 25}" y="${plateY - 25}" width="${plateW + 50}" height="${plateH + 50}" rx="14" fill="#000" opacity="0.28"/>`;
  const bumper = `<rect x="30" y="1000" width="${W - 60}" height="270" rx="70" fill="#000" opacity="0.12"/>`;
  const plated = plate === null ? '' : `<g transform="translate(${plateX} ${plateY})">${plate.body}</g>`;
  return {
    body: defs + wheels + cabin + body + bumper + details + recess + plated,
    width: W,
    height: H,
    focus: { x: plateX, y: plateY, width: plateW, height: plateH },
    ...(plate?.glyphs && { glyphs: plate.glyphs }),
  };
}

/** A road under a car: where it lies on the ground (see reading-render.ts, Layer.ground). */
export interface Road {
  drawing: Drawing;
  /** x along the car's rear or front, y away from the camera (negative: in front of the car). */
  box: { x: number; y: number; width: number; height: number };
  /** Height of the ground under the car drawing's origin: where its wheels stand. */
  ground: number;
}

/**
 * The road a car (carDrawing) stands on, from 7 m before it to 30 m behind it: asphalt, the lane's
 * dashed lines either side of the car, the kerb and the pavement on one side, the car's shadow.
 */
export function roadUnder(car: Drawing, rng: Rng): Road {
  const [side, front, back] = [6000, 7000, 30000];
  const width = car.width + 2 * side;
  const height = front + back;
  const asphalt = pickOne(rng, ['#55565a', '#5d5c58', '#48494c']);
  const x = (along: number) => along + side;
  const y = (depth: number) => depth + front;
  const dashes = (at: number) =>
    Array.from(
      { length: 12 },
      (_, i) =>
        `<rect x="${x(at) - 60}" y="${y(-front + i * 4000)}" width="120" height="2000" fill="#dcdad2" opacity="0.85"/>`,
    ).join('');
  const kerbAt = car.width + integer(rng, 1800, 3200);
  const body =
    `<rect x="0" y="0" width="${width}" height="${height}" fill="${asphalt}"/>` +
    dashes(-1000) +
    dashes(car.width + 1000 + (kerbAt > car.width + 2600 ? 0 : 20000)) +
    `<rect x="${x(kerbAt)}" y="0" width="${width - x(kerbAt)}" height="${height}" fill="#8f8e8a"/>` +
    `<rect x="${x(kerbAt)}" y="0" width="180" height="${height}" fill="#b4b3ae"/>` +
    `<rect x="${x(-60)}" y="${y(-200)}" width="${car.width + 120}" height="4600" rx="400" fill="#000" opacity="0.5"/>`;
  return {
    drawing: { body, width, height, focus: { x: 0, y: 0, width, height } },
    box: { x: -side, y: -front, width, height },
    ground: CAR_GROUND,
  };
}
