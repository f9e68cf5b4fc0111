// The rear camera through getUserMedia, at the best resolution it offers, with the torch where the
// phone has one. Photos come from ImageCapture (the sensor's full-size JPEG) where the browser has it,
// else from the live picture drawn at its full size.
//
// One camera serves every step: opening one takes a phone most of a second, so it is opened once (as
// early as the customer taps Start) and handed from step to step, and stopped only once no step has
// needed it for a moment (the review, the welcome screen, a hidden page).

export interface Camera {
  stream: MediaStream;
  hasTorch: boolean;
  setTorch(on: boolean): Promise<void>;
  /** Whether the camera focuses where it is told (a tap on the picture): `focusAt` does something. */
  canFocus: boolean;
  /** Focuses on the point at `x`, `y` of the picture (0–1 from its top left). */
  focusAt(x: number, y: number): Promise<void>;
  takePhoto(video: HTMLVideoElement): Promise<Blob>;
  stop(): void;
}

/** Why there is no camera: refused by the customer, or none the browser can use. */
export class CameraUnavailable extends Error {}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
  /** Image Capture's focus modes (Chrome on Android): 'manual', 'single-shot', 'continuous'. */
  focusMode?: string[];
}

/**
 * The focus mode that takes a point of interest, when the camera and the browser have one: Chrome on
 * Android has both; desktop browsers, Safari and Firefox have neither (their cameras focus on their own).
 */
function pointFocusMode(capabilities: TorchCapabilities): string | undefined {
  const supported = navigator.mediaDevices.getSupportedConstraints?.() as Record<string, boolean> | undefined;
  if (!supported?.pointsOfInterest) return undefined;
  return ['single-shot', 'continuous'].find((mode) => capabilities.focusMode?.includes(mode));
}

declare class ImageCapture {
  constructor(track: MediaStreamTrack);
  takePhoto(settings?: { imageWidth?: number; imageHeight?: number }): Promise<Blob>;
}

export async function openCamera(kind: 'photo' | 'video'): Promise<Camera> {
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraUnavailable('no getUserMedia');
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: {
        facingMode: { ideal: 'environment' },
        // Photos: the largest the sensor gives; video: 1080p is plenty and keeps files small.
        width: { ideal: kind === 'photo' ? 4096 : 1920 },
        height: { ideal: kind === 'photo' ? 3072 : 1080 },
      },
    });
  } catch (error) {
    throw new CameraUnavailable((error as Error).name);
  }
  const track = stream.getVideoTracks()[0]!;
  const capabilities = (track.getCapabilities?.() ?? {}) as TorchCapabilities;
  const focusMode = pointFocusMode(capabilities);
  return {
    stream,
    hasTorch: capabilities.torch === true,
    setTorch: (on) => track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] }),
    canFocus: focusMode !== undefined,
    focusAt: (x, y) =>
      focusMode
        ? track.applyConstraints({
            advanced: [{ focusMode, pointsOfInterest: [{ x, y }] } as MediaTrackConstraintSet],
          })
        : Promise.resolve(),
    async takePhoto(video) {
      if (typeof ImageCapture === 'function') {
        try {
          return await withinTime(new ImageCapture(track).takePhoto(), STILL_PHOTO_MS);
        } catch {
          // Not every camera takes still photos, and some never answer: grab the live picture instead.
        }
      }
      return grabFrame(video);
    },
    stop: () => stream.getTracks().forEach((t) => t.stop()),
  };
}

/**
 * How long a still photo may take before the live picture is taken instead: a phone's full-resolution
 * capture takes a second or two, and a camera whose takePhoto never settles must not hold the person.
 */
const STILL_PHOTO_MS = 8_000;

/** `work`, or a rejection once `ms` have passed without it settling. */
function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function grabFrame(video: HTMLVideoElement): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return toJpeg(canvas, 0.92);
}

export function toJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))),
      'image/jpeg',
      quality,
    ),
  );
}

/** How long a camera no step uses stays open: long enough for the next step's screen to take it. */
const IDLE_STOP_MS = 1500;

let shared: { kind: 'photo' | 'video'; camera: Promise<Camera>; opened?: Camera } | undefined;
let users = 0;
let idleStop: ReturnType<typeof setTimeout> | undefined;

/** Starts opening the camera ahead of the step that will use it (the Start button). */
export function warmCamera(kind: 'photo' | 'video'): void {
  void sharedCamera(kind).catch(() => undefined);
  scheduleStop();
}

/** The shared camera for a step screen; `release` when the screen goes. */
export function acquireCamera(kind: 'photo' | 'video'): { camera: Promise<Camera>; release: () => void } {
  users++;
  clearTimeout(idleStop);
  const camera = sharedCamera(kind);
  let released = false;
  return {
    camera,
    release() {
      if (released) return;
      released = true;
      users--;
      scheduleStop();
    },
  };
}

/**
 * The shared camera when it is already open (no promise to wait for): a step screen that shows after the
 * first can use it in its first frame.
 */
export function openedCamera(kind: 'photo' | 'video'): Camera | undefined {
  return shared?.kind === kind ? shared.opened : undefined;
}

function sharedCamera(kind: 'photo' | 'video'): Promise<Camera> {
  if (shared?.kind !== kind) {
    stopShared();
    const camera = openCamera(kind);
    const entry: NonNullable<typeof shared> = { kind, camera };
    // A refusal is not kept: the next step asks again.
    camera.then(
      (opened) => (entry.opened = opened),
      () => shared === entry && (shared = undefined),
    );
    shared = entry;
  }
  return shared.camera;
}

function scheduleStop(): void {
  clearTimeout(idleStop);
  idleStop = setTimeout(() => users === 0 && stopShared(), IDLE_STOP_MS);
}

function stopShared(): void {
  const stopping = shared;
  shared = undefined;
  void stopping?.camera.then((camera) => camera.stop()).catch(() => undefined);
}

// A phone's camera light stays on while the stream lives: a page the customer leaves gives it back.
if (typeof document !== 'undefined')
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') stopShared();
  });
