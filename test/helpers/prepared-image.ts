// A PreparedImage for analyzer tests, from a file or bytes, built as the pipeline's prepare step does
// (oriented, long side at most 1024 px, raw RGB) but without its HEIC fallback.
import sharp from 'sharp';
import type { PreparedImage } from '../../src/analyzers/analyzer.js';

export async function preparedFrom(
  input: string | Buffer,
  opts: { sourcePath?: string; mime?: string } = {},
): Promise<PreparedImage> {
  const { data, info } = await sharp(input)
    .rotate()
    .resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const size = { width: info.width, height: info.height };
  return {
    sourcePath: opts.sourcePath ?? (typeof input === 'string' ? input : 'memory'),
    mime: opts.mime ?? 'image/jpeg',
    ...size,
    preview: { data, ...size },
  };
}
