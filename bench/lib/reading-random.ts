// Determinism for the reading set (bench/lib/reading-set.ts): every sample draws from its own xorshift32
// stream, seeded from the set's seed and the sample's id, so that adding, removing or reordering samples
// of one group changes no other sample.
import { createHash } from 'node:crypto';

export type Rng = () => number;

/** A stream of numbers in [0, 1) from a 32-bit seed (xorshift32). */
export function random(seed: number): Rng {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** The first 32 bits of the SHA-256 of `text`, as an unsigned integer. */
export function hash32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** The stream of one named thing (a sample, a group), from the set's seed. */
export const streamOf = (seed: number, name: string): Rng => random(hash32(`${seed}:${name}`));

export const pickOne = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** An integer in [min, max]. */
export const integer = (rng: Rng, min: number, max: number): number =>
  min + Math.floor(rng() * (max - min + 1));

/** A number in [min, max). */
export const between = (rng: Rng, min: number, max: number): number => min + rng() * (max - min);

/** `count` characters drawn from `alphabet`. */
export const draw = (rng: Rng, alphabet: string, count: number): string =>
  Array.from({ length: count }, () => alphabet[Math.floor(rng() * alphabet.length)]!).join('');

/** A seeded Fisher-Yates shuffle (a copy). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/**
 * `count` levels of a factor, each level as often as the others (give or take one), in a seeded order:
 * crossed with other factors drawn the same way, every level of each factor is seen about equally often
 * without the full grid of their combinations.
 */
export function balanced<T>(rng: Rng, levels: readonly T[], count: number): T[] {
  const repeated = Array.from({ length: count }, (_, i) => levels[i % levels.length]!);
  return shuffled(rng, repeated);
}
