// The structured (JSON) logger every part of the process shares. Secrets never reach it: credential
// headers are redacted, and code logs ids, never keys or tokens.
import { pino, type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** Logs to stdout, or to `destination` when given (tests read the lines the service writes). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}

export type { DestinationStream, Logger };
