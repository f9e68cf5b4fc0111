import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import { VehiclesPart } from '../domain/result/detection-parts.js';
import type { AnalysisContext, PreparedImage } from './analyzer.js';
import { loadVehicleModel, MIN_VEHICLE_SCORE, vehicleAnalyzer } from './vehicle.js';
import { preparedFrom } from '../../test/helpers/prepared-image.js';

const PHOTOS = fileURLToPath(new URL('../../test/fixtures/photos/', import.meta.url));
const context = (): AnalysisContext => ({ inputMetaData: {}, signal: new AbortController().signal });

const prepare = (name: string): Promise<PreparedImage> => preparedFrom(path.join(PHOTOS, name));

describe('vehicle analyzer', () => {
  beforeAll(async () => {
    const info = await loadVehicleModel();
    expect(info.backend).toBe('onnxruntime');
    expect(info.weightBytes).toBeGreaterThan(1_000_000);
  });

  it.each(['licenseplate_motion.jpg', 'scenetext01.jpg'])('finds the car in %s', async (name) => {
    const part = await vehicleAnalyzer.analyse(await prepare(name), context());
    expect(Value.Check(VehiclesPart, part)).toBe(true);
    expect(part.present).toBe(true);
    const car = part.detections.find((detection) => detection.label === 'car');
    expect(car?.score).toBeGreaterThanOrEqual(MIN_VEHICLE_SCORE);
    expect(car?.box.width).toBeGreaterThan(0.1);
    for (const { box } of part.detections) {
      expect(box.x + box.width).toBeLessThanOrEqual(1);
      expect(box.y + box.height).toBeLessThanOrEqual(1);
    }
  });

  it('finds the rear of the car in the middle of the blurred photo', async () => {
    const part = await vehicleAnalyzer.analyse(await prepare('licenseplate_motion.jpg'), context());
    const [best] = part.detections;
    expect(best?.label).toBe('car');
    const centreX = (best?.box.x ?? 0) + (best?.box.width ?? 0) / 2;
    expect(centreX).toBeGreaterThan(0.35);
    expect(centreX).toBeLessThan(0.65);
  });

  it('finds no vehicle in home.jpg', async () => {
    const part = await vehicleAnalyzer.analyse(await prepare('home.jpg'), context());
    expect(Value.Check(VehiclesPart, part)).toBe(true);
    expect(part).toEqual({ present: false, detections: [], people: [] });
  });

  // What Human's own tfjs pipeline found on these photos (human 3.3.6, wasm backend), to the fourth
  // decimal: the converted model and our decoding must find the same (docs/adr/0011-vehicle-detector-on-onnxruntime.md).
  it('finds exactly what the tfjs pipeline found', async () => {
    expect(await vehicleAnalyzer.analyse(await prepare('licenseplate_motion.jpg'), context())).toEqual({
      present: true,
      detections: [
        { label: 'car', score: 0.43, box: { x: 0.1206, y: 0.0635, width: 0.7722, height: 0.5829 } },
      ],
      people: [],
    });
    expect(await vehicleAnalyzer.analyse(await prepare('scenetext01.jpg'), context())).toEqual({
      present: true,
      detections: [
        { label: 'car', score: 0.62, box: { x: 0.4993, y: 0.7074, width: 0.3685, height: 0.255 } },
      ],
      people: [
        { score: 0.7, box: { x: 0.8483, y: 0.6054, width: 0.1473, height: 0.3926 } },
        { score: 0.49, box: { x: 0.0005, y: 0.4872, width: 0.1433, height: 0.5128 } },
      ],
    });
  });

  it('rejects a preview whose size does not match its bytes', async () => {
    const image = await prepare('home.jpg');
    const broken = { ...image, preview: { ...image.preview, width: image.preview.width + 1 } };
    await expect(vehicleAnalyzer.analyse(broken, context())).rejects.toThrow(/expected/);
  });
});
