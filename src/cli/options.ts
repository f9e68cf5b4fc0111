// Parsers for option values; a bad value stops the command with a message naming the option.
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../domain/duration.js';

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** A duration in seconds (3600, 90s, 30m, 1h, 2d). */
export function durationSeconds(value: string): number {
  const seconds = parseDuration(value);
  if (Number.isNaN(seconds))
    throw new InvalidArgumentError('expected a duration such as 3600, 90s, 30m, 1h or 2d');
  return seconds;
}

export function oneOf<T extends string>(...choices: T[]) {
  return (value: string): T => {
    if (!(choices as string[]).includes(value))
      throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    return value as T;
  };
}

/** A day (2026-11-23) as epoch ms at its start in UTC. */
export function day(value: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms))
    throw new InvalidArgumentError('expected a day such as 2026-11-23');
  return ms;
}

/** A day (its start, UTC) or an ISO 8601 time with its offset (2026-11-23T14:00:00Z), as epoch ms. */
export function instant(value: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return day(value);
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(ms))
    throw new InvalidArgumentError(
      'expected a day such as 2026-11-23 or a time such as 2026-11-23T14:00:00Z',
    );
  return ms;
}
