// Test media: the real photos of test/fixtures (sources and licences in its NOTICE.md), and synthetic
// bodies whose first bytes are a real container header (enough for content sniffing) followed by
// filler, streamed without holding them whole.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const PHOTOS = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));
export const photo = (name: string): Buffer => fs.readFileSync(path.join(PHOTOS, name));
export const MB = 1024 * 1024;

/**
 * home.jpg with a long dark scratch drawn across its wall, from (0.55, 0.75) to (0.70, 0.68) of the
 * photo: a new damage since home.jpg itself, for the comparison of two inspections.
 */
export async function scratchedPhoto(): Promise<Buffer> {
  const file = path.join(PHOTOS, 'home.jpg');
  const { width = 0, height = 0 } = await sharp(file).metadata();
  const line = `M ${width * 0.55} ${height * 0.75} L ${width * 0.7} ${height * 0.68}`;
  const svg = `<svg width="${width}" height="${height}"><path d="${line}" stroke="#3a2a10" stroke-width="${width * 0.006}"/></svg>`;
  return sharp(file)
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** An ISO-BMFF `ftyp` box: what MP4 and QuickTime files start with. */
const MP4_HEAD = Buffer.from('0000001c667479706973736f6d0000020069736f6d69736f326d703431', 'hex');
const JPEG_HEAD = photo('home.jpg').subarray(0, 4096);

export type SyntheticKind = 'mp4' | 'jpeg' | 'text';

/** `bytes` bytes of the given kind, as a stream of 64 KiB chunks. */
export function syntheticStream(kind: SyntheticKind, bytes: number): Readable {
  const head = kind === 'mp4' ? MP4_HEAD : kind === 'jpeg' ? JPEG_HEAD : Buffer.from('just some text\n');
  const filler = Buffer.alloc(64 * 1024, kind === 'text' ? 0x61 : 0);
  return Readable.from(
    (function* () {
      let left = bytes;
      const first = head.subarray(0, Math.min(head.length, left));
      left -= first.length;
      yield first;
      while (left > 0) {
        const chunk = filler.subarray(0, Math.min(filler.length, left));
        left -= chunk.length;
        yield chunk;
      }
    })(),
  );
}

/** A synthetic body written to a temporary file, for uploads that stream from disk. */
export async function syntheticFile(dir: string, name: string, kind: SyntheticKind, bytes: number) {
  const file = path.join(dir, name);
  const { pipeline } = await import('node:stream/promises');
  await pipeline(syntheticStream(kind, bytes), fs.createWriteStream(file));
  return file;
}
