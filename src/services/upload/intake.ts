// Collects the media of one upload request: each item streams through the MediaGuard into the storage
// staging area while the request-wide rules (counts, mixing, total size) are kept. Nothing is published
// until `publish()`; `discard()` leaves no trace of a rejected request.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../domain/errors.js';
import { LIMITS, videoMaxBytes, type MediaKind } from '../../domain/limits.js';
import type { MediaStorage, StagedObject, StoredObject } from '../../ports/media-storage.js';
import { enforceBelow, MediaGuard } from './media-guard.js';

export type Variant = 'file' | 'urls';

export interface ItemMeta {
  position: number;
  originalId: string | null;
  sourceUrl: string | null;
  pairIndex: number | null;
  pairMember: number | null;
  /** The kind the extension promised, if there was one. */
  expectedKind: MediaKind | undefined;
}

export interface StagedMedia extends ItemMeta {
  kind: MediaKind;
  mime: string;
  staged: StagedObject;
}

export interface PublishedMedia extends StagedMedia {
  stored: StoredObject;
}

export class Intake {
  readonly items: StagedMedia[] = [];
  private kinds = new Set<MediaKind>();
  private images = 0;
  private videos = 0;
  private imageBytes = 0;
  private published: StoredObject[] = [];

  constructor(
    private readonly storage: MediaStorage,
    private readonly variant: Variant,
  ) {}

  /** Applies the request-wide rules to a kind announced before any byte is read (by extension). */
  expect(kind: MediaKind): void {
    this.checkMixing(kind);
  }

  /** Streams one item into staging; rejects with the AppError of the first rule it breaks. */
  async add(source: Readable, meta: ItemMeta): Promise<StagedMedia> {
    const guard = new MediaGuard({
      expectedKind: meta.expectedKind,
      onKind: ({ kind }) => this.count(kind),
      onBytes: (kind, total, chunk) => this.limitBytes(kind, total, chunk),
    });
    const staging = this.storage.stage(guard);
    // The pipeline's failure and the staging's rejection are the same error; report it once.
    const [piped, staged] = await Promise.allSettled([pipeline(source, guard), staging]);
    if (staged.status === 'rejected') throw staged.reason;
    if (piped.status === 'rejected') {
      await staged.value.discard();
      throw piped.reason;
    }
    const { kind, mime } = guard.sniffed!;
    const item: StagedMedia = { ...meta, kind, mime, staged: staged.value };
    this.items.push(item);
    if (kind === 'video' && staged.value.bytes <= LIMITS.videoMinBytes) {
      throw new AppError('UPLOAD_VIDEO_TOO_SMALL');
    }
    return item;
  }

  /**
   * Makes every staged item visible under its content address (all at once: the storage flushes them to
   * disk together), and returns them in position order.
   */
  async publish(): Promise<PublishedMedia[]> {
    const ordered = [...this.items].sort((a, b) => a.position - b.position);
    const settled = await Promise.allSettled(ordered.map((item) => item.staged.commit()));
    // Objects created before a failure are remembered, so the caller can remove them.
    this.published = settled.flatMap((r) => (r.status === 'fulfilled' && r.value.created ? [r.value] : []));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return ordered.map((item, i) => ({
      ...item,
      stored: (settled[i] as PromiseFulfilledResult<StoredObject>).value,
    }));
  }

  /** Drops every staged item. */
  async discard(): Promise<void> {
    await Promise.allSettled(this.items.map((item) => item.staged.discard()));
  }

  /** Objects this request created by publishing (for clean-up when the final transaction fails). */
  createdObjects(): StoredObject[] {
    return this.published;
  }

  private checkMixing(kind: MediaKind): void {
    this.kinds.add(kind);
    if (this.kinds.size > 1) throw new AppError('UPLOAD_MIXED_KINDS');
  }

  private count(kind: MediaKind): void {
    this.checkMixing(kind);
    if (kind === 'image' && ++this.images > LIMITS.maxImages) throw new AppError('UPLOAD_TOO_MANY_IMAGES');
    if (kind === 'video' && ++this.videos > LIMITS.maxVideos) throw new AppError('UPLOAD_TOO_MANY_VIDEOS');
  }

  private limitBytes(kind: MediaKind, total: number, chunk: number): void {
    if (kind === 'video') {
      const code = this.variant === 'file' ? 'UPLOAD_FILE_VIDEO_TOO_LARGE' : 'UPLOAD_URL_VIDEO_TOO_LARGE';
      return enforceBelow(total, videoMaxBytes(this.variant), code);
    }
    if (this.variant === 'file') return enforceBelow(total, LIMITS.imageMaxBytes, 'UPLOAD_IMAGE_TOO_LARGE');
    this.imageBytes += chunk;
    if (this.imageBytes > LIMITS.urlImagesMaxBytes) throw new AppError('UPLOAD_IMAGES_TOO_LARGE');
  }
}
