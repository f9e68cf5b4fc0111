// SVG building blocks of the reading set's renderings (plates, VIN labels, dashboards): text laid out a
// glyph at a time (librsvg honours neither `textLength` nor per-glyph `x` lists), seven-segment digits
// as polygons, dot-matrix text, barcodes. Everything is drawn in the drawing's own units;
// reading-render.ts rasterises it at the size a photo needs.
import { hash32, random } from './reading-random.js';

/** Something drawn: SVG elements in its own units, and the part of it a sample's size refers to. */
export interface Drawing {
  /** SVG elements (no root), in design units, within 0..width x 0..height. */
  body: string;
  width: number;
  height: number;
  /**
   * The text to read (a plate: the whole plate), in design units: a sample's size is this box's width as
   * a fraction of the image width, and its centre is what the sample places.
   */
  focus: Box;
  /** The characters to read: their capital height and the distance between them, in design units. */
  glyphs?: Glyphs;
}

export interface Glyphs {
  capHeight: number;
  pitch: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const escapeXml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The part `view` of a drawing as a standalone SVG document, `pixelWidth` pixels wide. */
export function svgDocument(drawing: Drawing, view: Box, pixelWidth: number): string {
  const pixelHeight = Math.max(1, Math.round((pixelWidth * view.height) / view.width));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(pixelWidth)}" height="${pixelHeight}" ` +
    `viewBox="${n(view.x)} ${n(view.y)} ${n(view.width)} ${n(view.height)}" preserveAspectRatio="none">` +
    `${drawing.body}</svg>`
  );
}

/**
 * The drawing with `pad` units of `fill` all around (its focus moved with it): room for a camera that
 * sees past its edges, where a renderer would otherwise mirror it (and mirror its text).
 */
export function padded(drawing: Drawing, pad: number, fill: string): Drawing {
  return {
    body:
      `<rect x="0" y="0" width="${n(drawing.width + 2 * pad)}" height="${n(drawing.height + 2 * pad)}" fill="${fill}"/>` +
      `<g transform="translate(${n(pad)} ${n(pad)})">${drawing.body}</g>`,
    width: drawing.width + 2 * pad,
    height: drawing.height + 2 * pad,
    focus: { ...drawing.focus, x: drawing.focus.x + pad, y: drawing.focus.y + pad },
  };
}

/** A number written short in SVG. */
export const n = (value: number): string => String(Math.round(value * 100) / 100);

// ---------------------------------------------------------------------------------------------------
// Text

/** DejaVu's capital height, as a fraction of the font size. */
export const CAP_HEIGHT = 0.729;

export const FONTS = {
  /** The look of most plate typefaces: narrow and bold. */
  condensedBold: 'font-family="DejaVu Sans" font-stretch="condensed" font-weight="bold"',
  condensed: 'font-family="DejaVu Sans" font-stretch="condensed"',
  bold: 'font-family="DejaVu Sans" font-weight="bold"',
  sans: 'font-family="DejaVu Sans"',
  monoBold: 'font-family="DejaVu Sans Mono" font-weight="bold"',
  mono: 'font-family="DejaVu Sans Mono"',
} as const;

/** A line of text at a capital height, anchored as SVG anchors it. */
export function text(
  content: string,
  x: number,
  baseline: number,
  capHeight: number,
  options: { font?: string; fill?: string; anchor?: 'start' | 'middle' | 'end'; extra?: string } = {},
): string {
  const { font = FONTS.sans, fill = '#111', anchor = 'start', extra = '' } = options;
  return (
    `<text x="${n(x)}" y="${n(baseline)}" font-size="${n(capHeight / CAP_HEIGHT)}" ${font} fill="${fill}" ` +
    `text-anchor="${anchor}" ${extra}>${escapeXml(content)}</text>`
  );
}

/** Width of `content` in DejaVu Sans (bold a little wider), estimated per kind of character, per cap height. */
export function textWidth(content: string, bold = false): number {
  const em = [...content].reduce((sum, c) => {
    if (c === ' ' || c === '.' || c === ',' || c === ':' || c === 'I' || c === 'i' || c === 'l')
      return sum + 0.32;
    if (/[0-9]/.test(c)) return sum + 0.64;
    if (/[A-Z]/.test(c)) return sum + 0.7;
    if (/[a-z]/.test(c)) return sum + 0.6;
    return sum + 0.5;
  }, 0);
  return (em / CAP_HEIGHT) * (bold ? 1.1 : 1);
}

