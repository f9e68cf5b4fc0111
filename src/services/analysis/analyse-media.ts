// The analysis of one media item, as an analysis thread runs it: an image is decoded once and handed to
// every analyzer; a video is probed, its keyframes extracted and each analysed as an image. Returns
// plain data (it crosses back from the thread).
import type { ImageAnalyzer } from '../../analyzers/analyzer.js';
import {
  COMPARISON_PREVIEW,
  comparePhotos,
  grownBox,
  type Comparison,
} from '../../analyzers/changes/compare.js';
import { comparePair } from '../../analyzers/pair.js';
import { ImageDecodeError, makeThumbnail, prepareImage } from '../../analyzers/prepare.js';
import { extractKeyframes, MediaToolError, probeVideo } from '../../analyzers/video.js';
import type { PairPart } from '../../domain/result/video-pair-parts.js';
import type {
  AnalyzerRun,
  ChangesTask,
  ImageAnalysis,
  MediaAnalysis,
  MediaTask,
  UndecodableMedia,
  VideoAnalysis,
} from '../../ports/analysis-pool.js';
import { runImageAnalyzers } from './run-analyzers.js';

/** The analyzers run on a photo, and the lighter set run on each keyframe of a video. */
export interface MediaAnalyzers {
  image: ImageAnalyzer[];
  keyframe: ImageAnalyzer[];
}

/** Keyframes analysed per video: about one a second, capped so a long video stays bounded. */
const MAX_KEYFRAMES = 30;
/** Bounds one video's probe and keyframe extraction (a hostile file must not hold a thread forever). */
const VIDEO_TOOLS_TIMEOUT_MS = 120_000;

export async function analyseMedia(analyzers: MediaAnalyzers, task: MediaTask): Promise<MediaAnalysis> {
  const started = performance.now();
  try {
    return task.kind === 'image'
      ? { kind: 'image', ...(await analyseImage(analyzers.image, task.path, task.mime, task.inputMetaData)) }
      : { kind: 'video', ...(await analyseVideo(analyzers.keyframe, task)) };
  } catch (error) {
    if (!isUndecodable(error)) throw error;
    return undecodable(error.message, performance.now() - started);
  }
}

/** A failure of the file itself, which would fail the same way on every attempt. */
function isUndecodable(error: unknown): error is Error {
  return error instanceof ImageDecodeError || (error instanceof MediaToolError && !error.environment);
}

function undecodable(reason: string, ms: number): UndecodableMedia {
  return {
    kind: 'undecodable',
    reason,
    runs: [{ name: 'decode', version: '1', status: 'error', ms: Math.round(ms), error: reason }],
  };
}

/**
 * New damage between an earlier inspection's photo and this one's (docs/vehicles.md): both decoded
 * straight at the comparison's size, the vehicle's box grown a little so that its outline is inside.
 */
export async function compareChanges(task: ChangesTask): Promise<Comparison> {
  const [before, after] = await Promise.all([
    prepareImage(task.before.path, task.before.mime, COMPARISON_PREVIEW),
    prepareImage(task.after.path, task.after.mime, COMPARISON_PREVIEW),
  ]);
  return comparePhotos(
    before.preview,
    after.preview,
    task.vehicle ? grownBox(task.vehicle, VEHICLE_MARGIN) : undefined,
  );
}

/** The vehicle detector's box is tight: the comparison looks a little beyond it (a share of its size). */
const VEHICLE_MARGIN = 0.05;

/** Before/after comparison of two photos. */
export async function compareMediaPair(
  a: { path: string; mime: string },
  b: { path: string; mime: string },
): Promise<PairPart> {
  const [before, after] = await Promise.all([prepareImage(a.path, a.mime), prepareImage(b.path, b.mime)]);
  return comparePair(before, after);
}

async function analyseImage(
  analyzers: ImageAnalyzer[],
  path: string,
  mime: string,
  inputMetaData: Record<string, unknown>,
  opts: { thumbnail: boolean } = { thumbnail: true },
): Promise<ImageAnalysis> {
  const image = await prepareImage(path, mime);
  const { parts, runs } = await runImageAnalyzers(analyzers, image, { inputMetaData });
  const thumbnail = opts.thumbnail ? await makeThumbnail(image) : null;
  return { width: image.width, height: image.height, parts, runs, thumbnail };
}

async function analyseVideo(analyzers: ImageAnalyzer[], task: MediaTask): Promise<VideoAnalysis> {
  const signal = AbortSignal.timeout(VIDEO_TOOLS_TIMEOUT_MS);
  const probe = await probeVideo(task.path, signal);
  const frames = await extractKeyframes(
    task.path,
    task.workDir,
    { everySeconds: 1, max: MAX_KEYFRAMES, duration: probe.duration },
    signal,
  );
  const keyframes = [];
  const runs: AnalyzerRun[] = [];
  for (const [index, frame] of frames.entries()) {
    const analysis = await analyseImage(analyzers, frame.path, 'image/jpeg', task.inputMetaData, {
      thumbnail: false,
    });
    runs.push(...analysis.runs);
    keyframes.push({ time: frame.time, index, analysis });
  }
  const first = frames[0];
  const thumbnail = first ? await makeThumbnail(await prepareImage(first.path, 'image/jpeg')) : null;
  // The probe gives the stored frame size; a quarter-turned video is shown the other way round.
  const turned = probe.rotation === 90 || probe.rotation === 270;
  return {
    video: { ...probe, keyframes },
    width: turned ? probe.height : probe.width,
    height: turned ? probe.width : probe.height,
    durationSeconds: probe.duration,
    thumbnail,
    runs,
  };
}
