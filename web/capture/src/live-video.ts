// The one video element that shows the live camera on every step. A new element per step has to be
// fed the stream again and wait for its first frame (up to a second on a phone, the shutter dead
// meanwhile); this one moves from step to step already playing. Between steps (the preview, the
// review) it waits in a hidden holder that stays in the document, so it is never paused.

let element: HTMLVideoElement | undefined;
let holder: HTMLDivElement | undefined;

export function liveVideo(): HTMLVideoElement {
  if (!element) {
    element = document.createElement('video');
    element.muted = true;
    element.playsInline = true;
    element.autoplay = true;
    element.setAttribute('aria-hidden', 'true');
  }
  return element;
}

/** Shows the live picture of `stream` in `host`. */
export function showLive(host: HTMLElement, stream: MediaStream): HTMLVideoElement {
  const video = liveVideo();
  if (video.srcObject !== stream) video.srcObject = stream;
  if (video.parentNode !== host) host.appendChild(video);
  if (video.paused) void video.play().catch(() => undefined);
  return video;
}

/** Takes the live picture out of `host` (when it is still there) into the hidden holder. */
export function parkLive(host: HTMLElement | null): void {
  if (!element || (host && element.parentNode !== host)) return;
  if (!holder) {
    holder = document.createElement('div');
    holder.hidden = true;
    document.body.appendChild(holder);
  }
  holder.appendChild(element);
}

/** Whether the element already shows a picture of `stream`: the shutter can be used at once. */
export function showsPicture(stream: MediaStream): boolean {
  return (
    element !== undefined &&
    element.srcObject === stream &&
    element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA
  );
}