/** A line of text no wider than `maxWidth`: its capital height lowered when it would be wider. */
export function fittedText(
  content: string,
  x: number,
  baseline: number,
  capHeight: number,
  maxWidth: number,
  options: { font?: string; fill?: string; anchor?: 'start' | 'middle' | 'end' } = {},
): string {
  const bold = (options.font ?? FONTS.sans).includes('bold');
  const width = textWidth(content, bold) * capHeight;
  return text(content, x, baseline, width > maxWidth ? (capHeight * maxWidth) / width : capHeight, options);
}

export interface RowOptions {
  /** Centre of the row, and its baseline. */
  centreX: number;
  baseline: number;
  /** Widest the row may be: it is narrowed (glyphs and pitch alike) to fit. */
  maxWidth: number;
  capHeight: number;
  font: string;
  fill: string;
  /** Distance between glyph centres, as a fraction of the font size (DejaVu Condensed Bold: about 0.6). */
  pitch?: number;
  /** Width of a space, in pitches. */
  space?: number;
  /** What a `|` in the text stands for: drawn by the caller in the room given, in pitches. */
  special?: { width: number; draw: (centreX: number, pitch: number) => string };
}

/**
 * Ink widths (em) of the capitals and digits of DejaVu Sans Bold and its condensed face, measured with
 * librsvg (the glyph's inked extent at font size 1000): what a cell must hold for the glyph not to run
 * into its neighbours.
 */
const INK_WIDTHS: Readonly<Record<'condensedBold' | 'bold', string>> = {
  condensedBold:
    'A69 B54 C56 D62 E47 F46 G63 H59 I17 J30 K64 L47 M73 N59 O68 P54 Q68 R59 S52 T60 U57 V69 W94 X66 Y67 ' +
    'Z57 054 146 248 349 455 549 652 749 852 952',
  bold:
    'A76 B60 C62 D69 E52 F51 G70 H66 I19 J34 K71 L52 M81 N66 O75 P60 Q75 R66 S58 T67 U63 V76 W104 X73 Y74 ' +
    'Z64 060 152 253 355 461 555 658 755 857 958',
};
/** The height of DejaVu Sans Bold's J (cap height and hook, 0.930 em) brought to the cap height. */
const J_SQUASH = 0.729 / 0.93;
const inkTable = (entries: string): ReadonlyMap<string, number> =>
  new Map(entries.split(' ').map((entry) => [entry[0]!, Number(entry.slice(1)) / 100]));
const INK = {
  [FONTS.condensedBold]: inkTable(INK_WIDTHS.condensedBold),
  [FONTS.bold]: inkTable(INK_WIDTHS.bold),
} as Readonly<Record<string, ReadonlyMap<string, number>>>;

/**
 * A row of glyphs at an even pitch, as plate characters are printed: each glyph centred in its cell
 * (narrowed when its ink is wider than the cell, as plate typefaces have narrow M and W), a space as a
 * gap, `|` as the caller's drawing (German seals, a US state emblem). Gives the elements and the box
 * the row covers.
 */
export function glyphRow(content: string, options: RowOptions): { svg: string; box: Box; glyphs: Glyphs } {
  const fontSize = options.capHeight / CAP_HEIGHT;
  const pitchEm = options.pitch ?? 0.6;
  const cells = [...content].map((char) =>
    char === ' ' ? (options.space ?? 0.55) : char === '|' ? (options.special?.width ?? 1) : 1,
  );
  const natural = cells.reduce((sum, cell) => sum + cell, 0) * pitchEm * fontSize;
  const squeeze = Math.min(1, options.maxWidth / natural);
  const pitch = pitchEm * fontSize * squeeze;
  const width = natural * squeeze;
  let x = options.centreX - width / 2;
  const parts: string[] = [];
  [...content].forEach((char, i) => {
    const cell = cells[i]! * pitch;
    const centre = x + cell / 2;
    if (char === '|' && options.special) parts.push(options.special.draw(centre, pitch));
    else if (char !== ' ') {
      const ink = (INK[options.font]?.get(char) ?? 0) * fontSize * squeeze;
      const fit = ink > pitch * 0.9 ? (pitch * 0.9) / ink : 1;
      // DejaVu's J hooks 0.2 em below the baseline; a plate's J stands on it like the other letters.
      const [lift, tall] =
        char === 'J' && INK[options.font] ? [0.201 * fontSize * J_SQUASH, J_SQUASH] : [0, 1];
      parts.push(
        `<text transform="translate(${n(centre)} ${n(options.baseline - lift)}) scale(${n(squeeze * fit)} ${n(tall)})" x="0" y="0" ` +
          `font-size="${n(fontSize)}" ${options.font} fill="${options.fill}" text-anchor="middle">${escapeXml(char)}</text>`,
      );
    }
    x += cell;
  });
  return {
    svg: parts.join(''),
    box: {
      x: options.centreX - width / 2,
      y: options.baseline - options.capHeight,
      width,
      height: options.capHeight,
    },
    glyphs: { capHeight: options.capHeight, pitch },
  };
}

