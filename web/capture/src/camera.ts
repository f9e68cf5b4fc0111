// The rear camera through getUserMedia, at the best resolution it offers, with the torch where the
// phone has one. Photos come from ImageCapture (the sensor's full-size JPEG) where the browser has it,
// else from the live picture drawn at its full size.

export interface Camera {
  stream: MediaStream;
  hasTorch: boolean;
  setTorch(on: boolean): Promise<void>;
  takePhoto(video: HTMLVideoElement): Promise<Blob>;
  stop(): void;
}

/** Why there is no camera: refused by the customer, or none the browser can use. */
export class CameraUnavailable extends Error {}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
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
  return {
    stream,
    hasTorch: capabilities.torch === true,
    setTorch: (on) => track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] }),
    async takePhoto(video) {
      if (typeof ImageCapture === 'function') {
        try {
          return await new ImageCapture(track).takePhoto();
        } catch {
          // Not every camera takes still photos: grab the live picture instead.
        }
      }
      return grabFrame(video);
    },
    stop: () => stream.getTracks().forEach((t) => t.stop()),
  };
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
