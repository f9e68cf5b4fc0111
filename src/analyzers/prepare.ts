// Decodes an uploaded image once, into the small RGB preview every image analyzer works on, and makes
// the portal's thumbnail from that preview. sharp decodes everything it can; HEVC-coded HEIC, which
// sharp's prebuilt libvips cannot decode (no libde265), goes through heic-decode (libheif in wasm).
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp, { type Metadata } from 'sharp';
import type { PreparedImage } from './analyzer.js';

/** Long side of the preview: large enough for blur and hash checks, small enough to keep in memory. */
export const PREVIEW_MAX_SIDE = 1024;

/**
 * heic-decode reads the whole file into memory and decodes to RGBA inside wasm, synchronously: a
 * 12 MP HEIC took 286–499 ms and 266 MB RSS here. A phone HEIC is 1–10 MB, even at 48 MP; the bounds
 * keep a hostile or odd file from taking the worker's memory.
 */
export const HEIC_MAX_BYTES = 32 * 1024 * 1024;
export const HEIC_MAX_PIXELS = 50_000_000;

/** The input is not an image we can decode (corrupt, truncated, unsupported or too large). */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

interface DecodedHeic {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel. */
  data: Uint8ClampedArray;
}
type HeicDecode = (input: { buffer: Uint8Array }) => Promise<DecodedHeic>;

// heic-decode is CommonJS without type declarations, and its wasm bundle is large: load it on the
// first HEIC only, through require, and give it the type its README documents.
const require = createRequire(import.meta.url);
let heicDecode: HeicDecode | undefined;
const loadHeicDecode = (): HeicDecode => (heicDecode ??= require('heic-decode') as HeicDecode);

/** The preview's long side at most, and the resampling kernel (sharp's, lanczos3 when absent). */
export interface PreviewSize {
  maxSide: number;
  kernel?: 'mitchell';
}

const previewResize = ({ maxSide, kernel }: PreviewSize) =>
  ({
    width: maxSide,
    height: maxSide,
    fit: 'inside',
    withoutEnlargement: true,
    ...(kernel ? { kernel } : {}),
  }) as const;

/**
 * The image decoded into its preview (PREVIEW_MAX_SIDE for the analyzers). A JPEG is decoded straight
 * at a half, a quarter or an eighth of its size (libjpeg's shrink-on-load), the smallest still at least
 * the preview's side: a 12 MP photo decodes about twice as fast for a 768 px preview as for 1024 px.
 */
export async function prepareImage(
  sourcePath: string,
  mime: string,
  size: PreviewSize = { maxSide: PREVIEW_MAX_SIDE },
): Promise<PreparedImage> {
  // Errors from libvips may name the local path; the result must not carry server paths.
  const fail = (reason: unknown): ImageDecodeError => {
    const text = (reason instanceof Error ? reason.message : String(reason)).replaceAll(sourcePath, '<file>');
    return new ImageDecodeError(`Cannot decode the ${mime} image: ${text}`, { cause: reason });
  };

  const input = sharp(sourcePath);
  let metadata: Metadata;
  try {
    metadata = await input.metadata();
  } catch (error) {
    throw fail(error);
  }
  if (metadata.format === 'heif' && metadata.compression === 'hevc') {
    return prepareHeic(sourcePath, mime, metadata, size, fail);
  }

  try {
    const { data, info } = await input
      .rotate()
      .resize(previewResize(size))
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return {
      sourcePath,
      mime,
      width: metadata.autoOrient.width,
      height: metadata.autoOrient.height,
      preview: { data, width: info.width, height: info.height },
    };
  } catch (error) {
    throw fail(error);
  }
}

async function prepareHeic(
  sourcePath: string,
  mime: string,
  metadata: Metadata,
  preview: PreviewSize,
  fail: (reason: unknown) => ImageDecodeError,
): Promise<PreparedImage> {
  if (metadata.width * metadata.height > HEIC_MAX_PIXELS) {
    throw fail(`${metadata.width}×${metadata.height} exceeds ${HEIC_MAX_PIXELS} pixels for HEIC`);
  }
  try {
    const { size } = await fs.stat(sourcePath);
    if (size > HEIC_MAX_BYTES) throw new Error(`${size} bytes exceeds ${HEIC_MAX_BYTES} for HEIC`);
    const decoded = await loadHeicDecode()({ buffer: await fs.readFile(sourcePath) });
    const rgba = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
    // libheif applies the container's rotation and mirror (irot/imir) while decoding, and HEIF readers
    // must ignore EXIF orientation, so the decoded size is already the oriented size.
    const { data, info } = await sharp(rgba, {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
    })
      .resize(previewResize(preview))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      sourcePath,
      mime,
      width: decoded.width,
      height: decoded.height,
      preview: { data, width: info.width, height: info.height },
    };
  } catch (error) {
    throw fail(error);
  }
}

/** A JPEG of the preview, long side at most `maxSide`, for the portal's lists and reports. */
export async function makeThumbnail(image: PreparedImage, maxSide = 320): Promise<Buffer> {
  if (!Number.isInteger(maxSide) || maxSide < 1) throw new RangeError(`maxSide must be a positive integer`);
  const { data, width, height } = image.preview;
  return sharp(data, { raw: { width, height, channels: 3 } })
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
}
