const UNIT_SECONDS = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 } as const;

/** Parses `3600`, `90s`, `30m`, `1h`, `2d` or `500ms` into seconds; NaN when the text is not a duration. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return Number.NaN;
  const unit = (match[2] ?? 's') as keyof typeof UNIT_SECONDS;
  return Number(match[1]) * UNIT_SECONDS[unit];
}
