// What counts as red on a photo's text: an Abu Dhabi plate's code box (./plate-code-box.ts), an
// analogue odometer's tenths drum (./odometer.ts).
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
