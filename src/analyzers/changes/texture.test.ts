import { describe, expect, it } from 'vitest';
import { withMats } from './opencv.js';
import { newEdges } from './texture.js';

const [WIDTH, HEIGHT] = [80, 60];

/** A flat grey image (float, light evened: paint near 128) with `draw` applied to its pixels. */
const image = (draw: (x: number, y: number) => number = () => 128) =>
  Float32Array.from({ length: WIDTH * HEIGHT }, (_, i) => draw(i % WIDTH, Math.floor(i / WIDTH)));

/** Short faint strokes (1 px high, 5 px long, 10 levels darker), 3 px apart, in a 30 × 18 patch at (20, 20). */
const scuffed = (x: number, y: number) =>
  x >= 20 && x < 50 && y >= 20 && y < 38 && y % 3 === 0 && x % 8 < 5 ? 118 : 128;

/** A vertical edge at column `at`: paint on the left, a darker part on the right. */
const edgeAt = (at: number) => (x: number) => (x < at ? 128 : 60);

/** newEdges' density and earlier texture at each of `points`. */
function sampled(after: Float32Array, before: Float32Array, points: readonly (readonly [number, number])[]) {
  return withMats((cv, keep) => {
    const mat = (data: Float32Array) => keep(cv.matFromArray(HEIGHT, WIDTH, cv.CV_32FC1, Array.from(data)));
    const { density, earlier } = newEdges(cv, keep, mat(after), mat(before), 2);
    const at = ([x, y]: readonly [number, number]) => ({
      density: density.data32F[y * WIDTH + x]!,
      earlier: earlier.data32F[y * WIDTH + x]!,
    });
    return Promise.resolve(points.map(at));
  });
}

describe('new edges', () => {
  it('finds faint short strokes dense on paint that had none', async () => {
    const [inPatch, away] = await sampled(image(scuffed), image(), [
      [35, 29],
      [70, 50],
    ]);
    expect(inPatch!.density).toBeGreaterThanOrEqual(0.45);
    expect(inPatch!.earlier).toBeLessThan(1);
    expect(away!.density).toBe(0);
  });

  it('finds none where an edge moved by a pixel or two, and says the earlier photo had texture there', async () => {
    const [onEdge] = await sampled(image(edgeAt(41)), image(edgeAt(40)), [[40, 30]]);
    expect(onEdge!.density).toBe(0);
    expect(onEdge!.earlier).toBeGreaterThan(100);
  });
});
