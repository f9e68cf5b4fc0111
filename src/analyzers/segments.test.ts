import { describe, expect, it } from 'vitest';
import type { RecognisedLine, RgbImage } from './ocr/types.js';
import { checkSegments, readSegments } from './segments.js';

const LIT: Record<string, string> = {
  ' ': '',
  '1': 'bc',
  '2': 'abdeg',
  '4': 'bcfg',
  '5': 'acdfg',
  '7': 'abc',
  '8': 'abcdefg',
  // A 6 whose bottom segment glare dimmed or the crop cut off: no digit.
  x: 'acefg',
};

interface Display {
  digits: string;
  /** Grey levels of the ground, the lit segments and the unlit ones. */
  ground: number;
  on: number;
  off: number;
  /** Horizontal shift per row up the digit (a display leaning right). */
  slant?: number;
  /** From one cell to the next, in pixels (cells are 15 px wide). */
  pitch?: number;
}

/** A 48 px high line crop of a seven-segment display: 30 px digits, 15 px wide, a cell every 20 px. */
function display({ digits, ground, on, off, slant = 0.1, pitch = 20 }: Display): {
  crop: RgbImage;
  centres: number[];
} {
  const [height, top, digitHeight, cellWidth, left, t] = [48, 9, 30, 15, 10, 3];
  const width = left * 2 + pitch * digits.length;
  const data = new Uint8Array(width * height * 3).fill(ground);
  const bars: Record<string, [u0: number, u1: number, v0: number, v1: number]> = {
    a: [t, cellWidth - t, 0, t],
    b: [cellWidth - t, cellWidth, t, digitHeight / 2 - 1],
    c: [cellWidth - t, cellWidth, digitHeight / 2 + 1, digitHeight - t],
    d: [t, cellWidth - t, digitHeight - t, digitHeight],
    e: [0, t, digitHeight / 2 + 1, digitHeight - t],
    f: [0, t, t, digitHeight / 2 - 1],
    g: [t, cellWidth - t, digitHeight / 2 - 1, digitHeight / 2 + 2],
  };
  [...digits].forEach((digit, i) => {
    for (const [segment, [u0, u1, v0, v1]] of Object.entries(bars)) {
      const level = LIT[digit]!.includes(segment) ? on : off;
      for (let v = v0; v < v1; v++) {
        const x0 = left + i * pitch + Math.round(slant * (digitHeight / 2 - v));
        for (let u = u0; u < u1; u++)
          data.fill(level, ((top + v) * width + x0 + u) * 3, ((top + v) * width + x0 + u) * 3 + 3);
      }
    }
  });
  const centres = [...digits].map((_, i) => (left + i * pitch + cellWidth / 2) / width);
  return { crop: { data, width, height }, centres };
}

const read = (text: string, centres: number[], confidence = 0.95): RecognisedLine => ({
  text,
  confidence,
  chars: [...text].map((char, i) => ({ char, confidence, x: centres[i] ?? 0.99 })),
});

