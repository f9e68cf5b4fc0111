// A live preview of the capture app as the customer's phone shows it, drawn by the capture app's own
// components (StepFrame, Welcome, Overlay), words (its catalogues) and stylesheet, so it cannot drift from
// the real thing. It lives in a shadow root: the capture app's styles reach nothing of the portal and the
// portal's reach nothing of it. It is `inert`: nothing in it can be focused or clicked (the capture
// screens move focus to their heading when they appear; here that would steal it from the editor).
import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Session } from '../../../../../capture/src/session.js';
import captureStyles from '../../../../../capture/src/styles.css?inline';
import { CATALOGUES } from '../../../../../capture/src/i18n/all.js';
import {
  chooseLanguage,
  direction,
  translator,
  type Translate,
} from '../../../../../capture/src/i18n/index.js';
import { Overlay } from '../../../../../capture/src/overlays/index.js';
import { StepFrame } from '../../../../../capture/src/screens/step-frame.js';
import { Welcome } from '../../../../../capture/src/screens/welcome.js';
import { applyBrand } from '../../../../../capture/src/theme.js';
import type { Persona } from './types.js';

/**
 * The capture stylesheet for a shadow root: its page-wide rules apply to the host, screens fill the phone
 * instead of the window, and the landscape-phone layout (a media query on the portal's window, not on
 * the phone drawn here) is left out.
 */
const PREVIEW_STYLES =
  captureStyles
    .replaceAll(':root', ':host')
    .replace(/@media\s*\(orientation:\s*landscape\)\s*and\s*\(max-height:\s*560px\)/g, '@media not all') +
  `
:host { display: block; height: 100%; overflow: hidden; }
.screen { height: 100%; display: flex; flex-direction: column; overflow: hidden; }
.screen > .step, .screen > .page { min-height: 0; flex: 1; overflow: hidden; }
.page > * { flex-shrink: 0; }
.viewfinder { background: radial-gradient(circle at 50% 60%, #4a525c, #14171a 75%); }
.shutter:disabled { opacity: 1; }
`;

const BRAND_PROPERTIES = ['--brand', '--on-brand', '--brand-text'] as const;

/**
 * The capture app's colours for a brand colour, as its theme computes them. theme.ts writes them on the
 * document's root; they are read back and taken off at once, before any paint, so the portal's own
 * colours never change.
 */
function captureColours(colour: string | undefined): Record<string, string> {
  const root = document.documentElement.style;
  applyBrand(colour);
  const colours = Object.fromEntries(BRAND_PROPERTIES.map((name) => [name, root.getPropertyValue(name)]));
  for (const name of BRAND_PROPERTIES) root.removeProperty(name);
  return colours;
}

export type PreviewScreen = 'welcome' | number;

export function CapturePreview({ persona, screen }: { persona: Persona; screen: PreviewScreen }) {
  const host = useRef<HTMLDivElement>(null);
  const mount = useRef<HTMLDivElement>(undefined);

  useEffect(() => {
    const shadow = host.current!.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = PREVIEW_STYLES;
    const screenRoot = document.createElement('div');
    screenRoot.className = 'screen';
    shadow.append(style, screenRoot);
    mount.current = screenRoot;
    return () => render(null, screenRoot);
  }, []);

  useEffect(() => {
    if (!mount.current || !host.current) return;
    for (const [name, value] of Object.entries(captureColours(persona.branding.colour)))
      host.current.style.setProperty(name, value);
    const t = translator(CATALOGUES[chooseLanguage(persona.language, [])]);
    render(<Screen persona={persona} screen={screen} t={t} />, mount.current);
  });

  const step = typeof screen === 'number' ? persona.steps[screen] : undefined;
  return (
    <figure class="capture-preview">
      <div
        class="phone"
        ref={host}
        inert
        lang={persona.language}
        dir={direction(chooseLanguage(persona.language, []))}
        data-preview={step ? step.id : 'welcome'}
      />
      <figcaption class="muted small">
        {step
          ? `Preview of step ${(screen as number) + 1} of ${persona.steps.length}, “${step.label}”, as the customer's phone shows it.`
          : "Preview of the welcome screen, as the customer's phone shows it."}
      </figcaption>
    </figure>
  );
}

const noop = () => undefined;

function Screen({ persona, screen, t }: { persona: Persona; screen: PreviewScreen; t: Translate }) {
  if (screen === 'welcome') {
    // Only what the welcome screen reads of a customer's session: the flow, and nothing started yet.
    const session = {
      flow: { persona, uploaded: [] },
      progress: { started: false },
    } as unknown as Session;
    return <Welcome session={session} t={t} onStart={noop} />;
  }
  const step = persona.steps[screen];
  if (!step) return null;
  const video = persona.kind === 'video';
  return (
    <StepFrame
      session={{ steps: persona.steps, captures: new Map(), isHeld: () => false }}
      step={step}
      index={screen}
      total={persona.steps.length}
      t={t}
      onBack={noop}
      onSkip={step.required ? undefined : noop}
      camera="ready"
    >
      <p class="instructions">{step.instructions}</p>
      <div class="viewfinder">
        <Overlay name={step.overlay} class="overlay" />
      </div>
      <div class="controls">
        {persona.allow_gallery ? (
          <span class="round" aria-label={t('step.gallery')}>
            <span class="icon icon-gallery" aria-hidden="true" />
          </span>
        ) : (
          <span class="round-spacer" />
        )}
        <button
          type="button"
          class={video ? 'shutter video' : 'shutter'}
          aria-label={video ? t('video.record') : t('step.shutter')}
          disabled
        />
        <span class="round-spacer" />
      </div>
    </StepFrame>
  );
}
