// The odometer from recognised text on a photo of the dashboard: the total distance, never a trip meter.
// A number of 3 to 7 digits (thousands separated or not, a drum counter's digits apart or together),
// with its unit when one is written beside it. Trip meters give themselves away by their label (TRIP,
// A, B) or their tenths (`123.4`); clocks, speeds, temperatures and fuel figures by their marks.

/** A line of recognised text, where it lies (fractions of the image), and how sure the reader was. */
export interface ReadLine {
  text: string;
  confidence: number;
  box: { x: number; y: number; width: number; height: number };
}

export interface OdometerMatch {
  value: number;
  unit: 'km' | 'mi' | null;
  confidence: number;
  box: ReadLine['box'];
}

/** Seven-segment and drum digits that OCR reads as letters, in a token that is otherwise a number. */
const DIGIT_LOOK_ALIKES: Readonly<Record<string, string>> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  L: '1',
  S: '5',
  B: '8',
  Z: '2',
  G: '6',
};

/** Lines of something else than the total distance. */
const NOT_ODOMETER = /TRIP|TRP|RANGE|AVG|AVERAGE|KM\/H|MPH|L\/100|MPG|°|:\d\d|\bTEMP|FUEL|RPM|\bECO\b/;
/** A trip meter's own label: A or B alone before the number. */
const TRIP_LABEL = /(^|\s)[AB]\s*\d/;
const UNIT = /\b(KM|MI|MILES)\b/;
const ODO_LABEL = /\bODO/;

/** The line's text with look-alike letters inside number-like tokens read as digits. */
function asDigits(text: string): string {
  return text.toUpperCase().replace(/[A-Z0-9]+/g, (token) => {
    const digits = (token.match(/[0-9]/g) ?? []).length;
    if (digits * 2 < token.length) return token; // a word, not a number read badly
    return [...token].map((char) => DIGIT_LOOK_ALIKES[char] ?? char).join('');
  });
}

/** The numbers of a line: thousands groups joined (`123 456`, `123,456`), a drum's spaced digits joined. */
function numbersOf(text: string): { digits: string; decimal: boolean }[] {
  const spaced = /^\s*\d(?:\s\d){2,6}\s*(KM|MI)?\s*$/.test(text);
  if (spaced) return [{ digits: text.replace(/[^0-9]/g, ''), decimal: false }];
  const found: { digits: string; decimal: boolean }[] = [];
  for (const match of text.matchAll(/\d{1,3}(?:[ ,.'’]\d{3})+(?![0-9])|\d+(?:[.,]\d)?/g)) {
    const token = match[0];
    const decimal = /[.,]\d$/.test(token) && !/[ ,.'’]\d{3}$/.test(token);
    found.push({ digits: token.replace(/[^0-9]/g, '').slice(0, decimal ? -1 : undefined), decimal });
  }
  return found;
}

/**
 * The odometer among the lines, or undefined: the most likely number of 3 to 7 digits that is no trip
 * meter, clock or other figure. Likelier: a unit or an ODO label on its line, more digits, a taller line
 * (the odometer is the main figure of its display), then the reader's confidence.
 */
export function matchOdometer(lines: readonly ReadLine[]): OdometerMatch | undefined {
  let best: (OdometerMatch & { score: number }) | undefined;
  for (const line of lines) {
    const text = asDigits(line.text);
    if (NOT_ODOMETER.test(text) || TRIP_LABEL.test(text)) continue;
    const unitMatch = UNIT.exec(text);
    const unit = unitMatch ? (unitMatch[1] === 'KM' ? 'km' : 'mi') : null;
    for (const number of numbersOf(text)) {
      if (number.decimal || number.digits.length < 3 || number.digits.length > 7) continue;
      const score =
        (unit ? 2 : 0) +
        (ODO_LABEL.test(text) ? 2 : 0) +
        number.digits.length * 0.3 +
        line.box.height * 10 +
        line.confidence;
      if (best && best.score >= score) continue;
      best = { value: Number(number.digits), unit, confidence: line.confidence, box: line.box, score };
    }
  }
  if (!best) return undefined;
  const { score: _score, ...match } = best;
  return match;
}

/** A reading within the tolerance of the expected value: 500, or 2 % of it when that is more. */
export function odometerMatches(read: number, expected: number): boolean {
  return Math.abs(read - expected) <= Math.max(500, expected * 0.02);
}
