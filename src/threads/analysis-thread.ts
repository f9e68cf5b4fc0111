// Runs inside an analysis worker thread (see analysis-pool.ts): wiring only. It builds the analyzers and
// the damage model once per thread, on first use, and hands each task to the analysis service.
import { workerData } from 'node:worker_threads';
import { createKserveDamageModel } from '../adapters/model/kserve-v2.js';
import { createOnnxDamageModel } from '../adapters/model/onnx.js';
import { createOperatorFetch } from '../adapters/fetch/operator-fetch.js';
import { createDamageAnalyzer } from '../analyzers/damage.js';
import { exifAnalyzer } from '../analyzers/exif.js';
import { fingerprintAnalyzer } from '../analyzers/fingerprint.js';
import { qualityAnalyzer } from '../analyzers/quality.js';
import { textAnalyzer } from '../analyzers/text.js';
import { vehicleAnalyzer } from '../analyzers/vehicle.js';
import type { PairPart } from '../domain/result/video-pair-parts.js';
import type { Comparison } from '../analyzers/changes/compare.js';
import type { ChangesTask, MediaAnalysis, MediaTask } from '../ports/analysis-pool.js';
import type { DamageModel } from '../ports/damage-model.js';
import {
  analyseMedia,
  compareChanges,
  compareMediaPair,
  type MediaAnalyzers,
} from '../services/analysis/analyse-media.js';
import type { ThreadSettings } from './analysis-pool.js';

export type ThreadTask =
  | { type: 'media'; task: MediaTask }
  | { type: 'pair'; a: { path: string; mime: string }; b: { path: string; mime: string } }
  | { type: 'changes'; task: ChangesTask };

const settings = workerData as ThreadSettings;
let analyzers: Promise<MediaAnalyzers> | undefined;

function loadAnalyzers(): Promise<MediaAnalyzers> {
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
      // The model server is the operator's: trusted, like every endpoint of the configuration.
      return createKserveDamageModel(model, createOperatorFetch(settings.outbound));
    case 'none':
      return undefined;
  }
}

export default async function run(job: ThreadTask): Promise<MediaAnalysis | PairPart | Comparison> {
  if (job.type === 'pair') return compareMediaPair(job.a, job.b);
  if (job.type === 'changes') return compareChanges(job.task);
  return analyseMedia(await loadAnalyzers(), job.task);
}
