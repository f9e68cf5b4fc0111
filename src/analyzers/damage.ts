// Damage detection: runs the configured damage model on the preview and reports what it found,
// with part and type from the model's labels and a severity from the documented heuristic. Without a
// model the part says so (`not_configured`) and lists nothing. A model failure is thrown, so the
// pipeline records it as this analyzer's error instead of a result that looks like "no damage".
// The `damage` part it writes: docs/result.md#what-it-holds.
import { damageSeverity, DamagePart } from '../domain/result/damage-part.js';
import type { DamageModel, RawDetection } from '../ports/damage-model.js';
import type { ImageAnalyzer } from './analyzer.js';

export const DAMAGE_ANALYZER_VERSION = '1.0.0';

export interface DamageAnalyzerOptions {
  /** Default 30 s: a remote model may queue requests. */
  timeoutMs?: number;
}

export function createDamageAnalyzer(
  model: DamageModel | undefined,
  minConfidence: number,
  options: DamageAnalyzerOptions = {},
): ImageAnalyzer<typeof DamagePart> {
  return {
    name: 'damage',
    version: DAMAGE_ANALYZER_VERSION,
    schema: DamagePart,
    timeoutMs: options.timeoutMs ?? 30_000,
    async analyse(image, { signal }): Promise<DamagePart> {
      if (!model) return { status: 'not_configured', model: null, damages: [] };
      const detections = await model.detect({ image: image.preview, minConfidence }, signal);
      const { backend, model: name, version } = model.describe();
      return {
        status: 'ok',
        model: { backend, name, version },
        damages: detections.filter((d) => d.confidence >= minConfidence).map(toDamage),
      };
    },
  };
}

function toDamage(detection: RawDetection): DamagePart['damages'][number] {
  const { part, type } = parseLabel(detection.label);
  const { box, confidence } = detection;
  return {
    part,
    type,
    severity: damageSeverity(box.width * box.height, confidence),
    confidence: round(confidence, 3),
    box: { x: round(box.x, 4), y: round(box.y, 4), width: round(box.width, 4), height: round(box.height, 4) },
  };
}

/** `front_bumper:scratch` → part and type; `scratch` → type only. */
export function parseLabel(label: string): { part: string | null; type: string } {
  const colon = label.indexOf(':');
  if (colon < 0) return { part: null, type: label.trim() };
  const part = label.slice(0, colon).trim();
  const type = label.slice(colon + 1).trim();
  return type ? { part: part || null, type } : { part: null, type: part };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
