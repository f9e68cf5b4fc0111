// How long the repair estimate of a large inspection takes (docs/estimate.md): 40 photos with 100
// damages (some with parts, some to suggest from the view, several on the same part), priced with a
// rate card with rule overrides, as every version of a result prices it. Target: under 50 ms.
//
//   npm run bench:estimate        (BENCH_ROUNDS=200 for more samples)
import os from 'node:os';
import { DEFAULT_RATE_CARD, type RateCard } from '../src/domain/estimate/rate-card.js';
import type { InspectionResult } from '../src/domain/result/index.js';
import { estimateForResult } from '../src/services/estimates/estimate-result.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const VIEWS = ['front', 'rear', 'left', 'right', 'front_left', 'front_right', 'rear_left', 'rear_right'];
const PARTS = [null, 'front_bumper', 'bonnet', 'left_front_door', 'windscreen', 'left_front_wheel', null];
const TYPES = ['scratch', 'dent', 'crack', 'scuff', 'broken'];
const SEVERITIES = ['minor', 'moderate', 'severe'] as const;

/** A deterministic inspection: 40 photos, 100 damages spread over them. */
function inspection(): Pick<InspectionResult, 'media' | 'client_metadata'> {
  const media = Array.from({ length: 40 }, (_, i) => ({
    id: `m${i}`,
    original_id: VIEWS[i % VIEWS.length]!,
    capture: { source: 'camera' },
    analysis: {
      vehicles: {
        present: true,
        detections: [{ label: 'car', score: 0.9, box: { x: 0.1, y: 0.2, width: 0.8, height: 0.6 } }],
      },
      damage: {
        status: 'ok',
        model: null,
        damages: Array.from({ length: i < 20 ? 3 : 2 }, (_, j) => ({
          part: PARTS[(i + j) % PARTS.length]!,
          type: TYPES[(i * 3 + j) % TYPES.length]!,
          severity: SEVERITIES[(i + 2 * j) % 3]!,
          confidence: 0.8,
          box: { x: 0.15 + (j % 5) * 0.14, y: 0.3 + (i % 4) * 0.1, width: 0.05, height: 0.04 },
        })),
      },
    },
  }));
  return {
    media: media as unknown as InspectionResult['media'],
    client_metadata: {
      input_metadata: { vehicleValue: 12000 },
      agent_id: null,
      agent_name: null,
      email_id: null,
    },
  };
}

const card: RateCard = {
  ...DEFAULT_RATE_CARD,
  rules: {
    operations: [{ classes: ['bumper'], types: ['scratch'], sizes: ['small'], operation: 'smart_repair' }],
    hours: { repair_and_paint: { panel: { labour: 2.8, paint: 2.4 } } },
  },
};

const result = inspection();
const damages = result.media.reduce((n, m) => n + (m.analysis.damage?.damages.length ?? 0), 0);
const times: number[] = [];
let lines = 0;
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  const estimate = estimateForResult(result, { card, version: 3, example: false }, [
    { part: 'bonnet', operation: 'replace_and_paint' },
  ]);
  times.push(performance.now() - started);
  lines = estimate.lines.length;
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
console.log(
  `estimate of ${result.media.length} photos with ${damages} damages (${lines} lines), ${ROUNDS} rounds: ` +
    `median ${at(50).toFixed(2)} ms, p95 ${at(95).toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms ` +
    `(target < 50 ms; one core, ${os.cpus()[0]?.model.trim()})`,
);
