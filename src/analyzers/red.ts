// What counts as red on a photo's text: an Abu Dhabi plate's code box (./plate-code-box.ts), an
// analogue odometer's tenths drum (./odometer.ts); and as blue: a European plate's band (./text-part.ts).
import type { Ink } from './text-lines.js';

/**
 * A colour is red when its red channel is this many times the others at least, and this many levels
 * above them: the code box, also in a dark photo (which keeps the ratio); white or grey under a warm
 * cast does not reach it.
 */
const RED_OVER_OTHERS = 1.6;
const RED_ABOVE_OTHERS = 40;
export const onRed = ([r, g, b]: Ink): boolean =>
  r >= RED_OVER_OTHERS * Math.max(g, b) && r - Math.max(g, b) >= RED_ABOVE_OTHERS;

/**
 * A colour is blue, as the EU band at a plate's left end is, when its blue channel is this many times
 * the others at least, and this many levels above them. The band's cell is measured across the band
 * and a sliver of the white plate beside it (the EU stars, the country letter): less than the red code
 * box stands out. The band measured on tuning photos: 173 against 117 (1.48 times), 189 against 84.
 */
const BLUE_OVER_OTHERS = 1.3;
const BLUE_ABOVE_OTHERS = 40;
export const onBlue = ([r, g, b]: Ink): boolean =>
  b >= BLUE_OVER_OTHERS * Math.max(r, g) && b - Math.max(r, g) >= BLUE_ABOVE_OTHERS;
