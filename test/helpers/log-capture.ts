// The service's log lines as objects, for tests that check what it logs (pino writes each line to the
// destination synchronously, so a line is here as soon as the code that logged it has run).
import type { DestinationStream } from '../../src/logger.js';

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** pino's level numbers: 50 is `error`, 60 `fatal`. */
export const ERROR_LEVEL = 50;

export interface LogCapture {
  destination: DestinationStream;
  lines: LogLine[];
  /** Lines at `error` or above since index `from`. */
  errorsSince(from: number): LogLine[];
}

export function captureLogs(): LogCapture {
  const lines: LogLine[] = [];
  return {
    lines,
    destination: {
      write(line: string) {
        lines.push(JSON.parse(line) as LogLine);
      },
    },
    errorsSince: (from) => lines.slice(from).filter((line) => line.level >= ERROR_LEVEL),
  };
}
