// Where the live hints get the measures of the viewfinder's frames (grey-frames.ts), cheaply:
//   - where the browser hands out the camera's frames (MediaStreamTrackProcessor: Chrome, Edge, Samsung
//     Internet), each frame is handed to a worker (hint-worker.ts), which measures it from its own luma
//     plane: one copy of its bytes and a few thousand reads, no colour conversion. Drawing a new frame
//     into a canvas converts all of it first: 10–40 ms a frame on a throttled phone, against about 1 ms
//     for the copy (measured in Chromium, 1280 × 960); the page's thread only passes the frame on;
//   - elsewhere (Safari and Firefox keep the frames to workers or do not hand them out), by drawing
//     the video into two small canvases.

import {
  centreCrop,
  CENTRE_HEIGHT,
  CENTRE_WIDTH,
  GreyPictures,
  WHOLE_WIDTH,
  wholeHeightOf,
  type PictureMeasures,
} from './grey-frames.js';
import type { HintWorkerReply, HintWorkerRequest } from './hint-worker.js';
import { hasLumaPlane } from './luma-frames.js';

/**
 * A frame's measures; when the page had the frame in hand, and how long of the time since it waited
 * (for the worker, or for a copy) while other tasks ran: the page's own cost is the rest.
 */
export interface MeasuredFrame {
  measures: PictureMeasures;
  started: number;
  waited: number;
  /** The hint worker's own time on the frame (ms), when it measured it. */
  workerBusy?: number;
}

export interface FrameSource {
  /**
   * The measures of the next frame; undefined when there is none (the camera's track ended). Rejects
   * where no hint can be had (WebAssembly refused).
   */
  read(): Promise<MeasuredFrame | undefined>;
  close(): void;
}

/** The cheapest source for the camera playing in `video`. */
export function frameSource(video: HTMLVideoElement): FrameSource {
  const track = video.srcObject instanceof MediaStream ? video.srcObject.getVideoTracks()[0] : undefined;
  return track && typeof MediaStreamTrackProcessor === 'function' && typeof Worker === 'function'
    ? new TrackFrames(track, video)
    : new CanvasFrames(video);
}

declare class MediaStreamTrackProcessor {
  constructor(init: { track: MediaStreamTrack; maxBufferSize?: number });
  readonly readable: ReadableStream<VideoFrame>;
}

/** Camera frames, read from a clone of the track and measured in the hint worker. */
class TrackFrames implements FrameSource {
  /** A clone of the camera's track: closing this source stops it, never the camera itself. */
  private readonly track: MediaStreamTrack;
  private readonly frames: ReadableStreamDefaultReader<VideoFrame>;
  private readonly worker = HintWorker.get();
  /**
   * Set once a frame came without a luma plane (a GPU texture, RGB) or the worker failed: the canvas is
   * used from then on.
   */
  private fallback: CanvasFrames | undefined;

  constructor(
    track: MediaStreamTrack,
    private readonly video: HTMLVideoElement,
  ) {
    this.track = track.clone();
    // One frame waits at most: the one read is at most a frame old, and the camera's buffers stay free.
    const processor = new MediaStreamTrackProcessor({ track: this.track, maxBufferSize: 1 });
    this.frames = processor.readable.getReader();
  }

  async read(): Promise<MeasuredFrame | undefined> {
    if (this.fallback) return this.fallback.read();
    const { value: frame } = await this.frames.read();
    if (!frame) return undefined;
    if (!hasLumaPlane(frame)) {
      frame.close();
      return this.fallBack();
    }
    const started = performance.now();
    const replying = this.worker.measure(frame);
    const asked = performance.now();
    const reply = await replying;
    const waited = performance.now() - asked;
    if ('failed' in reply) return this.fallBack();
    return { measures: reply.measures, started, waited, workerBusy: reply.busy };
  }

  close(): void {
    void this.frames.cancel().catch(() => undefined);
    this.track.stop();
  }

  private fallBack(): Promise<MeasuredFrame | undefined> {
    this.fallback = new CanvasFrames(this.video);
    return this.fallback.read();
  }
}

/**
 * The hint worker (hint-worker.ts), one for the visit: started with the first step's hints, so its
 * set-up (the kernels, the first copy of a frame) is paid once. Frames are handed over, not copied.
 */
class HintWorker {
  private static shared: HintWorker | undefined;
  private readonly worker = new Worker(new URL('./hint-worker.ts', import.meta.url), { type: 'module' });
  private readonly pending = new Map<number, (reply: HintWorkerReply) => void>();
  private nextId = 0;
  private failed = false;

  static get(): HintWorker {
    HintWorker.shared ??= new HintWorker();
    return HintWorker.shared;
  }

  private constructor() {
    this.worker.onmessage = ({ data }: MessageEvent<HintWorkerReply>) => this.settle(data.id, data);
    // The script could not load (offline before it was fetched) or threw: the page measures instead.
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.failed = true;
      for (const id of [...this.pending.keys()]) this.settle(id, { id, failed: 'the hint worker stopped' });
    };
  }

  measure(frame: VideoFrame): Promise<HintWorkerReply> {
    const id = this.nextId++;
    if (this.failed) {
      frame.close();
      return Promise.resolve({ id, failed: 'the hint worker stopped' });
    }
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      const request: HintWorkerRequest = { id, frame };
      this.worker.postMessage(request, [frame]);
    });
  }

  private settle(id: number, reply: HintWorkerReply): void {
    this.pending.get(id)?.(reply);
    this.pending.delete(id);
  }
}

/** The video drawn into two small canvases, measured on the page. */
class CanvasFrames implements FrameSource {
  private readonly whole = context();
  private readonly centre = context();
  private readonly pictures = GreyPictures.create();

  constructor(private readonly video: HTMLVideoElement) {}

  async read(): Promise<MeasuredFrame | undefined> {
    const pictures = await this.pictures;
    const { videoWidth: width, videoHeight: height } = this.video;
    if (!width || !height) return undefined;
    const started = performance.now();
    pictures.setPictures(
      width,
      height,
      greyOf(this.whole, this.video, [0, 0, width, height], WHOLE_WIDTH, wholeHeightOf(width, height)),
      greyOf(this.centre, this.video, centreCrop(width, height), CENTRE_WIDTH, CENTRE_HEIGHT),
    );
    return { measures: pictures.measure(), started, waited: 0 };
  }

  close(): void {}
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
