// Scratch space of the analysis: local copies of customer media while they are analysed. It lives under
// DATA_DIR (never /tmp), in one folder per worker process named after its host and pid, so a process
// killed mid-analysis leaves its copies where the next start finds and removes them.
//
// Several workers may share DATA_DIR (scale mode on one volume). At start a worker removes the folders
// of processes of its own host that are gone (or that had its own pid: a restarted container), and of
// other hosts only past SCRATCH_MAX_AGE_MS, since it cannot tell whether they are alive.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Longer than any analysis takes: a folder of another host this old is a leftover. */
const SCRATCH_MAX_AGE_MS = 6 * 3600_000;

export interface Scratch {
  /** This process's folder (created). */
  dir: string;
  /** Removes this process's folder, at a clean stop. */
  remove(): Promise<void>;
}

/** Creates this process's scratch folder under `dataDir/scratch` after sweeping leftovers; returns it and what was swept. */
export async function openScratch(dataDir: string): Promise<{ scratch: Scratch; swept: number }> {
  const root = path.join(dataDir, 'scratch');
  await fs.promises.mkdir(root, { recursive: true, mode: 0o700 });
  const host = safeName(os.hostname());
  const swept = await sweep(root, host);
  const dir = path.join(root, `${host}~${process.pid}~${crypto.randomBytes(4).toString('hex')}`);
  await fs.promises.mkdir(dir, { mode: 0o700 });
  return { scratch: { dir, remove: () => fs.promises.rm(dir, { recursive: true, force: true }) }, swept };
}

async function sweep(root: string, host: string): Promise<number> {
  let swept = 0;
  for (const name of await fs.promises.readdir(root)) {
    const [owner, pid] = name.split('~');
    const full = path.join(root, name);
    const leftover =
      owner === host && pid !== undefined
        ? Number(pid) === process.pid || !isAlive(Number(pid))
        : Date.now() - (await fs.promises.stat(full)).mtimeMs > SCRATCH_MAX_AGE_MS;
    if (!leftover) continue;
    await fs.promises.rm(full, { recursive: true, force: true });
    swept++;
  }
  return swept;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9.-]/g, '_');
