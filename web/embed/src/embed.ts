// The embed script, served beside the capture app as `<SUPERAPP_URL>/embed.js` (docs/embedding.md): it
// opens a customer's link in a frame inside the integrator's page and hands on the app's events. It is
// a classic script with one global, `Walkaround`, so that any page can use it without a bundler.
import { EMBED_PARAMETER, type WalkaroundEvent, type WalkaroundMessage } from './events.js';

export interface EmbedOptions {
  /** Where the frame goes: an element, or the CSS selector of one. Default: the end of the page's body. */
  container?: Element | string;
  /** Called with each event of the flow, in order. */
  onEvent?: (event: WalkaroundEvent) => void;
}

export interface EmbeddedCapture {
  readonly iframe: HTMLIFrameElement;
  /** Removes the frame and stops listening. */
  close(): void;
}

/** Opens the capture link (`https://…/app/#<token>`, as the service gives it) in a frame. */
function open(link: string, options: EmbedOptions = {}): EmbeddedCapture {
  const url = new URL(link, location.href);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('Walkaround: not a capture link');
  // The app posts to this page's origin only, and only messages from the app's own origin and frame are
  // taken: another frame or window of the page cannot pass for it.
  const appOrigin = url.origin;
  url.searchParams.set(EMBED_PARAMETER, location.origin);

  const iframe = document.createElement('iframe');
  iframe.src = url.href;
  // The camera (and the microphone of a video flow) and the location, delegated to the app's origin.
  iframe.allow = `camera ${appOrigin}; microphone ${appOrigin}; geolocation ${appOrigin}`;
  iframe.title = 'Vehicle inspection';
  iframe.style.cssText = 'border: 0; width: 100%; height: 100%; min-height: 600px; display: block';

  const listener = (message: MessageEvent) => {
    if (message.origin !== appOrigin || message.source !== iframe.contentWindow) return;
    const data = message.data as Partial<WalkaroundMessage> | null;
    if (data?.source !== 'walkaround' || data.version !== 1 || !data.event) return;
    options.onEvent?.(data.event);
  };
  addEventListener('message', listener);

  const container =
    typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
  (container ?? document.body).append(iframe);
  return {
    iframe,
    close() {
      removeEventListener('message', listener);
      iframe.remove();
    },
  };
}

(globalThis as unknown as { Walkaround: { open: typeof open } }).Walkaround = { open };
