// VINs of the reading set and what they are photographed on: the maker's label on a door pillar (with
// the maker's name, dates, weights, a barcode and a tyre placard beside it as other text), and the
// metal strip under the windshield (light embossed characters on a dark plate, on a dark dashboard).
// VINs are valid: 17 characters of A-H J-N P R-Z 0-9 whose position 9 is the ISO 3779 check digit,
// computed here (not taken from src/, which the bench measures). Sizes are millimetres.
import { draw, integer, pickOne, type Rng } from './reading-random.js';
import {
  barcode,
  fittedText,
  FONTS,
  glyphRow,
  n,
  padded,
  text,
  type Box,
  type Drawing,
  type Glyphs,
} from './svg-draw.js';

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** ISO 3779 transliteration of the letters (digits count as themselves). */
const LETTER_VALUES: Readonly<Record<string, number>> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** The check digit (position 9) of a 17-character VIN: the weighted sum modulo 11, 10 written X. */
export function vinCheckDigit(vin: string): string {
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(vin)) throw new Error(`not a VIN: ${vin}`);
  const sum = [...vin].reduce((total, char, i) => {
    const value = /[0-9]/.test(char) ? Number(char) : LETTER_VALUES[char]!;
    return total + value * WEIGHTS[i]!;
  }, 0);
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

export const isValidVin = (vin: string): boolean =>
  /^[A-HJ-NPR-Z0-9]{17}$/.test(vin) && vinCheckDigit(vin) === vin[8];

export interface Maker {
  wmi: string;
  /** As its label names it. */
  name: string;
  /** Its labels look European (type approval, weights per axle) rather than North American. */
  european: boolean;
  /** Its VDS (positions 4-8), when the maker fills some of it the same way (VW's ZZZ). */
  vds?: string;
}

/** North American and Asian makers (WMI 1-5, J, K, L), and a few European ones (W, V, Z, S). */
export const MAKERS: readonly Maker[] = [
  { wmi: '1HG', name: 'HONDA OF AMERICA MFG., INC.', european: false },
  { wmi: '1FT', name: 'FORD MOTOR COMPANY', european: false },
  { wmi: '1G1', name: 'GENERAL MOTORS LLC', european: false },
  { wmi: '2T1', name: 'TOYOTA MOTOR MFG. CANADA INC.', european: false },
  { wmi: '3VW', name: 'VOLKSWAGEN DE MEXICO S.A. DE C.V.', european: false },
  { wmi: '4T1', name: 'TOYOTA MOTOR MFG. KENTUCKY, INC.', european: false },
  { wmi: '5YJ', name: 'TESLA, INC.', european: false },
  { wmi: '5NP', name: 'HYUNDAI MOTOR MFG. ALABAMA, LLC', european: false },
  { wmi: 'JHM', name: 'HONDA MOTOR CO., LTD.', european: false },
  { wmi: 'JTD', name: 'TOYOTA MOTOR CORPORATION', european: false },
  { wmi: 'JN1', name: 'NISSAN MOTOR CO., LTD.', european: false },
  { wmi: 'KMH', name: 'HYUNDAI MOTOR COMPANY', european: false },
  { wmi: 'KNA', name: 'KIA CORPORATION', european: false },
  { wmi: 'LSV', name: 'SAIC VOLKSWAGEN AUTOMOTIVE CO., LTD.', european: false },
  { wmi: 'WVW', name: 'VOLKSWAGEN AG', european: true, vds: 'ZZZ' },
  { wmi: 'WBA', name: 'BMW AG', european: true },
  { wmi: 'VF1', name: 'RENAULT S.A.S.', european: true },
  { wmi: 'ZFA', name: 'FCA ITALY S.P.A.', european: true },
  { wmi: 'SAL', name: 'JAGUAR LAND ROVER LIMITED', european: true },
];

const MODEL_YEARS = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/**
 * A valid VIN of `maker`: its WMI, a VDS, the check digit, a model year, a plant and a 6-digit serial
 * (North American makers use digits there).
 */
