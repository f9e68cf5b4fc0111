// Records the walk-around video with MediaRecorder in a format the service takes (MP4 where the
// browser records it, else WebM), at a bitrate that keeps detail in a moving picture.

const TYPES = [
  'video/mp4;codecs=avc1',
  'video/mp4',
  'video/webm;codecs=vp9',
  'video/webm;codecs=vp8',
  'video/webm',
];
const BITS_PER_SECOND = 4_000_000;

export interface Recording {
  /** Resolves with the video once stopped. */
  done: Promise<Blob>;
  stop(): void;
}

export const canRecord = () => typeof MediaRecorder === 'function';

export function record(stream: MediaStream): Recording {
  const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type));
  const recorder = new MediaRecorder(stream, {
    ...(mimeType && { mimeType }),
    videoBitsPerSecond: BITS_PER_SECOND,
  });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  const done = new Promise<Blob>((resolve, reject) => {
    recorder.onstop = () => resolve(new Blob(chunks, { type: (mimeType ?? 'video/webm').split(';')[0] }));
    recorder.onerror = () => reject(new Error('recording failed'));
  });
  // A chunk a second: a long recording never waits whole in one buffer of the recorder.
  recorder.start(1000);
  return { done, stop: () => recorder.state !== 'inactive' && recorder.stop() };
}
