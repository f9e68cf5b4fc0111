// The checks made on media bytes while they stream to storage: the content is sniffed from its first
// bytes (file-type) and must be an image or video of the kind its extension promised; the size limits
// are enforced as bytes arrive, so an oversized upload is cut off early, not after it is whole.
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, type ErrorCode } from '../../domain/errors.js';
import { kindOfMime, type MediaKind } from '../../domain/limits.js';

/** Enough for file-type to recognise every format we accept. */
const SNIFF_BYTES = 4100;

export interface Sniffed {
  kind: MediaKind;
  mime: string;
}

export interface GuardOptions {
  /** The kind the extension promised; undefined when there was no extension (judged by content alone). */
  expectedKind: MediaKind | undefined;
  /** Told the kind once it is known; may throw an AppError to refuse the item (mixing, counts). */
  onKind?: (sniffed: Sniffed) => void;
  /** Told every chunk's size after the kind is known; throws an AppError to cut the stream off. */
  onBytes: (kind: MediaKind, total: number, chunk: number) => void;
}

/** A pass-through stream that applies the checks; `sniffed` holds the kind once the stream has ended. */
export class MediaGuard extends Transform {
  sniffed: Sniffed | undefined;
  private head: Buffer[] = [];
  private headBytes = 0;
  private total = 0;

  constructor(private readonly options: GuardOptions) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.sniffed) return done(this.count(chunk), chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return done();
    this.release(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.sniffed) return done();
    this.release(done);
  }

  private release(done: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.identify(head).then(
      (sniffed) => {
        this.sniffed = sniffed;
        done(this.count(head), head);
      },
      (error: Error) => done(error),
    );
  }

  private async identify(head: Buffer): Promise<Sniffed> {
    const type = head.length === 0 ? undefined : await fileTypeFromBuffer(head);
    const kind = type && kindOfMime(type.mime);
    const expected = this.options.expectedKind;
    if (!type || !kind || (expected !== undefined && kind !== expected))
      throw new AppError('UPLOAD_UNSUPPORTED_MEDIA');
    const sniffed = { kind, mime: type.mime };
    this.options.onKind?.(sniffed);
    return sniffed;
  }

  /** Counts a chunk; returns the error that cuts the stream off, if any. */
  private count(chunk: Buffer): Error | null {
    this.total += chunk.length;
    try {
      this.options.onBytes(this.sniffed!.kind, this.total, chunk.length);
      return null;
    } catch (error) {
      return error as Error;
    }
  }
}

/** Throws the limit's error when `bytes` is at or over `max`. */
export function enforceBelow(bytes: number, max: number, code: ErrorCode): void {
  if (bytes >= max) throw new AppError(code);
}
