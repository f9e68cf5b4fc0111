// A VIN from recognised text (ISO 3779): 17 characters, never I, O or Q, and the check digit at position
// 9. OCR confuses look-alikes; when the check digit fails, each character that has a look-alike and that
// the recogniser was unsure of is tried as it, one at a time, and the VIN is taken only when exactly one
// such change makes the check digit hold (./look-alikes.ts). A VIN whose check digit fails is never
// reported as read, except where the maker uses none: a European maker (WMI starting S–Z) with a letter
// other than X at position 9 (VW, Audi, Škoda, SEAT, Mercedes-Benz, … put a filler such as Z there).
// Any other VIN must pass the check.
import { DOUBTFUL_BELOW } from './look-alikes.js';

// prettier-ignore
const TRANSLITERATION: Readonly<Record<string, number>> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

/** Characters OCR takes for one another, among those a VIN may hold (never I, O or Q). */
const LOOK_ALIKES: Readonly<Record<string, readonly string[]>> = {
  '0': ['D'],
  D: ['0'],
  '1': ['L'],
  L: ['1'],
  '5': ['S'],
  S: ['5'],
  '8': ['B'],
  B: ['8'],
  '2': ['Z'],
  Z: ['2'],
  '6': ['G'],
  G: ['6'],
};

/** As OCR text becomes a VIN candidate: uppercase, separators dropped, I/O/Q (never in a VIN) as 1/0/0. */
export function normaliseVin(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/I/g, '1')
    .replace(/[OQ]/g, '0');
}

/** The check digit position 9 should hold (sum of weighted values mod 11, 10 written X); null if not 17 valid characters. */
export function vinCheckDigit(vin: string): string | null {
  if (!VIN_PATTERN.test(vin)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const char = vin.charAt(i);
    const value = char >= '0' && char <= '9' ? Number(char) : (TRANSLITERATION[char] ?? 0);
    sum += value * WEIGHTS[i]!;
  }
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

export const isVinCheckDigitValid = (vin: string): boolean => {
  const expected = vinCheckDigit(vin);
  return expected !== null && vin.charAt(8) === expected;
};

/** A maker that puts no check digit at position 9: European (WMI S–Z), a letter other than X there. */
export const usesNoCheckDigit = (vin: string): boolean =>
  VIN_PATTERN.test(vin) && /^[S-Z]/.test(vin) && /[A-WYZ]/.test(vin.charAt(8));

export interface VinMatch {
  vin: string;
  checkDigitValid: boolean;
  /** Characters read as their look-alike to make the check digit hold (0 or 1). */
  corrections: number;
}

/**
 * The VIN 17 characters of OCR text are, or undefined: it must look like a VIN (letters and at least a
 * few digits) and pass its check digit, as read or with the one look-alike change that alone makes it
 * pass (two candidates: no reading), unless its maker uses none (then it is taken as read). Changes are
 * tried only where `confidences` (one per character of `text` that is a letter or digit; all doubtful
 * when absent) says the recogniser was unsure.
 */
export function matchVin(text: string, confidences?: readonly number[]): VinMatch | undefined {
  const vin = normaliseVin(text);
  if (!VIN_PATTERN.test(vin) || !/[A-Z]/.test(vin) || (vin.match(/[0-9]/g) ?? []).length < 4)
    return undefined;
  if (isVinCheckDigitValid(vin)) return { vin, checkDigitValid: true, corrections: 0 };
  // The maker uses no check digit: nothing to test a change by, so none is tried.
  if (usesNoCheckDigit(vin)) return { vin, checkDigitValid: false, corrections: 0 };
  const fixes: string[] = [];
  for (let i = 0; i < 17; i++) {
    if ((confidences?.[i] ?? 0) >= DOUBTFUL_BELOW) continue;
    for (const other of LOOK_ALIKES[vin[i]!] ?? []) {
      const changed = vin.slice(0, i) + other + vin.slice(i + 1);
      if (isVinCheckDigitValid(changed)) fixes.push(changed);
    }
  }
  return fixes.length === 1 ? { vin: fixes[0]!, checkDigitValid: true, corrections: 1 } : undefined;
}
