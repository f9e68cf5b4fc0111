// The result's summary, from its media items: one rule for the analysis and for a reviewer's version.
import type { InspectionResult } from './index.js';

type MediaResult = InspectionResult['media'][number];

/** Damages a media item's `damage` part lists. */
export const damageCount = (parts: Record<string, unknown>): number =>
  (parts.damage as { damages?: unknown[] } | undefined)?.damages?.length ?? 0;

export function summaryOf(media: MediaResult[]): InspectionResult['summary'] {
  const flags = new Set<string>();
  const counts: Record<string, number> = {};
  for (const item of media)
    for (const flag of item.flags) {
      flags.add(flag);
      counts[flag] = (counts[flag] ?? 0) + 1;
    }
  return {
    media_count: media.length,
    images: media.filter((m) => m.kind === 'image').length,
    videos: media.filter((m) => m.kind === 'video').length,
    damages: media.reduce((n, m) => n + damageCount(m.analysis), 0),
    flags: [...flags].sort(),
    flag_counts: counts,
  };
}
