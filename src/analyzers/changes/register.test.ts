import { describe, expect, it } from 'vitest';
import type { Point } from '../ocr/types.js';
import { withMats } from './opencv.js';
import { distance, spread, type Match } from './register.js';

/** The viewpoint's change: a slight zoom, shift and perspective. */
const H = [1.05, 0.02, 12, -0.01, 1.04, -8, 0.00012, 0.00005, 1];
const carry = (h: readonly number[], [x, y]: Point): Point => {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
};
/** A seeded spread of points over a box. */
const points = (count: number, box: { x: number; y: number; width: number; height: number }): Point[] =>
  Array.from({ length: count }, (_, i) => [
    box.x + ((i * 37) % 101) * (box.width / 100),
    box.y + ((i * 53) % 97) * (box.height / 96),
  ]);
const matchesOf = (from: Point[]): Match[] => from.map((p) => ({ from: p, to: carry(H, p) }));

describe('spread', () => {
  // Most features on the plate, a few on the grille and the lights.
  const plate = matchesOf(points(200, { x: 320, y: 330, width: 120, height: 40 }));
  const body = matchesOf(points(40, { x: 80, y: 120, width: 600, height: 360 }));

  it('fits again a transform that carries the plate alone, so that it carries the whole vehicle', async () => {
    const carried = await withMats((cv, keep) => {
      // What RANSAC fitted on the plate: it carries the plate within a pixel and the rest 5–9 px off.
      const centre: Point = [380, 350];
      const off = (p: Point): Point => [p[0] + 0.02 * (p[0] - centre[0]), p[1] + 0.02 * (p[1] - centre[1])];
      const mat = (list: Point[]) => keep(cv.matFromArray(list.length, 1, cv.CV_32FC2, list.flat()));
      const onPlate = keep(
        cv.findHomography(mat(plate.map((m) => m.from)), mat(plate.map((m) => off(m.to))), 0),
      );
      const within = (matrix: typeof onPlate, list: Match[]) =>
        list.filter((m) => distance(matrix, m) <= 3).length;
      const refitted = spread(cv, keep, onPlate, [...plate, ...body]);
      return Promise.resolve({
        before: { plate: within(onPlate, plate), body: within(onPlate, body) },
        after: { plate: within(refitted, plate), body: within(refitted, body) },
      });
    });
    expect(carried.before.plate).toBe(200);
    expect(carried.before.body).toBeLessThan(20);
    expect(carried.after).toEqual({ plate: 200, body: 40 });
  });
});
