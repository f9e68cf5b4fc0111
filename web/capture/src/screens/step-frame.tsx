// What every step screen shares: where the customer is, what to do, a way back, and skipping an optional
// step.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Step } from '../api.js';
import { acquireCamera, openedCamera, type Camera } from '../camera.js';
import { useFocusHeading, useObjectUrl } from '../hooks.js';
import type { Translate } from '../i18n/index.js';
import { Overlay } from '../overlays/index.js';
import type { Session } from '../session.js';
import { parkLive, showLive, showsPicture } from '../live-video.js';

export interface StepProps {
  session: Session;
  step: Step;
  index: number;
  t: Translate;
  onDone: () => void;
  onBack: () => void;
  /** Straight to the camera (the review's Retake), not the kept photo first. */
  retake?: boolean;
}

/** What the step strip reads of the session (the portal's preview gives no more). */
export type StripSession = Pick<Session, 'steps' | 'captures' | 'isHeld'>;

export function StepFrame(props: {
  session: StripSession;
  step: Step;
  index: number;
  total: number;
  t: Translate;
  onBack: () => void;
  onSkip?: (() => void) | undefined;
  camera: string;
  children: ComponentChildren;
}) {
  const { step, t } = props;
  const heading = useFocusHeading();
  return (
    <main class="step" data-step={step.id} data-camera={props.camera}>
      <header class="step-head">
        <button type="button" class="back" onClick={props.onBack} aria-label={t('step.back')}>
          <span aria-hidden="true">‹</span>
        </button>
        <div class="step-title">
          <p class="progress-text">
            {t('step.progress', { n: props.index + 1, total: props.total })}
            {!step.required && <span class="tag">{t('step.optional')}</span>}
          </p>
          <h1 ref={heading} tabIndex={-1}>
            {step.label}
          </h1>
        </div>
      </header>
      <StepStrip session={props.session} current={props.index} />
      {props.children}
      {props.onSkip && (
        <button type="button" class="link skip" onClick={props.onSkip}>
          {t('step.skip')}
        </button>
      )}
    </main>
  );
}

/**
 * Every step of the flow in a row: the photo kept for each one taken, the outline it asks for (what the
 * picture should look like) for the others, the current one marked. The words say the same ("Step n of
 * total"), so the strip is hidden from screen readers.
 */
function StepStrip({ session, current }: { session: StripSession; current: number }) {
  return (
    <ol class="strip" aria-hidden="true">
      {session.steps.map((step, index) => (
        <StripItem
          key={step.id}
          overlay={step.overlay}
          thumbnail={session.captures.get(step.id)?.thumbnail ?? null}
          taken={session.captures.has(step.id) || session.isHeld(step.id)}
          current={index === current}
        />
      ))}
    </ol>
  );
}

function StripItem(props: { overlay: string; thumbnail: Blob | null; taken: boolean; current: boolean }) {
  const url = useObjectUrl(props.thumbnail);
  const state = props.current ? 'current' : props.taken ? 'taken' : 'todo';
  return (
    <li class={`strip-item ${state}`}>
      {url ? <img src={url} alt="" /> : <Overlay name={props.overlay} class="strip-art" />}
    </li>
  );
}

/** Whether a picked file was taken just now (the camera) or long ago (the gallery). */
export const sourceOfFile = (file: File): 'camera' | 'gallery' =>
  Date.now() - file.lastModified < 5 * 60_000 ? 'camera' : 'gallery';

export type CameraState = 'starting' | 'unavailable' | Camera;

/**
 * The rear camera for a step (the shared one, see camera.ts), taken when the screen shows and handed
 * back when it goes, its live picture in the one video element of the flow (see live-video.ts), put
 * into `host` whenever it is drawn (again after a preview replaced it). A step after the first finds
 * the camera open and the picture playing: its shutter works in its first frame. `usable` false: the
 * fallback input. `showing`: a value that changes when `host` is drawn anew (compared by identity, so
 * not a new object every render, which would move the video out and back in at each one).
 */
export function useStepCamera(kind: 'photo' | 'video', usable: boolean, showing: unknown) {
  const [camera, setCamera] = useState<CameraState>(() =>
    usable ? (openedCamera(kind) ?? 'starting') : 'unavailable',
  );
  const [ready, setReady] = useState(() => typeof camera !== 'string' && showsPicture(camera.stream));
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!usable) return setCamera('unavailable');
    let live = true;
    const taken = acquireCamera(kind);
    taken.camera.then(
      (c) => live && setCamera(c),
      () => live && setCamera('unavailable'),
    );
    return () => {
      live = false;
      taken.release();
    };
  }, []);

  useLayoutEffect(() => {
    const element = host.current;
    if (typeof camera === 'string' || !element) return;
    const video = showLive(element, camera.stream);
    if (showsPicture(camera.stream)) setReady(true);
    const onData = () => setReady(true);
    video.addEventListener('loadeddata', onData);
    return () => {
      video.removeEventListener('loadeddata', onData);
      parkLive(element);
    };
  }, [camera, showing]);

  const state = typeof camera === 'string' ? camera : ready ? 'ready' : 'starting';
  return { camera, host, ready, state };
}
