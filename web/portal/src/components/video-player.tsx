// A video with the strip of keyframes the analysis looked at; a keyframe jumps the player to its time.
// The frames are drawn in the browser from the video itself (the service keeps no frame images).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MediaItem } from '../api.js';

export function VideoPlayer({ src, item }: { src: string; item: MediaItem }) {
  const player = useRef<HTMLVideoElement>(null);
  const [frames, setFrames] = useState<{ time: number; url: string }[]>([]);
  const keyframes = item.analysis.video?.keyframes ?? [];

  useEffect(() => {
    let live = true;
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'auto';
    video.src = src;
    const canvas = document.createElement('canvas');
    const drawn: { time: number; url: string }[] = [];
    const next = (index: number) => {
      if (!live || index >= keyframes.length) return;
      video.currentTime = keyframes[index]!.time;
      video.onseeked = () => {
        canvas.width = 160;
        canvas.height = Math.round((160 * video.videoHeight) / Math.max(1, video.videoWidth));
        canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
        drawn.push({ time: keyframes[index]!.time, url: canvas.toDataURL('image/jpeg', 0.7) });
        setFrames([...drawn]);
        next(index + 1);
      };
    };
    video.onloadeddata = () => next(0);
    return () => {
      live = false;
      video.removeAttribute('src');
    };
  }, [src]);

  return (
    <figure class="video">
      <video
        ref={player}
        src={src}
        controls
        preload="metadata"
        aria-label={`Video ${item.original_id ?? ''}`}
      />
      <figcaption>
        <p class="muted">
          {item.analysis.video
            ? `${item.analysis.video.duration.toFixed(1)} s, ${item.analysis.video.width}×${item.analysis.video.height}; ${keyframes.length} keyframes analysed`
            : 'Video'}
        </p>
        <ol class="keyframes">
          {frames.map((f) => (
            <li key={f.time}>
              <button
                type="button"
                class="frame-button"
                onClick={() => player.current && (player.current.currentTime = f.time)}
              >
                <img src={f.url} alt={`Keyframe at ${f.time.toFixed(1)} s`} />
                <span>{f.time.toFixed(1)} s</span>
              </button>
            </li>
          ))}
        </ol>
      </figcaption>
    </figure>
  );
}
