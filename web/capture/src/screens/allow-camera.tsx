// How to give the camera back to the page once it was refused: the steps of the customer's own browser.
import type { Translate } from '../i18n/index.js';

type Browser = 'chrome' | 'safari' | 'firefox' | 'other';

/** The browser as far as its settings go: every browser on an iPhone has Safari's. */
function browserOf(agent: string): Browser {
  if (/iPhone|iPad|iPod/.test(agent)) return 'safari';
  if (/Firefox|FxiOS/.test(agent)) return 'firefox';
  if (/Chrome|CriOS|Android/.test(agent)) return 'chrome';
  if (/Safari/.test(agent)) return 'safari';
  return 'other';
}

export function AllowCamera({ t }: { t: Translate }) {
  const browser = browserOf(navigator.userAgent);
  return (
    <details class="allow-camera" open>
      <summary>{t('camera.allowTitle')}</summary>
      <p data-browser={browser}>{t(`camera.allow.${browser}`)}</p>
    </details>
  );
}