export function randomVin(rng: Rng, maker: Maker): string {
  const vds = (maker.vds ?? '') + draw(rng, VIN_CHARS, 5 - (maker.vds?.length ?? 0));
  const draft = `${maker.wmi}${vds}0${draw(rng, MODEL_YEARS, 1)}${draw(rng, VIN_CHARS, 1)}${draw(rng, '0123456789', 6)}`;
  // Position 9 weighs 0 in the sum, so the placeholder does not change the digit computed.
  const vin = `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
  if (!isValidVin(vin)) throw new Error(`made an invalid VIN: ${vin}`);
  return vin;
}

// ---------------------------------------------------------------------------------------------------
// The label on the door pillar

const STICKER_COLOURS = [
  { paper: '#f7f7f3', ink: '#161616', edge: '#9a9a96' },
  { paper: '#dcdcd8', ink: '#141414', edge: '#8a8a86' },
  // Silver foil: a sheen across it.
  { paper: 'url(#foil)', ink: '#121212', edge: '#7d7f82' },
] as const;

const BODY_PAINTS = ['#b8bcc1', '#e4e4e1', '#2a2c30', '#7d1c1c', '#233f73', '#5e6369', '#c8b896'];

/** A VIN's scene: where the label (or plate) is in it, and the VIN row's capital height. */
export interface Sticker {
  drawing: Drawing;
  /** The label itself, in scene units: the focus of a photo of it. */
  label: Box;
  /** The VIN's characters (scene units), for judging their legibility. */
  glyphs: Glyphs;
}

/** A scene with `pad` of `fill` around it, its label moved with it. */
function padScene(scene: Sticker, pad: number, fill: string): Sticker {
  return {
    drawing: padded(scene.drawing, pad, fill),
    label: { ...scene.label, x: scene.label.x + pad, y: scene.label.y + pad },
    glyphs: scene.glyphs,
  };
}

/** Weights and dates of a label, in the maker's style (kg and lb in North America, per axle in Europe). */
function labelLines(rng: Rng, maker: Maker): string[] {
  const gvwr = integer(rng, 1750, 2650);
  const front = Math.round(gvwr * 0.53 + integer(rng, -40, 40));
  const rear = Math.round(gvwr * 0.52 + integer(rng, -40, 40));
  const month = String(integer(rng, 1, 12)).padStart(2, '0');
  const year = String(integer(rng, 14, 24));
  if (maker.european)
    return [
      `e${integer(rng, 1, 13)}*2007/46*${String(integer(rng, 100, 9999)).padStart(4, '0')}*${String(integer(rng, 1, 30)).padStart(2, '0')}`,
      `${gvwr} kg`,
      `${gvwr + integer(rng, 900, 1600)} kg`,
      `1- ${front} kg`,
      `2- ${rear} kg`,
    ];
  const lb = (kg: number) => Math.round(kg * 2.20462);
  return [
    `DATE: ${month}/${year}   GVWR: ${gvwr} KG (${lb(gvwr)} LB)`,
    `GAWR FRT: ${front} KG (${lb(front)} LB)   RR: ${rear} KG (${lb(rear)} LB)`,
    'THIS VEHICLE CONFORMS TO ALL APPLICABLE U.S. FEDERAL MOTOR VEHICLE SAFETY,',
    `BUMPER, AND THEFT PREVENTION STANDARDS IN EFFECT ON THE DATE OF MANUFACTURE SHOWN ABOVE.`,
  ];
}

/** The tyre placard beside the label: sizes and pressures in kPa and PSI. */
function tyrePlacard(rng: Rng, x: number, y: number): string {
  const [w, h] = [120, 78];
  const front = integer(rng, 220, 260);
  const rear = integer(rng, 200, front);
  const psi = (kpa: number) => Math.round(kpa / 6.895);
  const size = `${pickOne(rng, ['205/55R16 91V', '225/45R17 94W', '215/60R16 95H', '235/65R17 104H'])}`;
  const lines = [
    ['TIRE AND LOADING INFORMATION', 4.2, FONTS.bold],
    [`SEATING CAPACITY  TOTAL ${integer(rng, 4, 7)}  FRONT 2  REAR ${integer(rng, 2, 5)}`, 2.6, FONTS.sans],
    [`FRONT  ${size}   ${front} kPa, ${psi(front)} PSI`, 3, FONTS.sans],
    [`REAR   ${size}   ${rear} kPa, ${psi(rear)} PSI`, 3, FONTS.sans],
    [`SPARE  T125/70D17   420 kPa, 60 PSI`, 3, FONTS.sans],
  ] as const;
  return (
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="3" fill="#f5f2e8" stroke="#8d8a80" stroke-width="0.6"/>` +
    `<rect x="${x}" y="${y}" width="${w}" height="11" rx="3" fill="#f2c230"/>` +
    lines
      .map(([content, cap, font], i) =>
        fittedText(content, x + 4, y + 8 + i * 14 + (i > 0 ? 4 : 0), cap, w - 8, { font, fill: '#1a1a1a' }),
      )
      .join('')
  );
}

/**
 * A door pillar (B-pillar, door open) with the maker's label on it: painted metal, the door's rubber
 * seal, the lock striker with its bolts, plugs; the tyre placard below the label on some. The scene is
 * 1000x800 mm, the label about 115 mm wide near its middle.
 */
