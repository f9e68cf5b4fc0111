// Boxes as fractions of an image, as the text reader gives them (./ocr/types.ts).
import type { FractionBox } from './ocr/types.js';

/** The bounds of several boxes together. */
export function boxAround(boxes: readonly FractionBox[]): FractionBox {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}
