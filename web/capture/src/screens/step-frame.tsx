// What every step screen shares: where the customer is, what to do, a way back, and skipping an optional
// step.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Step } from '../api.js';
import { acquireCamera, type Camera } from '../camera.js';
import { useFocusHeading } from '../hooks.js';
import type { Translate } from '../i18n/index.js';

export interface StepProps {
  session: import('../session.js').Session;
  step: Step;
  index: number;
  t: Translate;
  onDone: () => void;
  onBack: () => void;
}

export function StepFrame(props: {
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
      <div class="progress" aria-hidden="true">
        <div style={{ width: `${((props.index + 1) / props.total) * 100}%` }} />
      </div>
      {props.children}
      {props.onSkip && (
        <button type="button" class="link skip" onClick={props.onSkip}>
          {t('step.skip')}
        </button>
      )}
    </main>
  );
}

/** Whether a picked file was taken just now (the camera) or long ago (the gallery). */
export const sourceOfFile = (file: File): 'camera' | 'gallery' =>
  Date.now() - file.lastModified < 5 * 60_000 ? 'camera' : 'gallery';

export type CameraState = 'starting' | 'unavailable' | Camera;

/**
 * The rear camera for a step (the shared one, see camera.ts), taken when the screen shows and handed
 * back when it goes, playing in the returned video element (again after a preview replaced it).
 * `usable` false: the fallback input.
 */
export function useStepCamera(kind: 'photo' | 'video', usable: boolean, showing: unknown) {
  const [camera, setCamera] = useState<CameraState>('starting');
  const [ready, setReady] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

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

  useEffect(() => {
    if (typeof camera === 'string' || !video.current) return;
    video.current.srcObject = camera.stream;
    void video.current.play().catch(() => undefined);
  }, [camera, showing]);

  const state = typeof camera === 'string' ? camera : ready ? 'ready' : 'starting';
  return { camera, video, ready, onReady: () => setReady(true), state };
}
