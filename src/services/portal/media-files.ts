// The photos, videos and thumbnails the portal shows, only through routes that checked the caller may
// see the inspection (docs/portal.md#the-inspection-page): never from a guessable public path. For share links that
// ask for it, photos go out with faces (people) and plates blurred.
import type { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import { AppError } from '../../domain/errors.js';
import type { ResultDigest } from '../../domain/result/digest.js';
import type { InspectionResult } from '../../domain/result/index.js';
import type { Db, InspectionRow } from '../../ports/database.js';
import type { ByteRange, MediaStorage } from '../../ports/media-storage.js';
import { visibleInspection } from './access.js';
import { privacyRegions, type Box } from './privacy-regions.js';
import type { PortalCaller } from './sessions.js';

export interface MediaFile {
  body: Readable;
  mime: string;
  /** The whole file's size, when known (originals): the answer's length, and what ranges refer to. */
  size?: number;
  /** The part of it `body` holds, for a range request. */
  range?: ByteRange;
}

/** A `Range: bytes=…` request as asked: `start-end`, `start-` or the last `suffix` bytes. */
export type RangeRequest = { start: number; end?: number } | { suffix: number };

/** Long side of a blurred photo: a shared view needs no more, and the blur is cheaper. */
const BLURRED_MAX_SIDE = 1600;

type FileDeps = { db: Db; storage: MediaStorage };

/** The first thumbnail of an inspection the caller sees (the list's picture). */
export async function inspectionThumbnail(
  deps: FileDeps,
  caller: PortalCaller,
  id: string,
): Promise<MediaFile> {
  return coverThumbnail(deps.storage, await visibleInspection(deps.db, caller, id));
}

/** A photo or video of an inspection the caller sees, as received (or the asked range), or its thumbnail. */
export async function inspectionMedia(
  deps: FileDeps,
  caller: PortalCaller,
  ids: { inspectionId: string; mediaId: string },
  variant: 'original' | 'thumbnail',
  range?: RangeRequest,
): Promise<MediaFile> {
  const inspection = await visibleInspection(deps.db, caller, ids.inspectionId);
  return mediaFile(deps, inspection, ids.mediaId, variant, { range });
}

/** The inspection's first thumbnail (the list's picture). */
export async function coverThumbnail(storage: MediaStorage, inspection: InspectionRow): Promise<MediaFile> {
  const digest = inspection.digest === null ? undefined : (JSON.parse(inspection.digest) as ResultDigest);
  if (!digest?.thumbnail_key) throw new AppError('NOT_FOUND');
  return { body: await storage.get(digest.thumbnail_key), mime: 'image/jpeg' };
}

/**
 * One media item of the inspection, as stored (`original`) or its thumbnail; with `blur`, a photo comes
 * out re-encoded with the privacy regions of its result blurred (a video is not shared blurred).
 */
export async function mediaFile(
  deps: FileDeps,
  inspection: InspectionRow,
  mediaId: string,
  variant: 'original' | 'thumbnail',
  options: { blur?: boolean; range?: RangeRequest | undefined } = {},
): Promise<MediaFile> {
  const row = await deps.db
    .selectFrom('media')
    .select(['storage_key', 'mime', 'kind', 'bytes'])
    .where('id', '=', mediaId)
    .where('inspection_id', '=', inspection.id)
    .where('client_id', '=', inspection.client_id)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  const item = resultItem(inspection, mediaId);
  if (variant === 'thumbnail') {
    if (!item?.thumbnail_key) throw new AppError('NOT_FOUND');
    const body = await deps.storage.get(item.thumbnail_key);
    return options.blur ? blurred(body, privacyRegions(item)) : { body, mime: 'image/jpeg' };
  }
  if (options.blur && row.kind === 'video') throw new AppError('NOT_FOUND');
  if (options.blur) return blurred(await deps.storage.get(row.storage_key), item ? privacyRegions(item) : []);
  const range = options.range && byteRange(options.range, row.bytes);
  return {
    body: await deps.storage.get(row.storage_key, range),
    mime: row.mime,
    size: row.bytes,
    ...(range && { range }),
  };
}

/** The bytes a range request asks of a file of `size` bytes; RANGE_NOT_SATISFIABLE when none of them. */
function byteRange(request: RangeRequest, size: number): ByteRange {
  const range =
    'suffix' in request
      ? { start: Math.max(0, size - request.suffix), end: size - 1 }
      : { start: request.start, end: Math.min(request.end ?? size - 1, size - 1) };
  if (size === 0 || range.start > range.end || range.start >= size)
    throw new AppError('RANGE_NOT_SATISFIABLE', { params: { size: String(size) } });
  return range;
}

function resultItem(inspection: InspectionRow, mediaId: string) {
  if (inspection.result === null) return undefined;
  const result = JSON.parse(inspection.result) as Partial<InspectionResult>;
  return result.media?.find((m) => m.id === mediaId);
}

/** The photo scaled to BLURRED_MAX_SIDE, upright, with each region blurred beyond recognition. */
async function blurred(source: Readable, regions: Box[]): Promise<MediaFile> {
  return { body: await renderPhoto(source, { maxSide: BLURRED_MAX_SIDE, regions }), mime: 'image/jpeg' };
}

/**
 * A JPEG of the photo, upright, at most `maxSide` pixels on its long side, with `regions` (fractions of
 * the photo) blurred beyond recognition. Decoded once: the regions are cut from the same pixels.
 */
export async function renderPhoto(
  source: Readable,
  options: { maxSide: number; regions: Box[] },
): Promise<Sharp> {
  const image = sharp({ failOn: 'none' })
    .rotate()
    .resize(options.maxSide, options.maxSide, { fit: 'inside', withoutEnlargement: true });
  source.pipe(image);
  if (options.regions.length === 0) return image.jpeg({ quality: 85 });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const patches = await Promise.all(
    options.regions.map(async (region) => {
      const left = Math.max(0, Math.floor(region.x * info.width));
      const top = Math.max(0, Math.floor(region.y * info.height));
      const width = Math.min(info.width - left, Math.ceil(region.width * info.width));
      const height = Math.min(info.height - top, Math.ceil(region.height * info.height));
      if (width < 1 || height < 1) return undefined;
      // A blur whose radius grows with the region: a large face needs more than a small plate.
      const sigma = Math.max(8, Math.min(width, height) / 4);
      const input = await sharp(data, raw).extract({ left, top, width, height }).blur(sigma).toBuffer();
      return { input, left, top, raw: { width, height, channels: info.channels } };
    }),
  );
  return sharp(data, raw)
    .composite(patches.filter((p) => p !== undefined))
    .jpeg({ quality: 85 });
}
