// Runs inside an analysis worker thread (see analysis-pool.ts): decodes media, runs the analyzers and
// returns plain data. Analyzers and models are built once per thread, on first use.
import { workerData } from 'node:worker_threads';
import type { ImageAnalyzer } from '../analyzers/analyzer.js';
import { createDamageAnalyzer } from '../analyzers/damage.js';
import { exifAnalyzer } from '../analyzers/exif.js';
import { fingerprintAnalyzer } from '../analyzers/fingerprint.js';
import { comparePair } from '../analyzers/pair.js';
import { makeThumbnail, prepareImage } from '../analyzers/prepare.js';
import { qualityAnalyzer } from '../analyzers/quality.js';
import { textAnalyzer } from '../analyzers/text.js';
import { vehicleAnalyzer } from '../analyzers/vehicle.js';
import { extractKeyframes, probeVideo } from '../analyzers/video.js';
import { createSafeFetch } from '../adapters/fetch/safe-fetch.js';
import { createKserveDamageModel } from '../adapters/model/kserve-v2.js';
import { createOnnxDamageModel } from '../adapters/model/onnx.js';
import type { DamageModel } from '../ports/damage-model.js';
import type {
  AnalyzerRun,
  ImageAnalysis,
  MediaAnalysis,
  MediaTask,
  VideoAnalysis,
} from '../ports/analysis-pool.js';
import { runImageAnalyzers } from '../services/analysis/run-analyzers.js';
import type { ThreadSettings } from './analysis-pool.js';
import type { PairPart } from '../domain/result/video-pair-parts.js';

export type ThreadTask =
  | { type: 'media'; task: MediaTask }
  | { type: 'pair'; a: { path: string; mime: string }; b: { path: string; mime: string } };

/** Keyframes analysed per video: about one a second, capped so a long video stays bounded. */
const MAX_KEYFRAMES = 30;

const settings = workerData as ThreadSettings;
let analyzers: Promise<{ image: ImageAnalyzer[]; keyframe: ImageAnalyzer[] }> | undefined;

function loadAnalyzers() {
  analyzers ??= (async () => {
    const damage = createDamageAnalyzer(await loadDamageModel(), settings.damageModel.minConfidence);
    const image = [qualityAnalyzer, exifAnalyzer, fingerprintAnalyzer, vehicleAnalyzer, textAnalyzer, damage];
    // A keyframe has no EXIF nor a reuse history worth matching; OCR on motion frames is noise.
    const keyframe = [qualityAnalyzer, vehicleAnalyzer, damage];
    return { image, keyframe };
  })();
  return analyzers;
}

async function loadDamageModel(): Promise<DamageModel | undefined> {
  const model = settings.damageModel;
  switch (model.kind) {
    case 'onnx':
      return createOnnxDamageModel(model);
    case 'kserve':
      return createKserveDamageModel(model, createSafeFetch(settings.outbound));
    case 'none':
      return undefined;
  }
}

export default async function run(job: ThreadTask): Promise<MediaAnalysis | PairPart> {
  if (job.type === 'pair') {
    const [a, b] = await Promise.all([
      prepareImage(job.a.path, job.a.mime),
      prepareImage(job.b.path, job.b.mime),
    ]);
    return comparePair(a, b);
  }
  const { task } = job;
  return task.kind === 'image'
    ? { kind: 'image', ...(await analyseImage(task.path, task.mime, task.inputMetaData, 'image')) }
    : { kind: 'video', ...(await analyseVideo(task)) };
}

async function analyseImage(
  path: string,
  mime: string,
  inputMetaData: Record<string, unknown>,
  set: 'image' | 'keyframe',
): Promise<ImageAnalysis> {
  const image = await prepareImage(path, mime);
  const { parts, runs } = await runImageAnalyzers((await loadAnalyzers())[set], image, { inputMetaData });
  const thumbnail = set === 'image' ? await makeThumbnail(image) : null;
  return { width: image.width, height: image.height, parts, runs, thumbnail };
}

/** Bounds one video's probe and keyframe extraction (a hostile file must not hold a thread forever). */
const VIDEO_TOOLS_TIMEOUT_MS = 120_000;

async function analyseVideo(task: MediaTask): Promise<VideoAnalysis> {
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
    const analysis = await analyseImage(frame.path, 'image/jpeg', task.inputMetaData, 'keyframe');
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
