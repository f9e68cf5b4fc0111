// What the portal lists and searches of a result, kept beside it so that a list of inspections needs no
// JSON parsing and a search by plate, VIN or flag is an index lookup (docs/portal.md#search). Pure: the
// migration that fills it for older results uses it too.

/** A reading as searched: uppercase letters and digits only (`ab-123 cd` and `AB123CD` are one plate). */
export const compactReading = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The flags the portal offers as filters, in the order it shows them. */
export const SEARCH_FLAGS = [
  'blurry',
  'dark',
  'overexposed',
  'low_resolution',
  'edited',
  'reused',
  'plate_mismatch',
  'vin_mismatch',
  'odometer_mismatch',
  'no_vehicle',
  'damage',
  'possible_new_damage',
  'new_damage',
  'odometer_rollback',
  'picked_from_gallery',
  'captured_far_from_others',
  'undecodable',
] as const;

/** The list's view of one inspection's result. */
export interface ResultDigest {
  /** The first plate read (as written in the result), or null. */
  plate: string | null;
  vin: string | null;
  flags: string[];
  media_count: number;
  damages: number;
  /** The first media item's thumbnail. */
  thumbnail_key: string | null;
  /** The repair estimate's total and currency (absent from digests made before estimates). */
  estimate?: { total: number; currency: string } | null;
}

/** A searchable fact of a result: one row per flag, plate and VIN. */
export interface SearchFact {
  kind: 'flag' | 'plate' | 'vin';
  value: string;
}

/** The parts of a result the digest reads; older results may lack any of them. */
interface ResultLike {
  media?: {
    thumbnail_key?: string | null;
    analysis?: { text?: { plate?: { read?: string | null }; vin?: { read?: string | null } } };
  }[];
  summary?: { media_count?: number; damages?: number; flags?: string[] };
  estimate?: { total: number; currency: string };
}

export function digestOf(result: unknown): ResultDigest {
  const r = (result ?? {}) as ResultLike;
  const media = r.media ?? [];
  const first = (pick: (m: (typeof media)[number]) => string | null | undefined) =>
    media.map(pick).find((value): value is string => typeof value === 'string' && value !== '') ?? null;
  return {
    plate: first((m) => m.analysis?.text?.plate?.read),
    vin: first((m) => m.analysis?.text?.vin?.read),
    flags: [...(r.summary?.flags ?? [])],
    media_count: r.summary?.media_count ?? media.length,
    damages: r.summary?.damages ?? 0,
    thumbnail_key: first((m) => m.thumbnail_key),
    estimate: r.estimate ? { total: r.estimate.total, currency: r.estimate.currency } : null,
  };
}

export function searchFactsOf(result: unknown): SearchFact[] {
  const r = (result ?? {}) as ResultLike;
  const facts = new Map<string, SearchFact>();
  const add = (kind: SearchFact['kind'], value: string | null | undefined) => {
    const compact = value ? (kind === 'flag' ? value : compactReading(value)) : '';
    if (compact) facts.set(`${kind}:${compact}`, { kind, value: compact });
  };
  for (const flag of r.summary?.flags ?? []) add('flag', flag);
  for (const item of r.media ?? []) {
    add('plate', item.analysis?.text?.plate?.read);
    add('vin', item.analysis?.text?.vin?.read);
  }
  return [...facts.values()];
}
