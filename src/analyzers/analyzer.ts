// What every analyzer is given and must give back. An analyzer is one module that writes one part of a
// media item's result; the pipeline (services/analysis) runs them, each with its own timeout, and
// records the error of one that fails without losing the others' work.
import type { Static, TSchema } from '@sinclair/typebox';

/** An image decoded once for every analyzer. */
export interface PreparedImage {
  /** Path of the original bytes on the local disk. */
  sourcePath: string;
  /** MIME type sniffed at upload (image/jpeg, image/png, image/heic, image/heif). */
  mime: string;
  /** Pixel size of the original, after EXIF orientation. */
  width: number;
  height: number;
  /**
   * The image decoded, oriented and scaled so its long side is at most 1024 px, as raw 8-bit RGB
   * (3 channels, row-major). The basis of every pixel analysis; small enough to keep in memory.
   */
  preview: { data: Buffer; width: number; height: number };
}

export interface AnalysisContext {
  /** `inputMetaData` of the inspection (licensePlate, vin, …), {} when none was given. */
  inputMetaData: Record<string, unknown>;
  /** Aborted when the analyzer's time is up or the worker stops. */
  signal: AbortSignal;
}

export interface ImageAnalyzer<S extends TSchema = TSchema> {
  /** Key of its part in the media item's result, e.g. `quality`. */
  name: string;
  /** Recorded in the result's list of analyzers that ran. */
  version: string;
  /** JSON Schema of its part (also published in the result schema). */
  schema: S;
  timeoutMs: number;
  /**
   * Its heavy work runs off the analysis thread (the OCR models on onnxruntime's own thread): it starts
   * first and runs beside the others, so a photo's analyzers take the longest one's time, not the sum.
   */
  ownThread?: boolean;
  analyse(image: PreparedImage, context: AnalysisContext): Promise<Static<S>>;
}
