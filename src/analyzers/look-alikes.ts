// Characters OCR takes for one another, and how sure the recogniser must be of a character before no
// look-alike change is tried on it. Plates (./plates.ts) and odometers (./odometer.ts) read a
// look-alike as the kind their position needs; VINs (./vin.ts) keep their own pairs, as a VIN never
// holds I, O or Q.

/**
 * A character read less surely than this may be its look-alike. Tried on every character, changes make
 * text fit a format or a check digit that it does not show: a single look-alike change makes about half
 * of the VINs with any one character misread pass their check.
 */
export const DOUBTFUL_BELOW = 0.9;

/** Read where a letter must be: the letter it looks like. */
export const AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
};
/** Read where a digit must be: the digit it looks like. */
export const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  D: '0',
  Q: '0',
  U: '0',
  I: '1',
  L: '1',
  J: '1',
  T: '7',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
  A: '4',
};
