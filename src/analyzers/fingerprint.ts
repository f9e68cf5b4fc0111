// A perceptual fingerprint (dHash) of each photo, so the pipeline can find the same picture uploaded
// again in another inspection, even recompressed, resized or re-lit. Matching is the pipeline's job:
// this analyzer only hashes.
import sharp from 'sharp';
import { FingerprintPart } from '../domain/result/image-parts.js';
import type { ImageAnalyzer, PreparedImage } from './analyzer.js';

/**
 * Largest Hamming distance (of 64 bits) still treated as the same photo. Measured with this dHash on
 * the four JPEG fixtures: recompressed at quality 40: 0–1; downscaled to 300 px wide: 1–5; cropped
 * by 2.5 % on each side: 2–8; darkened to 50 %: 1–4; brightened: 0–4; exif.jpg → scene.heic (HEIC
 * round trip): 0. Distinct photos: 25–38. 10 catches these edits and stays far from unrelated photos.
 */
export const REUSE_MAX_DISTANCE = 10;

const HASH = /^[0-9a-f]{16}$/;

/**
 * dHash: shrink to 9×8 grey, then one bit per horizontally adjacent pair, set when the left pixel is
 * brighter; rows top to bottom, most significant bit first. Robust to scale, compression and
 * uniform brightness changes, since only the sign of local gradients counts.
 */
export async function dHash(preview: PreparedImage['preview']): Promise<string> {
  const { data, width, height } = preview;
  const grey = await sharp(data, { raw: { width, height, channels: 3 } })
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer();
  if (grey.length !== 72) throw new Error(`dHash: expected 72 grey pixels, got ${grey.length}`);
  let hash = 0n;
  for (let row = 0; row < 8; row++) {
    for (let column = 0; column < 8; column++) {
      const left = grey[row * 9 + column]!;
      const right = grey[row * 9 + column + 1]!;
      hash = (hash << 1n) | (left > right ? 1n : 0n);
    }
  }
  return hash.toString(16).padStart(16, '0');
}

/** Number of differing bits between two dHashes (0–64). */
export function hammingDistance(a: string, b: string): number {
  if (!HASH.test(a) || !HASH.test(b)) throw new TypeError('a dHash is 16 lowercase hex characters');
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff !== 0n) {
    diff &= diff - 1n;
    count++;
  }
  return count;
}

export const fingerprintAnalyzer: ImageAnalyzer<typeof FingerprintPart> = {
  name: 'fingerprint',
  version: '1.0.0',
  schema: FingerprintPart,
  timeoutMs: 5_000,
  async analyse(image, context) {
    context.signal.throwIfAborted();
    return { dhash: await dHash(image.preview), matches: [] };
  },
};
