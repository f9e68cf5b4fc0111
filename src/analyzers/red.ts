// What counts as red on a photo's text: an Abu Dhabi plate's code box (./plate-code-box.ts), an
// analogue odometer's tenths drum (./odometer.ts); and as blue: a European plate's band (./text-part.ts);
// and how light a colour is.
import type { Ink } from './text-lines.js';

/** Whether `channel` of `ink` is `ratio` times the other two at least, and `above` levels over them. */
function standsOut(ink: Ink, channel: 0 | 2, ratio: number, above: number): boolean {
  const others = Math.max(...ink.filter((_, k) => k !== channel));
  return ink[channel] >= ratio * others && ink[channel] - others >= above;
}

/**
 * A colour is red when its red channel is this many times the others at least, and this many levels
 * above them: the code box, also in a dark photo (which keeps the ratio); white or grey under a warm
 * cast does not reach it.
 */
const RED_OVER_OTHERS = 1.6;
const RED_ABOVE_OTHERS = 40;
export const onRed = (ink: Ink): boolean => standsOut(ink, 0, RED_OVER_OTHERS, RED_ABOVE_OTHERS);
/** A colour of a red hue however dark: the ground of a red display's digits, a red drum in shadow. */
export const leansRed = (ink: Ink): boolean => standsOut(ink, 0, RED_OVER_OTHERS, 0);

/**
 * A colour is blue, as the EU band at a plate's left end is, when its blue channel is this many times
 * the others at least, and this many levels above them. The band's cell is measured across the band
 * and a sliver of the white plate beside it (the EU stars, the country letter): less than the red code
 * box stands out. The band measured on tuning photos: 173 against 117 (1.48 times), 189 against 84.
 */
const BLUE_OVER_OTHERS = 1.3;
const BLUE_ABOVE_OTHERS = 40;
export const onBlue = (ink: Ink): boolean => standsOut(ink, 2, BLUE_OVER_OTHERS, BLUE_ABOVE_OTHERS);

/** How light a colour is: the sum of its channels (0 to 765). */
export const lightness = (ink: Ink): number => ink[0] + ink[1] + ink[2];