export function stickerScene(vin: string, maker: Maker, rng: Rng): Sticker {
  const [W, H] = [1000, 800];
  const paint = pickOne(rng, BODY_PAINTS);
  const colours = pickOne(rng, STICKER_COLOURS);
  const [lw, lh] = [integer(rng, 108, 122), integer(rng, 62, 76)];
  const lx = integer(rng, 420, 470);
  const ly = integer(rng, 300, 340);
  const ink = colours.ink;
  const capHeight = 5.4;
  const pitch = 0.602 / 0.729;
  // The VIN in a bold monospaced face, its row fitted to the label.
  const rowWidth = 17 * pitch * capHeight;
  const vinLabel = rng() < 0.75;
  const vinX = lx + (vinLabel ? 19 : (lw - rowWidth) / 2);
  const vinY = ly + lh * (maker.european ? 0.66 : 0.6);
  const withBarcode = rng() < 0.65;
  const lines = labelLines(rng, maker);
  const small = maker.european ? 2.6 : 2.3;
  const body: string[] = [
    `<defs><linearGradient id="paint" x1="0" y1="0" x2="1" y2="0.3"><stop offset="0" stop-color="${paint}"/>` +
      `<stop offset="0.5" stop-color="${paint}" stop-opacity="0.85"/><stop offset="1" stop-color="${paint}"/></linearGradient>` +
      `<linearGradient id="foil" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c9ccd0"/><stop offset="0.45" stop-color="#eef0f2"/>` +
      `<stop offset="0.6" stop-color="#b4b8bd"/><stop offset="1" stop-color="#d8dbde"/></linearGradient></defs>`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#111"/>`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="url(#paint)"/>`,
    // The pillar's edge and the door opening's shadow.
    `<rect x="${W - 170}" y="0" width="170" height="${H}" fill="#000" opacity="0.35"/>`,
    `<rect x="${W - 190}" y="0" width="20" height="${H}" fill="#fff" opacity="0.18"/>`,
    // The rubber seal along the opening.
    `<rect x="60" y="-20" width="52" height="${H + 40}" rx="24" fill="#121212"/>`,
    `<rect x="70" y="-20" width="8" height="${H + 40}" fill="#2c2c2c"/>`,
    // The striker: a plate, a loop and two bolts.
    `<rect x="660" y="420" width="90" height="150" rx="10" fill="#8e9296" stroke="#55595d" stroke-width="3"/>`,
    `<rect x="688" y="470" width="34" height="50" rx="12" fill="none" stroke="#3e4245" stroke-width="9"/>`,
    ...[445, 545].map(
      (cy) =>
        `<circle cx="705" cy="${cy}" r="12" fill="#6d7175" stroke="#3a3d40" stroke-width="2"/>` +
        `<circle cx="705" cy="${cy}" r="5" fill="#2a2c2e"/>`,
    ),
    // Plugs in the sheet metal.
    ...[
      [220, 140],
      [260, 650],
      [580, 90],
    ].map(([cx, cy]) => `<ellipse cx="${cx}" cy="${cy}" rx="16" ry="14" fill="#151515"/>`),
    // The label, its shadow and edge.
    `<rect x="${lx + 1.5}" y="${ly + 1.5}" width="${lw}" height="${lh}" rx="3" fill="#000" opacity="0.25"/>`,
    `<rect x="${lx}" y="${ly}" width="${lw}" height="${lh}" rx="3" fill="${colours.paper}" stroke="${colours.edge}" stroke-width="0.5"/>`,
    fittedText(
      maker.european ? maker.name : `MFD. BY: ${maker.name}`,
      lx + 4,
      ly + 7,
      maker.european ? 4 : 3,
      lw - 8,
      {
        font: FONTS.bold,
        fill: ink,
      },
    ),
    ...lines.map((line, i) =>
      // European labels: the approval and the weights in a column; North American: lines across.
      fittedText(line, lx + 4, ly + 13 + i * (small + 1.8), small, lw - 8, { font: FONTS.sans, fill: ink }),
    ),
  ];
  if (vinLabel) body.push(text('VIN', lx + 4, vinY, 3.6, { font: FONTS.bold, fill: ink }));
  body.push(
    `<text x="${n(vinX)}" y="${n(vinY)}" font-size="${n(capHeight / 0.729)}" ${FONTS.monoBold} fill="${ink}">${vin}</text>`,
  );
  if (withBarcode) body.push(barcode(vin, vinX, vinY + 2.2, Math.min(rowWidth, lw - 24), 8, ink));
  body.push(
    text(
      maker.european
        ? `MADE IN ${pickOne(rng, ['GERMANY', 'SPAIN', 'FRANCE', 'ITALY', 'UK'])}`
        : `TYPE: ${pickOne(rng, ['PASS. CAR', 'MPV', 'TRUCK'])}`,
      lx + 4,
      ly + lh - 3,
      2.4,
      { font: FONTS.sans, fill: ink },
    ),
  );
  if (rng() < 0.6) body.push(tyrePlacard(rng, lx - integer(rng, 0, 10), ly + lh + integer(rng, 14, 30)));
  // Painted metal all around, so that a camera seeing past the pillar sees no mirror image of it.
  return padScene(
    {
      drawing: { body: body.join(''), width: W, height: H, focus: { x: lx, y: ly, width: lw, height: lh } },
      label: { x: lx, y: ly, width: lw, height: lh },
      glyphs: { capHeight, pitch: pitch * capHeight },
    },
    600,
    paint,
  );
}

