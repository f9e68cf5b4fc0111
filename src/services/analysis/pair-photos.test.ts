import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../../analyzers/fingerprint.js';
import { pairPhotos, PAIR_MAX_DISTANCE } from './pair-photos.js';

const photo = (id: string, dhash: string | null, originalId: string | null = null) => ({
  id,
  dhash,
  originalId,
});
/** A dHash `bits` bits away from all zeros. */
const hashAt = (bits: number) => (bits === 0 ? 0n : (1n << BigInt(bits)) - 1n).toString(16).padStart(16, '0');

describe('pairPhotos', () => {
  it('pairs link inspections step with step, whatever the pictures look like', () => {
    const pairs = pairPhotos(
      [photo('n1', hashAt(40), 'front'), photo('n2', hashAt(0), 'rear'), photo('n3', hashAt(0), 'odometer')],
      [photo('p1', hashAt(0), 'rear'), photo('p2', hashAt(0), 'front')],
      { byStep: true, distance: hammingDistance },
    );
    expect(Object.fromEntries(pairs)).toEqual({ n1: 'p2', n2: 'p1', n3: null });
  });

  it('pairs closest photos first and uses each earlier photo once', () => {
    const pairs = pairPhotos(
      [photo('n1', hashAt(6)), photo('n2', hashAt(4)), photo('video', null)],
      [photo('p1', hashAt(4)), photo('p2', hashAt(12))],
      { byStep: false, distance: hammingDistance },
    );
    // n2 is p1 itself (distance 0) and takes it; n1 gets the next closest.
    expect(Object.fromEntries(pairs)).toEqual({ n1: 'p2', n2: 'p1', video: null });
  });

  it('leaves a photo of a view the earlier inspection lacks without a counterpart', () => {
    const pairs = pairPhotos([photo('n1', hashAt(PAIR_MAX_DISTANCE + 1))], [photo('p1', hashAt(0))], {
      byStep: false,
      distance: hammingDistance,
    });
    expect(pairs.get('n1')).toBeNull();
  });
});
