// What an upload may hold (docs/api.md#limits): allowed extensions and their kind, counts and sizes.
// 1 MB is 1,048,576 bytes throughout.
export type MediaKind = 'image' | 'video';

export const MB = 1024 * 1024;

const KIND_OF_EXTENSION: Readonly<Record<string, MediaKind>> = {
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  jfif: 'image',
  heic: 'image',
  mp4: 'video',
  webm: 'video',
  mov: 'video',
  mkv: 'video',
  avi: 'video',
};

export const ALLOWED_EXTENSIONS = Object.keys(KIND_OF_EXTENSION);

export const LIMITS = {
  maxImages: 99,
  /** A video must be larger than this (both variants). */
  videoMinBytes: 1 * MB,
  /** A video must be smaller than this: files / URLs. */
  fileVideoMaxBytes: 100 * MB,
  urlVideoMaxBytes: 70 * MB,
  /** Sum of the images of one URL upload. */
  urlImagesMaxBytes: 70 * MB,
  /** One image file may not exceed this (walkaround's own limit; keeps one request bounded). */
  imageMaxBytes: 70 * MB,
  /** Videos per request (walkaround's own limit; keeps one request bounded). */
  maxVideos: 10,
  /** Nesting levels of `inputMetaData` (walkaround's own limit: deeper JSON only serves to exhaust the
   * stack of whatever reads it later). */
  metadataMaxDepth: 32,
} as const;

/** The extension of a file name or URL path, lowercase, without the dot; '' when there is none. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The kind an extension stands for, or undefined for an extension outside the allowed list. */
export const kindOfExtension = (extension: string): MediaKind | undefined => KIND_OF_EXTENSION[extension];

/** The kind of sniffed content (a MIME type), or undefined when it is neither image nor video we accept. */
export function kindOfMime(mime: string): MediaKind | undefined {
  if (ACCEPTED_IMAGE_MIMES.has(mime)) return 'image';
  if (mime.startsWith('video/') || mime === 'application/x-matroska') return 'video';
  return undefined;
}

const ACCEPTED_IMAGE_MIMES = new Set(['image/jpeg', 'image/png', 'image/heic', 'image/heif']);

/** Largest size a video may have in the given variant, exclusive. */
export const videoMaxBytes = (variant: 'file' | 'urls'): number =>
  variant === 'file' ? LIMITS.fileVideoMaxBytes : LIMITS.urlVideoMaxBytes;

/** Whether a parsed JSON value nests deeper than `max` levels (an object or array is one level). Walks
 * with its own stack, so that the check cannot itself overflow. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
