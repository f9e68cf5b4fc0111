// The live hints' worker: measures the camera frames the page hands it (transferred, not copied), off
// the page's thread. Copying a frame's bytes out cost the page's thread 28–45 ms the first time in a
// visit on a throttled phone (measured in Chromium: the call itself, before any of our loops), then
// 0.1–2 ms; here that first copy delays a hint, never a tap or the viewfinder.
import { GreyPictures, type PictureMeasures } from './grey-frames.js';
import { measureLuma } from './luma-frames.js';

/** What the page sends: a frame, and the id the reply will carry. */
export interface HintWorkerRequest {
  id: number;
  frame: VideoFrame;
}

/** The frame's measures, and the worker's own time on it (ms), waits for the copy left out. */
export type HintWorkerReply = { id: number } & (
  { measures: PictureMeasures; busy: number } | { failed: string }
);

let pictures: Promise<GreyPictures> | undefined;

self.onmessage = async ({ data: { id, frame } }: MessageEvent<HintWorkerRequest>) => {
  try {
    pictures ??= GreyPictures.create();
    const ready = await pictures;
    const started = performance.now();
    const { measures, waited } = await measureLuma(frame, ready);
    reply({ id, measures, busy: performance.now() - started - waited });
  } catch (error) {
    reply({ id, failed: String(error) });
  } finally {
    frame.close();
  }
};

const reply = (message: HintWorkerReply) => self.postMessage(message);
