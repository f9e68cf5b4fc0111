// Live hints while the customer aims: too dark, too bright, blurred, moving. The server's own cheap
// checks (src/domain/photo-quality.ts) run on small frames of the viewfinder a few times a second:
//   - exposure on the whole picture drawn 160 px wide;
//   - sharpness on a 160 × 120 crop of the picture's centre at the scale of the server's 1024 px
//     preview, so the server's threshold holds (on the whole picture at 160 px every photo looks sharp);
//     a flat crop (a plain panel) tells nothing of focus and is not judged;
//   - movement as the mean change of grey level since the last frame looked at.
// A hint shows once two frames in a row agree, so one odd frame does not make it flicker.
// Each analysed frame is timed as a `performance` measure (see bench/capture.ts).
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { BLUR_MIN_VARIANCE, exposureOf, laplacianVariance } from '../../../src/domain/photo-quality.js';

export type LiveHint = 'dark' | 'bright' | 'moving' | 'blur';

/** How often a frame is looked at. */
export const HINT_INTERVAL_MS = 250;
/** The name of the measure each analysed frame leaves in `performance`. */
export const HINT_MEASURE = 'walkaround:live-hint';

const WIDTH = 160;
const HEIGHT = 120;
/** The long side of the server's quality preview (images.ts QUALITY_PREVIEW_SIDE). */
const PREVIEW_SIDE = 1024;
/** Below this standard deviation of grey levels, the centre crop is too flat to judge focus by. */
const FLAT_CROP_SD = 12;
/** Mean change of grey level (0–255) between frames a quarter second apart that means the phone moves. */
const MOVING_DIFFERENCE = 18;

export class HintReader {
  private readonly whole = context();
  private readonly centre = context();
  private previous: Uint8Array | undefined;
  private last: LiveHint | undefined | null = null;
  private frames = 0;

  /** Looks at the video's current frame: the hint to show now (undefined: none). */
  read(video: HTMLVideoElement): LiveHint | undefined {
    const { videoWidth: width, videoHeight: height } = video;
    if (!width || !height) return undefined;
    const started = performance.now();
    const found = this.judge(video, width, height);
    if (++this.frames % 200 === 0) performance.clearMeasures(HINT_MEASURE);
    performance.measure(HINT_MEASURE, { start: started });
    // Shown once two frames in a row agree; gone as soon as one does not.
    const shown = found === this.last ? found : undefined;
    this.last = found;
    return shown;
  }

  private judge(video: HTMLVideoElement, width: number, height: number): LiveHint | undefined {
    const wholeHeight = Math.max(1, Math.round((WIDTH * height) / width));
    const grey = greyOf(this.whole, video, [0, 0, width, height], WIDTH, wholeHeight);
    const moved = this.previous?.length === grey.length ? meanDifference(this.previous, grey) : 0;
    this.previous = grey;
    const exposure = exposureOf(grey);
    if (exposure.state === 'dark') return 'dark';
    if (exposure.state === 'overexposed') return 'bright';
    if (moved > MOVING_DIFFERENCE) return 'moving';

    // The centre at the preview's scale: a crop of WIDTH × HEIGHT preview pixels.
    const scale = Math.max(width, height) / PREVIEW_SIDE;
    const cropWidth = Math.min(width, WIDTH * scale);
    const cropHeight = Math.min(height, HEIGHT * scale);
    const crop = [(width - cropWidth) / 2, (height - cropHeight) / 2, cropWidth, cropHeight] as const;
    const centre = greyOf(this.centre, video, crop, WIDTH, HEIGHT);
    if (standardDeviation(centre) < FLAT_CROP_SD) return undefined;
    return laplacianVariance(centre, WIDTH, HEIGHT) < BLUR_MIN_VARIANCE ? 'blur' : undefined;
  }
}

function context(): CanvasRenderingContext2D {
  const canvas = document.createElement('canvas');
  return canvas.getContext('2d', { willReadFrequently: true })!;
}

/** Rec. 601 luma of `source` (x, y, width, height of the video) drawn at `width` × `height`. */
function greyOf(
  canvas: CanvasRenderingContext2D,
  video: HTMLVideoElement,
  source: readonly [number, number, number, number],
  width: number,
  height: number,
): Uint8Array {
  if (canvas.canvas.width !== width) canvas.canvas.width = width;
  if (canvas.canvas.height !== height) canvas.canvas.height = height;
  canvas.drawImage(video, ...source, 0, 0, width, height);
  const { data } = canvas.getImageData(0, 0, width, height);
  const grey = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 4)
    grey[i] = (299 * data[j]! + 587 * data[j + 1]! + 114 * data[j + 2]!) / 1000;
  return grey;
}

function meanDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

function standardDeviation(values: Uint8Array): number {
  let sum = 0;
  let squares = 0;
  for (const value of values) {
    sum += value;
    squares += value * value;
  }
  const mean = sum / values.length;
  return Math.sqrt(Math.max(0, squares / values.length - mean * mean));
}

/** The hint for the live picture in `host`, read while `active` (the camera shows, nothing covers it). */
export function useLiveHint(host: RefObject<HTMLElement | null>, active: boolean): LiveHint | undefined {
  const [hint, setHint] = useState<LiveHint>();
  useEffect(() => {
    setHint(undefined);
    if (!active) return;
    const reader = new HintReader();
    const timer = setInterval(() => {
      const video = host.current?.querySelector('video');
      if (video && document.visibilityState === 'visible') setHint(reader.read(video));
    }, HINT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active]);
  return hint;
}
