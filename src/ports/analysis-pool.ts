import type { PhotoComparison } from '../domain/result/changes-part.js';
import type { NormalisedBox } from '../domain/result/detection-parts.js';

// Where the CPU-heavy analysis runs: off the event loop that serves HTTP (worker threads), with
// bounded concurrency. The pool holds the analyzers and their models, loaded once per thread.

/** One analyzer's run on one media item, as the result lists it. */
export interface AnalyzerRun {
  name: string;
  version: string;
  status: 'ok' | 'error' | 'timeout';
  ms: number;
  error?: string;
}

export interface MediaTask {
  /** Local file with the media's bytes. */
  path: string;
  mime: string;
  kind: 'image' | 'video';
  inputMetaData: Record<string, unknown>;
  /** A folder the task may write to (keyframes), removed by the caller afterwards. */
  workDir: string;
}

export interface ImageAnalysis {
  width: number;
  height: number;
  parts: Record<string, unknown>;
  runs: AnalyzerRun[];
  /** A small JPEG for the portal. */
  thumbnail: Uint8Array | null;
}

export interface VideoAnalysis {
  /** Probe facts and keyframes, each keyframe analysed as an image. */
  video: Record<string, unknown> & { keyframes: { time: number; index: number; analysis: ImageAnalysis }[] };
  width: number;
  height: number;
  durationSeconds: number;
  thumbnail: Uint8Array | null;
  runs: AnalyzerRun[];
}

/**
 * A file that passed the upload's type sniff but does not decode (truncated, over the pixel limit, a
 * video without its index). The same file would fail again: it is reported, not retried.
 */
export interface UndecodableMedia {
  kind: 'undecodable';
  /** Why, in words a client may read (no server paths). */
  reason: string;
  runs: AnalyzerRun[];
}

export type MediaAnalysis =
  ({ kind: 'image' } & ImageAnalysis) | ({ kind: 'video' } & VideoAnalysis) | UndecodableMedia;

export interface ChangesTask {
  before: { path: string; mime: string };
  after: { path: string; mime: string };
  vehicle: NormalisedBox | null;
}

export interface AnalysisPool {
  analyseMedia(task: MediaTask, signal?: AbortSignal): Promise<MediaAnalysis>;
  comparePair(
    a: { path: string; mime: string },
    b: { path: string; mime: string },
    signal?: AbortSignal,
  ): Promise<unknown>;
  /**
   * What changed on the vehicle from the earlier photo `before` to `after` (docs/vehicles.md), looked for
   * inside `vehicle` (a box in `after`, fractions; the whole photo when null).
   */
  compareChanges(task: ChangesTask, signal?: AbortSignal): Promise<PhotoComparison>;
  close(): Promise<void>;
}
