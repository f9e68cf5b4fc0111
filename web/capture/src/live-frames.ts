// Where the live hints get their small grey pictures (grey-frames.ts) of the viewfinder, cheaply:
//   - where the browser hands out the camera's frames (MediaStreamTrackProcessor: Chrome, Edge, Samsung
//     Internet), from the frame's own luma plane: one copy of its bytes and a few thousand reads, no
//     colour conversion. Drawing a new frame into a canvas converts all of it first: 10–40 ms a frame
//     on a throttled phone, against about 1 ms for the copy (measured in Chromium, 1280 × 960);
//   - elsewhere (Safari and Firefox keep the frames to workers or do not hand them out), by drawing
//     the video into two small canvases.

import {
  centreCrop,
  CENTRE_HEIGHT,
  greyFramesOf,
  CENTRE_WIDTH,
  WHOLE_WIDTH,
  wholeHeightOf,
  type GreyFrames,
} from './grey-frames.js';

/**
 * Grey pictures of a frame; when the frame was in hand, and how long of the time since the page waited
 * for the copy of its bytes (other tasks ran meanwhile): the hints' own cost is the rest.
 */
export type TimedGreyFrames = GreyFrames & { started: number; waited: number };

export interface FrameSource {
  /** The pictures of the next frame; undefined when there is none (the camera stopped). */
  read(): Promise<TimedGreyFrames | undefined>;
  close(): void;
}

/** The cheapest source for the camera playing in `video`. */
export function frameSource(video: HTMLVideoElement): FrameSource {
  const track = video.srcObject instanceof MediaStream ? video.srcObject.getVideoTracks()[0] : undefined;
  return track && typeof MediaStreamTrackProcessor === 'function'
    ? new TrackFrames(track, video)
    : new CanvasFrames(video);
}

declare class MediaStreamTrackProcessor {
  constructor(init: { track: MediaStreamTrack; maxBufferSize?: number });
  readonly readable: ReadableStream<VideoFrame>;
}

/** Frame formats whose first plane is 8-bit luma. */
const LUMA_FIRST = new Set<VideoPixelFormat>(['I420', 'I420A', 'I422', 'I444', 'NV12']);

class TrackFrames implements FrameSource {
  /** A clone of the camera's track: closing this source stops it, never the camera itself. */
  private readonly track: MediaStreamTrack;
  private readonly frames: ReadableStreamDefaultReader<VideoFrame>;
  private buffer = new Uint8Array(0);
  /** Set once a frame came in a format without a luma plane (a GPU texture, RGB): the canvas is used. */
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

  async read(): Promise<TimedGreyFrames | undefined> {
    if (this.fallback) return this.fallback.read();
    const { value: frame } = await this.frames.read();
    if (!frame) return undefined;
    try {
      if (!frame.format || !LUMA_FIRST.has(frame.format)) {
        this.fallback = new CanvasFrames(this.video);
        return this.fallback.read();
      }
      const started = performance.now();
      const size = frame.allocationSize();
      if (this.buffer.length < size) this.buffer = new Uint8Array(size);
      const copying = frame.copyTo(this.buffer);
      const asked = performance.now();
      const [luma] = await copying;
      const waited = performance.now() - asked;
      const plane = {
        data: this.buffer,
        offset: luma!.offset,
        stride: luma!.stride,
        width: frame.visibleRect!.width,
        height: frame.visibleRect!.height,
        fullRange: frame.colorSpace.fullRange === true,
      };
      return { ...greyFramesOf(plane), started, waited };
    } finally {
      frame.close();
    }
  }

  close(): void {
    void this.frames.cancel().catch(() => undefined);
    this.track.stop();
  }
}

class CanvasFrames implements FrameSource {
  private readonly whole = context();
  private readonly centre = context();

  constructor(private readonly video: HTMLVideoElement) {}

  async read(): Promise<TimedGreyFrames | undefined> {
    const { videoWidth: width, videoHeight: height } = this.video;
    if (!width || !height) return undefined;
    const started = performance.now();
    const wholeHeight = wholeHeightOf(width, height);
    return {
      whole: greyOf(this.whole, this.video, [0, 0, width, height], WHOLE_WIDTH, wholeHeight),
      wholeHeight,
      centre: greyOf(this.centre, this.video, centreCrop(width, height), CENTRE_WIDTH, CENTRE_HEIGHT),
      started,
      waited: 0,
    };
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