// ---------------------------------------------------------------------------------------------------
// The plate under the windshield

/** Scattered specks over the dashboard: dust and grain. */
function specks(rng: Rng, width: number, height: number): string {
  return Array.from({ length: 1500 }, () => {
    const [x, y] = [rng() * width, rng() * height];
    return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(0.2 + rng() * 0.4)}" fill="${rng() < 0.5 ? '#333438' : '#0a0a0b'}"/>`;
  }).join('');
}

/**
 * The dashboard's top under the windshield's lower corner with the VIN plate on it: a dark metal strip,
 * riveted, the characters pressed out of it (light, with a highlight above and a shadow below), the
 * windshield's black dotted edge over one side. The scene is 600x450 mm; the focus is the strip.
 */
export function windshieldScene(vin: string, rng: Rng): Sticker {
  const [W, H] = [600, 450];
  const [sw, sh] = [integer(rng, 128, 142), integer(rng, 15, 18)];
  const sx = W / 2 - sw / 2 + integer(rng, -20, 20);
  const sy = H / 2 - sh / 2 + integer(rng, -10, 20);
  const plate = pickOne(rng, ['#151618', '#26282b', '#33353a']);
  const ink = pickOne(rng, ['#d6d6d2', '#c4c6c8', '#e6e4dc']);
  const capHeight = 4.8;
  const row = (dx: number, dy: number, fill: string) => rowOf(dx, dy, fill).svg;
  const rowOf = (dx: number, dy: number, fill: string) =>
    glyphRow(vin, {
      centreX: sx + sw / 2 + dx,
      baseline: sy + sh / 2 + capHeight / 2 + dy,
      maxWidth: sw - 18,
      capHeight,
      font: FONTS.condensedBold,
      fill,
      pitch: 0.88,
    });
  // Halftone dots of the windshield's frit, fading away from its edge (the scene's left).
  const dots: string[] = [];
  for (let column = 0; column < 12; column++)
    for (let y = 4; y < H; y += 7) {
      const r = 3.2 * (1 - column / 12);
      if (r > 0.4)
        dots.push(`<circle cx="${n(44 + column * 7)}" cy="${y + (column % 2) * 3.5}" r="${n(r)}"/>`);
    }
  const body =
    `<defs><linearGradient id="dash" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#121314"/>` +
    `<stop offset="0.4" stop-color="#232427"/><stop offset="1" stop-color="#121314"/></linearGradient>` +
    `<linearGradient id="sheen" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/>` +
    `<stop offset="0.45" stop-color="#fff" stop-opacity="0.1"/><stop offset="0.55" stop-color="#fff" stop-opacity="0"/></linearGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#dash)"/>` +
    // Dust and the plastic's grain in light and dark specks (a pattern would take librsvg minutes).
    specks(rng, W, H) +
    // The defroster vent's slots above, and the A-pillar's trim and the frit on the left.
    Array.from(
      { length: 6 },
      (_, i) => `<rect x="${140 + i * 60}" y="40" width="44" height="10" rx="4" fill="#050505"/>`,
    ).join('') +
    `<rect x="0" y="0" width="44" height="${H}" fill="#050505"/><g fill="#050505">${dots.join('')}</g>` +
    `<rect x="${sx - 1}" y="${sy + 1.2}" width="${sw + 2}" height="${sh}" rx="2" fill="#000" opacity="0.6"/>` +
    `<rect x="${sx}" y="${sy}" width="${sw}" height="${sh}" rx="2" fill="${plate}" stroke="#4a4c50" stroke-width="0.5"/>` +
    `<rect x="${sx}" y="${sy}" width="${sw}" height="${sh}" rx="2" fill="url(#sheen)"/>` +
    [sx + 4.5, sx + sw - 4.5]
      .map(
        (cx) =>
          `<circle cx="${cx}" cy="${sy + sh / 2}" r="2.2" fill="#a9acb0" stroke="#55585c" stroke-width="0.5"/>`,
      )
      .join('') +
    row(0.25, 0.3, '#000000') +
    row(-0.18, -0.2, '#8d9094') +
    row(0, 0, ink);
  return padScene(
    {
      drawing: { body, width: W, height: H, focus: { x: sx, y: sy, width: sw, height: sh } },
      label: { x: sx, y: sy, width: sw, height: sh },
      glyphs: rowOf(0, 0, ink).glyphs,
    },
    600,
    '#121314',
  );
}
