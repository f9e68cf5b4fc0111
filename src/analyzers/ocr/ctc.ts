// Greedy CTC decoding, as PaddleOCR's CTCLabelDecode: the most probable class at each step, repeats
// collapsed, blanks (class 0) dropped; each kept character carries its step's probability. Spaces at
// either end are dropped.
import type { RecognisedChar, RecognisedLine } from './types.js';

/**
 * Decodes `steps` × `classes` probabilities (row-major, one row per step). `characters[k]` is class k's
 * character; class 0 is the blank. Equal probabilities resolve to the lower class, as argmax does.
 * `stepX` places a step along the line (a fraction of its width); by default the steps span it evenly.
 */
export function decodeCtc(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  characters: readonly string[],
  stepX: (step: number) => number = (step) => (step + 0.5) / steps,
): RecognisedLine {
  const chars: RecognisedChar[] = [];
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = t * classes;
    let best = 0;
    let bestProbability = probabilities[row]!;
    for (let k = 1; k < classes; k++) {
      const p = probabilities[row + k]!;
      if (p > bestProbability) {
        best = k;
        bestProbability = p;
      }
    }
    // A character is kept at the first step of its run (PaddleOCR's confidence is that step's).
    if (best !== 0 && best !== previous)
      chars.push({ char: characters[best] ?? '', confidence: bestProbability, x: stepX(t) });
    previous = best;
  }
  // The grey padding right of a short line is often read as a space: spaces at either end mean nothing.
  while (chars[0]?.char === ' ') chars.shift();
  while (chars.at(-1)?.char === ' ') chars.pop();
  const confidence = chars.length ? chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length : 0;
  return { text: chars.map((c) => c.char).join(''), confidence, chars };
}
