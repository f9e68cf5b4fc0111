// Measuring a camera frame from its own luma plane (see live-frames.ts): the frame's bytes are copied
// straight into the kernels' memory and sampled there. Runs in the hint worker (hint-worker.ts).
import type { GreyPictures, PictureMeasures } from './grey-frames.js';

/** Frame formats whose first plane is 8-bit luma. */
const LUMA_FIRST = new Set<VideoPixelFormat>(['I420', 'I420A', 'I422', 'I444', 'NV12']);

/** Whether a frame has a luma plane to sample (else it is a GPU texture or RGB: draw it instead). */
export const hasLumaPlane = (frame: VideoFrame) => frame.format !== null && LUMA_FIRST.has(frame.format);

/** The measures of a frame with a luma plane, and how long of the time it took the copy was a wait. */
export async function measureLuma(
  frame: VideoFrame,
  pictures: GreyPictures,
): Promise<{ measures: PictureMeasures; waited: number }> {
  const { width, height } = frame.visibleRect!;
  const copying = frame.copyTo(pictures.frameBuffer(width, height, frame.allocationSize()));
  const asked = performance.now();
  const [luma] = await copying;
  const waited = performance.now() - asked;
  const { offset, stride } = luma!;
  pictures.sampleLuma({ offset, stride, width, height, fullRange: frame.colorSpace.fullRange === true });
  return { measures: pictures.measure(), waited };
}
