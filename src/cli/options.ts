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
