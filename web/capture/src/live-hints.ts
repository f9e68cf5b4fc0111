// Live hints while the customer aims: too dark, too bright, blurred, moving. The server's own cheap
// checks (src/domain/photo-quality.ts) run a few times a second on small grey pictures of the
// viewfinder (grey-frames.ts, in WebAssembly, taken as cheaply as the browser allows by live-frames.ts):
//   - exposure on the whole picture 80 px wide;
//   - sharpness on a 160 × 120 crop of the picture's centre at the scale of the server's 1024 px
//     preview, so the server's threshold holds (on the whole picture at 160 px every photo looks sharp);
//     a flat crop (a plain panel) tells nothing of focus and is not judged;
//   - movement as the mean change of grey level since the last frame looked at.
// A hint shows once two frames in a row agree, so one odd frame does not make it flicker.
// Each analysed frame is timed as a `performance` measure (see bench/capture.ts): the time the checks
// take, not the wait for the copy of the frame's bytes, while the page runs other tasks.
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { BLUR_MIN_VARIANCE } from '../../../src/domain/photo-quality.js';
import type { PictureMeasures } from './grey-frames.js';
import { frameSource, type FrameSource, type MeasuredFrame } from './live-frames.js';

export type LiveHint = 'dark' | 'bright' | 'moving' | 'blur';

/** How often a frame is looked at. */
export const HINT_INTERVAL_MS = 250;
/** The name of the measure each analysed frame leaves in `performance`: the page's own time on it. */
export const HINT_MEASURE = 'walkaround:live-hint';
/** The same for the hint worker's time on the frame, where a worker measured it. */
export const HINT_WORKER_MEASURE = 'walkaround:live-hint-worker';

/** Below this standard deviation of grey levels, the centre crop is too flat to judge focus by. */
const FLAT_CROP_SD = 12;
/** Mean change of grey level (0–255) between frames a quarter second apart that means the phone moves. */
const MOVING_DIFFERENCE = 18;

export class HintReader {
  private last: LiveHint | undefined | null = null;
  private frames = 0;

  /** Judges a measured frame: the hint to show now (undefined: none). */
  read({ measures, started, waited, workerBusy }: MeasuredFrame): LiveHint | undefined {
    const found = judge(measures);
    if (++this.frames % 200 === 0) {
      performance.clearMeasures(HINT_MEASURE);
      performance.clearMeasures(HINT_WORKER_MEASURE);
    }
    performance.measure(HINT_MEASURE, { start: started, duration: performance.now() - started - waited });
    if (workerBusy !== undefined)
      performance.measure(HINT_WORKER_MEASURE, { start: started, duration: workerBusy });
    // Shown once two frames in a row agree; gone as soon as one does not.
    const shown = found === this.last ? found : undefined;
    this.last = found;
    return shown;
  }
}

function judge({ exposure, moved, centreDeviation, sharpness }: PictureMeasures): LiveHint | undefined {
  if (exposure.state === 'dark') return 'dark';
  if (exposure.state === 'overexposed') return 'bright';
  if (moved > MOVING_DIFFERENCE) return 'moving';
  if (centreDeviation < FLAT_CROP_SD) return undefined;
  return sharpness < BLUR_MIN_VARIANCE ? 'blur' : undefined;
}

/** The hint for the live picture in `host`, read while `active` (the camera shows, nothing covers it). */
export function useLiveHint(host: RefObject<HTMLElement | null>, active: boolean): LiveHint | undefined {
  const [hint, setHint] = useState<LiveHint>();
  useEffect(() => {
    setHint(undefined);
    if (!active) return;
    const reader = new HintReader();
    let source: FrameSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // One frame at a time, the next a moment after the last was judged: never two reads at once.
    const look = async () => {
      const video = host.current?.querySelector('video');
      if (video && document.visibilityState === 'visible') {
        source ??= frameSource(video);
        let measured: MeasuredFrame | undefined;
        try {
          measured = await source.read();
        } catch {
          // No hints can be had here (a policy refuses WebAssembly): the customer simply gets none.
          source.close();
          return;
        }
        if (stopped) return;
        if (measured) setHint(reader.read(measured));
        else {
          // No frame (the camera's track ended): the next look starts again from the video as it is.
          source.close();
          source = undefined;
        }
      }
      timer = setTimeout(() => void look(), HINT_INTERVAL_MS);
    };
    timer = setTimeout(() => void look(), HINT_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [active]);
  return hint;
}