/** The smaller of two sets of glyphs (a plate's code and number). */
export const smallerGlyphs = (a: Glyphs, b: Glyphs): Glyphs => ({
  capHeight: Math.min(a.capHeight, b.capHeight),
  pitch: Math.min(a.pitch, b.pitch),
});

// ---------------------------------------------------------------------------------------------------
// Seven-segment digits

/** Segments lit for each digit: a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle. */
const SEGMENTS: Readonly<Record<string, string>> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abged',
  '3': 'abgcd',
  '4': 'fgbc',
  '5': 'afgcd',
  '6': 'afgedc',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
  '-': 'g',
  ' ': '',
};

export interface SegmentStyle {
  on: string;
  /** Colour of the unlit segments (LCDs show them faintly); none when undefined. */
  off?: string;
  /** Stroke thickness as a fraction of the digit width. */
  thickness?: number;
  /** Slant in degrees (most displays lean right). */
  slant?: number;
}

/** One seven-segment digit in the box (x, y, width, height); a space draws only the unlit segments. */
export function sevenSegment(
  char: string,
  x: number,
  y: number,
  width: number,
  height: number,
  style: SegmentStyle,
): string {
  const t = width * (style.thickness ?? 0.18);
  const g = t * 0.14;
  const [l, r, top, mid, bottom] = [t / 2, width - t / 2, t / 2, height / 2, height - t / 2];
  const horizontal = (x1: number, x2: number, yy: number) =>
    [
      [x1, yy],
      [x1 + t / 2, yy - t / 2],
      [x2 - t / 2, yy - t / 2],
      [x2, yy],
      [x2 - t / 2, yy + t / 2],
      [x1 + t / 2, yy + t / 2],
    ] as const;
  const vertical = (xx: number, y1: number, y2: number) =>
    [
      [xx, y1],
      [xx + t / 2, y1 + t / 2],
      [xx + t / 2, y2 - t / 2],
      [xx, y2],
      [xx - t / 2, y2 - t / 2],
      [xx - t / 2, y1 + t / 2],
    ] as const;
  const shapes: Record<string, readonly (readonly [number, number])[]> = {
    a: horizontal(l + g, r - g, top),
    b: vertical(r, top + g, mid - g),
    c: vertical(r, mid + g, bottom - g),
    d: horizontal(l + g, r - g, bottom),
    e: vertical(l, mid + g, bottom - g),
    f: vertical(l, top + g, mid - g),
    g: horizontal(l + g, r - g, mid),
  };
  const lit = SEGMENTS[char] ?? '';
  const polygons = Object.entries(shapes)
    .map(([name, points]) => {
      const colour = lit.includes(name) ? style.on : style.off;
      if (colour === undefined) return '';
      return `<polygon points="${points.map(([px, py]) => `${n(px)},${n(py)}`).join(' ')}" fill="${colour}"/>`;
    })
    .join('');
  const slant = style.slant ?? 6;
  // The slant leans the top to the right around the digit's bottom edge.
  return `<g transform="translate(${n(x)} ${n(y)}) translate(0 ${n(height)}) skewX(${-slant}) translate(0 ${n(-height)})">${polygons}</g>`;
}

/**
 * A number in seven-segment digits, right-aligned in `places` cells (leading cells blank, their unlit
 * segments shown when the style has them); a `.` in `digits` lights the decimal point of the cell before.
 */
