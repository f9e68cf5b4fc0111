import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadMasterKey } from './secret-box.js';

const run = promisify(execFile);

describe('loadMasterKey', () => {
  it('creates the key once and reads it back, leaving nothing else in the folder', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    const first = loadMasterKey(undefined, dir);
    expect(first).toHaveLength(32);
    expect(loadMasterKey(undefined, dir)).toEqual(first);
    expect(fs.readdirSync(dir)).toEqual(['secret.key']);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it('gives processes that start together the same key, never a half-written file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    const module = path.resolve('src/adapters/crypto/secret-box.ts');
    // Each process waits for the same moment before it loads, so that they really race.
    const at = Date.now() + 4000;
    const script = `import { loadMasterKey } from ${JSON.stringify(module)}; while (Date.now() < ${at}); process.stdout.write(loadMasterKey(undefined, ${JSON.stringify(dir)}).toString('hex'));`;
    const keys = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then((r) =>
          r.stdout.trim(),
        ),
      ),
    );
    expect(new Set(keys).size).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(['secret.key']);
  });
});
