// Licence plate formats, as data (docs/result.md#text): what a plate of each country looks like, so that a
// reading can be judged, and corrected where OCR confuses look-alike characters in a position the format
// fixes (a `0` where a letter must be is an `O`). Add a country by adding its lines.
//
// A format is groups of character classes, written as a plate is printed: `L` a letter, `C` a consonant
// (a letter but A, E, I, O, U and Q, as Spain and the Netherlands issue), `D` a digit, `N` a digit but 0
// (the first of a number that never starts with 0, as in Germany and the Emirates), `A` either, each
// optionally with a count `{m}` or `{m,n}`; `-` stands for whatever separates the groups (a hyphen, a
// space, a seal or nothing: readings are compared without separators).

export interface PlateFormat {
  /** ISO 3166-1 alpha-2, `US` for every state. */
  country: string;
  /** The groups, e.g. `LL-DDD-LL`. */
  format: string;
  /** One plate of the format, as printed: for the documentation, the tests and the reading bench. */
  example: string;
}

export const PLATE_FORMATS: readonly PlateFormat[] = [
  // France: SIV since 2009, and the FNI numbers still on older cars.
  { country: 'FR', format: 'LL-DDD-LL', example: 'AB-123-CD' },
  { country: 'FR', format: 'D{1,4}-L{2,3}-D{2}', example: '1234 AB 75' },
  // Germany: district (1–3 letters), 1–2 letters, 1–4 digits, and E (electric) or H (historic).
  // The number runs from 1 to 9999: a 0 before it is the second letter's O.
  { country: 'DE', format: 'L{1,3}-L{1,2}-ND{0,3}', example: 'M-AB 1234' },
  { country: 'DE', format: 'L{1,3}-L{1,2}-ND{0,2}L', example: 'B-XY 123E' },
  // United Kingdom: since 2001.
  { country: 'GB', format: 'LLDD-LLL', example: 'AB12 CDE' },
  // Netherlands: the side codes 6 to 11 of the cars on the road, in consonants.
  { country: 'NL', format: 'DD-CC-CC', example: '12-BD-FG' },
  { country: 'NL', format: 'DD-CCC-D', example: '12-BDF-3' },
  { country: 'NL', format: 'D-CCC-DD', example: '1-BDF-23' },
  { country: 'NL', format: 'CC-DDD-C', example: 'BD-123-F' },
  { country: 'NL', format: 'C-DDD-CC', example: 'B-123-DF' },
  { country: 'NL', format: 'CCC-DD-C', example: 'BDF-12-G' },
  // Belgium: since 2010.
  { country: 'BE', format: 'D-LLL-DDD', example: '1-ABC-123' },
  // Italy: since 1994.
  { country: 'IT', format: 'LL-DDD-LL', example: 'AB 123 CD' },
  // Spain: since 2000, in consonants.
  { country: 'ES', format: 'DDDD-CCC', example: '1234 BCD' },
  // Poland: district (2–3 letters), then 4–5 characters with digits.
  { country: 'PL', format: 'LL-DDDDD', example: 'WA 12345' },
  { country: 'PL', format: 'LL-DDDDL', example: 'WA 1234A' },
  { country: 'PL', format: 'LLL-DDDD', example: 'KRA 1234' },
  { country: 'PL', format: 'LLL-LDDD', example: 'KRA A123' },
  // United States: the common state formats (California, New York, Texas, Florida, Illinois, …).
  { country: 'US', format: 'DLLLDDD', example: '7ABC123' },
  { country: 'US', format: 'LLL-DDDD', example: 'ABC-1234' },
  { country: 'US', format: 'LLL-DDD', example: 'ABC 123' },
  { country: 'US', format: 'DDD-LLL', example: '123 ABC' },
  { country: 'US', format: 'LL-DDDDD', example: 'AB 12345' },
  { country: 'US', format: 'LLL-LDD', example: 'ABC D12' },
  // India: state, district, series, number.
  { country: 'IN', format: 'LL-D{1,2}-L{1,3}-DDDD', example: 'MH 12 AB 1234' },
  // United Arab Emirates: a letter code (Dubai, Sharjah) or a number code (Abu Dhabi), then the number,
  // from 1 to 99999.
  { country: 'AE', format: 'L{1,2}-ND{0,4}', example: 'A 12345' },
  { country: 'AE', format: 'D{1,2}-ND{0,4}', example: '1 12345' },
];

/** One character class of a format, repeated from `min` to `max` times. */
export interface PlateSlot {
  kind: 'L' | 'C' | 'D' | 'N' | 'A';
  min: number;
  max: number;
}

/** A format's groups as slots: `LL-DDD-LL` → [[L,L],[D,D,D],[L,L]] with their counts. */
export function formatGroups(format: string): PlateSlot[][] {
  return format.split('-').map((group) => {
    const slots: PlateSlot[] = [];
    for (const token of group.matchAll(/([LCDNA])(?:\{(\d+)(?:,(\d+))?\})?/g)) {
      const min = token[2] === undefined ? 1 : Number(token[2]);
      const max = token[3] === undefined ? min : Number(token[3]);
      slots.push({ kind: token[1] as PlateSlot['kind'], min, max });
    }
    return slots;
  });
}