export function segmentNumber(
  digits: string,
  places: number,
  x: number,
  y: number,
  digitWidth: number,
  height: number,
  style: SegmentStyle,
): { svg: string; box: Box } {
  const pitch = digitWidth * 1.32;
  const chars = [...digits.replace('.', '')];
  const point = digits.indexOf('.');
  const cells = Array.from({ length: Math.max(places, chars.length) }, (_, i) => {
    const index = i - (Math.max(places, chars.length) - chars.length);
    return index >= 0 ? chars[index]! : ' ';
  });
  const parts = cells.map((char, i) => sevenSegment(char, x + i * pitch, y, digitWidth, height, style));
  if (point > 0) {
    const cell = cells.length - (chars.length - point) - 1;
    const dot = digitWidth * 0.26;
    parts.push(
      `<rect x="${n(x + cell * pitch + digitWidth + (pitch - digitWidth) / 2 - dot / 2)}" y="${n(y + height - dot)}" width="${n(dot)}" height="${n(dot)}" fill="${style.on}"/>`,
    );
  }
  const firstLit = Math.max(
    0,
    cells.findIndex((c) => c !== ' '),
  );
  return {
    svg: parts.join(''),
    box: {
      x: x + firstLit * pitch,
      y,
      width: (cells.length - firstLit - 1) * pitch + digitWidth,
      height,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Dot-matrix text

/** 5x7 glyphs, a row of five dots a number (bit 4 the leftmost), top row first, as LCD controllers draw. */
const DOT_GLYPHS: Readonly<Record<string, readonly number[]>> = {
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  A: [14, 17, 17, 17, 31, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [28, 18, 17, 17, 17, 18, 28],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 17, 10, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  e: [0, 0, 14, 17, 31, 16, 14],
  i: [4, 0, 12, 4, 4, 4, 14],
  k: [16, 16, 18, 20, 24, 20, 18],
  l: [12, 4, 4, 4, 4, 4, 14],
  m: [0, 0, 26, 21, 21, 17, 17],
  s: [0, 0, 14, 16, 14, 1, 30],
  '.': [0, 0, 0, 0, 0, 12, 12],
  ',': [0, 0, 0, 0, 12, 4, 8],
  ':': [0, 12, 12, 0, 12, 12, 0],
  '/': [0, 1, 2, 4, 8, 16, 0],
  '-': [0, 0, 0, 31, 0, 0, 0],
  '°': [12, 18, 18, 12, 0, 0, 0],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

/**
 * Text in 5x7 dots, `dot` apart, its top-left corner at (x, y): a glyph takes 6 dots' width (one blank
 * column), 7 high. Unlit dots are drawn in `off` when given, as LCD dot matrices show them faintly.
 */
export function dotText(
  content: string,
  x: number,
  y: number,
  dot: number,
  on: string,
  off?: string,
): { svg: string; box: Box } {
  const lit: string[] = [];
  const unlit: string[] = [];
  [...content].forEach((char, i) => {
    const rows = DOT_GLYPHS[char] ?? DOT_GLYPHS[char.toUpperCase()] ?? DOT_GLYPHS[' ']!;
    rows.forEach((bits, row) => {
      for (let column = 0; column < 5; column++) {
        const bit = (bits >> (4 - column)) & 1;
        const rect = `<rect x="${n(x + (i * 6 + column) * dot + dot * 0.08)}" y="${n(y + row * dot + dot * 0.08)}" width="${n(dot * 0.84)}" height="${n(dot * 0.84)}" rx="${n(dot * 0.2)}"/>`;
        (bit ? lit : unlit).push(rect);
      }
    });
  });
  const svg =
    (off === undefined ? '' : `<g fill="${off}">${unlit.join('')}</g>`) +
    `<g fill="${on}">${lit.join('')}</g>`;
  return { svg, box: { x, y, width: (content.length * 6 - 1) * dot, height: 7 * dot } };
}

// ---------------------------------------------------------------------------------------------------
// Barcodes and textures

/** A barcode-like pattern of bars (no real symbology), its widths derived from `seed`. */
export function barcode(
  seed: string,
  x: number,
  y: number,
  width: number,
  height: number,
  fill = '#111',
): string {
  const rng = random(hash32(`barcode:${seed}`));
  const modules: number[] = [];
  while (modules.reduce((sum, m) => sum + m, 0) < 160) modules.push(rng() < 0.3 ? 3 : 1);
  const total = modules.reduce((sum, m) => sum + m, 0);
  const unit = width / total;
  let at = x;
  const bars: string[] = [];
  modules.forEach((m, i) => {
    if (i % 2 === 0)
      bars.push(
        `<rect x="${n(at)}" y="${n(y)}" width="${n(m * unit)}" height="${n(height)}" fill="${fill}"/>`,
      );
    at += m * unit;
  });
  return bars.join('');
}

/** Points on a circle of radius `r` around (cx, cy), at `degrees` clockwise from 12 o'clock. */
export const onCircle = (cx: number, cy: number, r: number, degrees: number): [number, number] => {
  const a = (degrees * Math.PI) / 180;
  return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
};
