// Shared plumbing of the operator commands: configuration, storage and output. The CLI is the one place
// that writes to stdout directly: it is the program's user interface.
import { loadConfig } from '../config.js';
import { buildStorageDeps } from '../deps.js';

export type StorageDeps = Awaited<ReturnType<typeof buildStorageDeps>>;

/** Runs `fn` with the database (migrated) and secrets, then closes them. */
export async function withStorage<T>(fn: (deps: StorageDeps) => Promise<T>): Promise<T> {
  const deps = await buildStorageDeps(loadConfig(), { migrate: true });
  try {
    return await fn(deps);
  } finally {
    await deps.database.close();
  }
}

/** Prints one JSON object with --json, else the human lines. */
export function print(json: boolean | undefined, value: object, human: () => string): void {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : human() + '\n');
}

export const when = (epochMs: number | null): string =>
  epochMs === null ? '-' : new Date(epochMs).toISOString();

/** Aligned "label: value" lines. */
export function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return rows.map(([label, value]) => `  ${(label + ':').padEnd(width + 1)}${value}`).join('\n');
}