describe('seven-segment check', () => {
  it('reads each cell of a display with faint unlit segments, light on dark or dark on light', () => {
    const dark = display({ digits: '2517', ground: 10, on: 200, off: 40 });
    expect(readSegments(dark.crop, dark.centres)?.map((cell) => cell.digit)).toEqual(['2', '5', '1', '7']);
    const light = display({ digits: '84', ground: 190, on: 30, off: 160, slant: 0 });
    expect(readSegments(light.crop, light.centres)?.map((cell) => cell.digit)).toEqual(['8', '4']);
  });

  it('takes the digit the lit segments show where the faint ones were read as lit', () => {
    const { crop, centres } = display({ digits: '251', ground: 10, on: 200, off: 40 });
    const { line: checked, shown } = checkSegments(crop, read('258 km', centres, 0.6));
    expect(checked.text).toBe('251 km');
    // The digits the segments show are sure; the unit's letters are as read.
    expect(checked.chars.map((c) => c.confidence)).toEqual([0.9, 0.9, 0.9, 0.6, 0.6, 0.6]);
    expect(shown).toBe(true);
  });

  it('leaves the line as read where the segments show a digit otherwise than with fewer lit', () => {
    // A 7 (abc) read as 1 (bc): the display lights a segment the reading lacks; no faint ones explain it.
    const { crop, centres } = display({ digits: '27', ground: 10, on: 200, off: 40 });
    const line = read('21', centres);
    expect(checkSegments(crop, line)).toEqual({ line, shown: false });
  });

  it('judges nothing without clear seven-segment cells', () => {
    // Lit and unlit too alike: no clear split.
    const dim = display({ digits: '251', ground: 10, on: 200, off: 150 });
    expect(readSegments(dim.crop, dim.centres)).toBeUndefined();
    // Cells whose holes are lit too: a drum's face, a font's stroke, no seven-segment display.
    const drums = display({ digits: '251', ground: 10, on: 200, off: 40 });
    for (let y = 0; y < 48; y++)
      for (let x = 0; x < drums.crop.width; x++)
        if ((x - 10) % 20 >= 4 && (x - 10) % 20 < 11 && y >= 15 && y <= 35)
          drums.crop.data.fill(200, (y * drums.crop.width + x) * 3, (y * drums.crop.width + x) * 3 + 3);
    expect(readSegments(drums.crop, drums.centres)).toBeUndefined();
    // A flat crop, and one figure digit alone.
    const flat: RgbImage = { data: new Uint8Array(100 * 48 * 3).fill(90), width: 100, height: 48 };
    expect(readSegments(flat, [0.3, 0.5, 0.7])).toBeUndefined();
    const { crop, centres } = display({ digits: '251', ground: 10, on: 200, off: 40 });
    const line = read('2 km', centres);
    expect(checkSegments(crop, line)).toEqual({ line, shown: false });
  });

  it('reads a figure whose first cell is joined to the faint unlit digit before it', () => {
    // An unlit cell, then 2517, 3 px apart; the crop begins inside the unlit cell, whose 6 px left make
    // one piece of ink with the 2.
    const cutInside = (digits: string) => {
      const { crop, centres } = display({ digits, ground: 10, on: 200, off: 40, slant: 0, pitch: 18 });
      const skip = 19;
      const width = crop.width - skip;
      const data = new Uint8Array(width * crop.height * 3);
      for (let y = 0; y < crop.height; y++)
        data.set(crop.data.subarray((y * crop.width + skip) * 3, (y + 1) * crop.width * 3), y * width * 3);
      const shifted = centres.slice(1).map((c) => (c * crop.width - skip) / width);
      return { crop: { data, width, height: crop.height }, centres: shifted };
    };
    const ghost = cutInside(' 2517');
    expect(readSegments(ghost.crop, ghost.centres)?.map((cell) => cell.digit)).toEqual(['2', '5', '1', '7']);
    // Lit segments left of the first cell's digit: something else than a display's unlit digit.
    const lit = cutInside('82517');
    expect(readSegments(lit.crop, lit.centres)).toBeUndefined();
  });

  it("leaves out the display's unused places before the figure, their unlit segments read as 8s", () => {
    const { crop, centres } = display({ digits: '  751', ground: 10, on: 200, off: 40 });
    const { line: checked, shown } = checkSegments(crop, read('88751 km', centres));
    expect(checked.text).toBe('751 km');
    expect(checked.chars.map((c) => c.x)).toEqual(centres.slice(2).concat([0.99, 0.99, 0.99]));
    expect(shown).toBe(true);
    // Nothing lit in the figure at all: no reading of the segments.
    const dark = display({ digits: '   ', ground: 10, on: 200, off: 40 });
    const unlit = read('888', dark.centres);
    expect(checkSegments(dark.crop, unlit)).toEqual({ line: unlit, shown: false });
  });

  it('leaves out unused places read as 8s though a later cell shows no digit, the rest as read', () => {
    const { crop, centres } = display({ digits: '  75x', ground: 10, on: 200, off: 40 });
    const { line: checked, shown } = checkSegments(crop, read('88756 km', centres));
    expect(checked.text).toBe('756 km');
    expect(checked.chars.map((c) => c.confidence)).toEqual(Array<number>(6).fill(0.95));
    expect(shown).toBe(false);
    // Unused places read otherwise than as 8s: the line is left as read.
    const other = read('18756 km', centres);
    expect(checkSegments(crop, other)).toEqual({ line: other, shown: false });
  });

  it('says the segments showed the line only when its figure is all its digits', () => {
    const { crop, centres } = display({ digits: '2517', ground: 10, on: 200, off: 40 });
    expect(checkSegments(crop, read('2517 km', centres)).shown).toBe(true);
    const spaced = read('12 2517 km', [0.01, 0.02, 0.03, ...centres]);
    expect(checkSegments(crop, spaced).shown).toBe(false);
  });
});
