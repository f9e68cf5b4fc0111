// The odometer from recognised text on a photo of the dashboard: the total distance, never a trip meter.
// A number of 4 to 7 digits (2 or more beside a unit or an ODO label), thousands separated or not, a
// drum counter's digits apart or together, alone on its line but for its label and unit; the unit when
// one is written on the line or in a box of its own just beside or under it. Trip meters give
// themselves away by their label (TRIP, A, B) or their tenths (`123.4`); clocks, speeds, temperatures
// and fuel figures by their marks; plates, VINs and part numbers by the letters around their digits.
import { AS_DIGIT } from './look-alikes.js';
import type { ReadLine } from './text-lines.js';

export interface OdometerMatch {
  value: number;
  unit: 'km' | 'mi' | null;
  confidence: number;
  box: ReadLine['box'];
}

/** Lines of something else than the total distance. */
const NOT_ODOMETER = /TRIP|TRP|RANGE|AVG|AVERAGE|KM\/H|MPH|L\/100|MPG|°|:\d\d|\bTEMP|FUEL|RPM|\bECO\b/;
/** A trip meter's own label: A or B alone before the number. */
const TRIP_LABEL = /(^|\s)[AB]\s*\d/;
/** The words that may stand beside the odometer's figure: its label (ODO, read 0D0 at times) or TOTAL. */
const LABEL = /(?<![A-Z0-9])([O0][D0][O0]|TOTAL)(?![A-Z0-9])/;
const UNIT = /(?<![A-Z])(KM|MI|MILES)(?![A-Z])/;
/** A line that is only a unit (the display's unit in a box of its own). */
const UNIT_ONLY = /^\s*(KM|MI|MILES)\s*$/;

const unitOf = (word: string): 'km' | 'mi' => (word === 'KM' ? 'km' : 'mi');

/** The line's text with look-alike letters inside number-like tokens read as digits. */
function asDigits(text: string): string {
  return text.replace(/[A-Z0-9]+/g, (token) => {
    const digits = (token.match(/[0-9]/g) ?? []).length;
    if (digits * 2 < token.length) return token; // a word, not a number read badly
    return [...token].map((char) => AS_DIGIT[char] ?? char).join('');
  });
}

/**
 * The number a line holds alone, or undefined: thousands groups joined (`123 456`, `123,456`), a drum's
 * spaced digits joined; none when anything else is left on the line, or the number has tenths.
 */
function loneNumber(text: string): string | undefined {
  if (/^\s*\d(?:\s\d){2,6}\s*$/.test(text)) return text.replace(/[^0-9]/g, '');
  const match = /^\s*(\d{1,3}(?:[ ,.'’]\d{3})+|\d+)\s*$/.exec(text);
  return match?.[1]!.replace(/[^0-9]/g, '');
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);

/** The unit of a box of its own right of the line on its row, or just under it. */
function unitBeside(line: ReadLine, lines: readonly ReadLine[]): 'km' | 'mi' | null {
  const { box } = line;
  for (const other of lines) {
    const word = UNIT_ONLY.exec(other.text.toUpperCase());
    if (other === line || !word) continue;
    const o = other.box;
    const sameRow =
      overlap(box.y, box.y + box.height, o.y, o.y + o.height) > 0.5 * Math.min(box.height, o.height) &&
      o.x >= box.x + box.width - 0.5 * box.height &&
      o.x - (box.x + box.width) < 2 * box.height;
    const under =
      overlap(box.x, box.x + box.width, o.x, o.x + o.width) > 0 &&
      o.y >= box.y + 0.5 * box.height &&
      o.y - (box.y + box.height) < box.height;
    if (sameRow || under) return unitOf(word[1]!);
  }
  return null;
}

/**
 * The odometer among the lines, or undefined. Likelier: a unit or a label, more digits, a taller line
 * (the odometer is the main figure of its display), then the reader's confidence.
 */
export function matchOdometer(lines: readonly ReadLine[]): OdometerMatch | undefined {
  let best: (OdometerMatch & { score: number }) | undefined;
  for (const line of lines) {
    const raw = line.text.toUpperCase();
    if (NOT_ODOMETER.test(raw) || TRIP_LABEL.test(asDigits(raw))) continue;
    const label = LABEL.test(raw);
    const unitWord = UNIT.exec(raw.replace(LABEL, ' '));
    const digits = loneNumber(asDigits(raw.replace(LABEL, ' ').replace(UNIT, ' ')));
    if (digits === undefined) continue;
    const unit = unitWord ? unitOf(unitWord[1]!) : unitBeside(line, lines);
    if (digits.length > 7 || digits.length < (unit || label ? 2 : 4)) continue;
    const score =
      (unit ? 2 : 0) + (label ? 2 : 0) + digits.length * 0.3 + line.box.height * 10 + line.confidence;
    if (best && best.score >= score) continue;
    best = { value: Number(digits), unit, confidence: line.confidence, box: line.box, score };
  }
  if (!best) return undefined;
  const { score: _score, ...match } = best;
  return match;
}

/** A reading within the tolerance of the expected value: 500, or 2 % of it when that is more. */
export function odometerMatches(read: number, expected: number): boolean {
  return Math.abs(read - expected) <= Math.max(500, expected * 0.02);
}
