import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package version, from the nearest package.json above this file (src/ in development, dist/src/ once built). */
function readVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate))
      return (JSON.parse(fs.readFileSync(candidate, 'utf8')) as { version: string }).version;
    const parent = path.dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

export const VERSION: string = readVersion();
