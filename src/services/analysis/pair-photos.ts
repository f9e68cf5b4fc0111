// Which earlier photo each new photo is compared with (docs/vehicles.md#pairing-photos). Pure.
//   - Both inspections from links: step with step (`original_id` is the capture step).
//   - Otherwise: by visual similarity (the dHash of the fingerprint part), closest pairs first, each
//     earlier photo used at most once. Photos further apart than PAIR_MAX_DISTANCE show other views; a
//     pair that is close but not of the same view fails alignment and says `not_aligned`.

export interface PairablePhoto {
  id: string;
  /** The capture step (link) or the client's file name (upload). */
  originalId: string | null;
  /** The photo's dHash; null for a video or an undecodable file (never paired). */
  dhash: string | null;
}

/**
 * dHash distances (of 64 bits) up to this still pair two photos of one view. The same photo edited
 * stays within 10 (REUSE_MAX_DISTANCE); unrelated photos measured 25–38 apart, and a second shot of the
 * same view, a few steps aside, falls in between.
 */
export const PAIR_MAX_DISTANCE = 22;

/** Each new photo's counterpart among `previous` (its id), or null. */
export function pairPhotos(
  current: PairablePhoto[],
  previous: PairablePhoto[],
  options: { byStep: boolean; distance: (a: string, b: string) => number },
): Map<string, string | null> {
  const pairs = new Map<string, string | null>(current.map((p) => [p.id, null]));
  const photos = current.filter((p) => p.dhash !== null);
  const candidates = previous.filter((p) => p.dhash !== null);
  if (options.byStep) {
    for (const photo of photos) {
      const step = candidates.find((p) => p.originalId !== null && p.originalId === photo.originalId);
      if (step) pairs.set(photo.id, step.id);
    }
    return pairs;
  }
  const distances = photos
    .flatMap((photo, i) =>
      candidates.map((earlier, j) => ({
        i,
        j,
        photo,
        earlier,
        d: options.distance(photo.dhash!, earlier.dhash!),
      })),
    )
    .filter((c) => c.d <= PAIR_MAX_DISTANCE)
    // Closest first; ties in upload order, so the same inspections always pair the same way.
    .sort((a, b) => a.d - b.d || a.i - b.i || a.j - b.j);
  const used = new Set<string>();
  for (const c of distances) {
    if (pairs.get(c.photo.id) !== null || used.has(c.earlier.id)) continue;
    pairs.set(c.photo.id, c.earlier.id);
    used.add(c.earlier.id);
  }
  return pairs;
}
