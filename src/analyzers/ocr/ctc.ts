// Greedy CTC decoding, as PaddleOCR's CTCLabelDecode: the most probable class at each step, repeats
// collapsed, blanks (class 0) dropped; each kept character carries its step's probability and the
// step's next likeliest character (its rival). Spaces at either end are dropped. A folding narrows the
// dictionary to the characters a reader wants, classes that mean the same to it (a and A) pooled into
// one.
import type { RecognisedChar, RecognisedLine } from './types.js';

/** The dictionary's classes pooled: `groupOf[k]` is class k's group in `targets`, or -1 when left out. */
export interface Folding {
  targets: readonly string[];
  groupOf: Int32Array;
}

/**
 * The folding that `fold` gives: each character mapped to the character it is read as, or undefined
 * to leave it out. The blank (class 0) is always kept, alone.
 */
export function foldClasses(
  characters: readonly string[],
  fold: (char: string) => string | undefined,
): Folding {
  const targets = [''];
  const groupOf = new Int32Array(characters.length).fill(-1);
  groupOf[0] = 0;
  for (let k = 1; k < characters.length; k++) {
    const target = fold(characters[k]!);
    if (target === undefined || target === '') continue;
    let group = targets.indexOf(target);
    if (group < 0) group = targets.push(target) - 1;
    groupOf[k] = group;
  }
  return { targets, groupOf };
}

export interface DecodeOptions {
  /** Places a step along the line (a fraction of its width); by default the steps span it evenly. */
  stepX?: (step: number) => number;
  /** Pools and narrows the classes; by default every class is its own. */
  folding?: Folding;
}

/** Each step's probabilities pooled by `folding`: steps × targets, row-major. */
function pooled(probabilities: Float32Array, steps: number, classes: number, folding: Folding): Float64Array {
  const groups = folding.targets.length;
  const out = new Float64Array(steps * groups);
  for (let t = 0; t < steps; t++)
    for (let k = 0; k < classes; k++) {
      const group = folding.groupOf[k]!;
      if (group >= 0) out[t * groups + group]! += probabilities[t * classes + k]!;
    }
  return out;
}

/**
 * Decodes `steps` × `classes` probabilities (row-major, one row per step). `characters[k]` is class k's
 * character; class 0 is the blank. Equal probabilities resolve to the lower class, as argmax does.
 */
export function decodeCtc(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  characters: readonly string[],
  options: DecodeOptions = {},
): RecognisedLine {
  const stepX = options.stepX ?? ((step: number) => (step + 0.5) / steps);
  const { folding } = options;
  if (folding) {
    if (folding.groupOf.length !== classes)
      throw new RangeError('decodeCtc: the folding is for another dictionary');
    return greedy(
      pooled(probabilities, steps, classes, folding),
      steps,
      folding.targets.length,
      folding.targets,
      stepX,
    );
  }
  return greedy(probabilities, steps, classes, characters, stepX);
}

function greedy(
  probabilities: Float32Array | Float64Array,
  steps: number,
  classes: number,
  characters: readonly string[],
  stepX: (step: number) => number,
): RecognisedLine {
  const chars: RecognisedChar[] = [];
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = t * classes;
    let best = 0;
    let bestProbability = probabilities[row]!;
    let second = -1;
    let secondProbability = -1;
    for (let k = 1; k < classes; k++) {
      const p = probabilities[row + k]!;
      if (p > bestProbability) {
        [second, secondProbability] = [best, bestProbability];
        best = k;
        bestProbability = p;
      } else if (p > secondProbability) {
        second = k;
        secondProbability = p;
      }
    }
    // A character is kept at the first step of its run (PaddleOCR's confidence is that step's).
    if (best !== 0 && best !== previous) {
      chars.push({
        char: characters[best] ?? '',
        confidence: bestProbability,
        x: stepX(t),
        ...(second > 0 && { rival: { char: characters[second] ?? '', confidence: secondProbability } }),
      });
    }
    previous = best;
  }
  // The grey padding right of a short line is often read as a space: spaces at either end mean nothing.
  while (chars[0]?.char === ' ') chars.shift();
  while (chars.at(-1)?.char === ' ') chars.pop();
  const confidence = chars.length ? chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length : 0;
  return { text: chars.map((c) => c.char).join(''), confidence, chars };
}
