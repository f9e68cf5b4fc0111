// Texture gained on the vehicle: a scuff is many short strokes under a pixel wide at the comparison's
// size, too faint one by one to pass the range test of ./compare.ts, but together they add fine texture
// to paint that had none. Here a pixel is a new edge when the later photo's gradient there is stronger
// than the earlier photo's anywhere near it (TOLERANCE pixels, for the registration) by EDGE_GAIN;
// where new edges are dense, something was drawn on the paint.
import type { Cv, Keep, Mat } from './opencv.js';

/** A new edge's gradient is this much stronger than any near it before (levels of 128 per pixel). */
const EDGE_GAIN = 8;
/** The window new edges are counted over (pixels): a scuff's patch holds several strokes in it. */
const TEXTURE_WINDOW = 11;

/**
 * `density`: the share of new edges around each pixel (0..1), pixels where the gradient's magnitude of
 * `after` exceeds the most of `before`'s within `tolerance` pixels by EDGE_GAIN, counted over
 * TEXTURE_WINDOW; `earlier`, that most of `before`'s (how much texture the earlier photo had there).
 */
export function newEdges(
  cv: Cv,
  keep: Keep,
  after: Mat,
  before: Mat,
  tolerance: number,
): { density: Mat; earlier: Mat } {
  const magnitude = (image: Mat) => {
    const [dx, dy, out] = [keep(new cv.Mat()), keep(new cv.Mat()), keep(new cv.Mat())];
    cv.Sobel(image, dx, cv.CV_32F, 1, 0, 3);
    cv.Sobel(image, dy, cv.CV_32F, 0, 1, 3);
    cv.magnitude(dx, dy, out);
    return out;
  };
  const [later, earlier] = [magnitude(after), magnitude(before)];
  cv.dilate(earlier, earlier, keep(cv.Mat.ones(2 * tolerance + 1, 2 * tolerance + 1, cv.CV_8U)));
  // The typings leave CV_32FC1 as `any`.
  const edges = keep(cv.Mat.zeros(later.rows, later.cols, cv.CV_32FC1 as number));
  const [l, e, n] = [later.data32F, earlier.data32F, edges.data32F];
  for (let i = 0; i < l.length; i++) if (l[i]! - e[i]! >= EDGE_GAIN) n[i] = 1;
  const window = new cv.Size(TEXTURE_WINDOW, TEXTURE_WINDOW);
  cv.boxFilter(edges, edges, cv.CV_32F, window, new cv.Point(-1, -1), true, cv.BORDER_CONSTANT);
  return { density: edges, earlier };
}
