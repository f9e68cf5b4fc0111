// The walk-around video: the live rear camera, one record button, a timer against the persona's bounds,
// a warning when stopped too early, an automatic stop at the maximum; then the video to check. Without a
// usable camera (or MediaRecorder), the phone's own camera records through a file input.
import { useEffect, useState } from 'preact/hooks';
import { useObjectUrl } from '../hooks.js';
import { Overlay } from '../overlays/index.js';
import { canRecord, record, type Recording } from '../recorder.js';
import type { CaptureMeta } from '../storage.js';
import { sourceOfFile, StepFrame, useStepCamera, type StepProps } from './step-frame.js';

export function VideoStep(props: StepProps) {
  const { session, step, t } = props;
  const { video_min_seconds: min = 0, video_max_seconds: max = 120 } = session.flow.persona;
  const minSeconds = min ?? 0;
  const maxSeconds = max ?? 120;
  const [recording, setRecording] = useState<{ run: Recording; started: number }>();
  const [elapsed, setElapsed] = useState(0);
  const [message, setMessage] = useState<'video.tooShort' | 'video.maxReached'>();
  const [taken, setTaken] = useState<{ blob: Blob; meta: CaptureMeta }>();
  const [saving, setSaving] = useState(false);
  const { camera, host, ready, state } = useStepCamera('video', canRecord(), taken);
  const url = useObjectUrl(taken?.blob);

  useEffect(() => {
    if (!recording) return;
    const tick = setInterval(() => {
      const seconds = Math.floor((Date.now() - recording.started) / 1000);
      setElapsed(seconds);
      if (seconds >= maxSeconds) void stop(true);
    }, 250);
    return () => clearInterval(tick);
  }, [recording]);

  const start = () => {
    if (typeof camera === 'string') return;
    setMessage(undefined);
    setElapsed(0);
    const meta = session.metaFor('camera');
    const run = record(camera.stream);
    setRecording({ run, started: Date.now() });
    void run.done.then((blob) => {
      setRecording(undefined);
      setTaken({ blob, meta });
    });
  };

  /** Stopping before the minimum keeps recording and says why: nothing filmed so far is lost. */
  const stop = async (atMaximum = false) => {
    if (!recording) return;
    const seconds = (Date.now() - recording.started) / 1000;
    if (!atMaximum && seconds < minSeconds) return setMessage('video.tooShort');
    setMessage(atMaximum ? 'video.maxReached' : undefined);
    recording.run.stop();
  };

  const picked = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) setTaken({ blob: file, meta: session.metaFor(sourceOfFile(file)) });
  };

  const frame = {
    session,
    step,
    index: props.index,
    total: session.steps.length,
    t,
    onBack: taken ? () => setTaken(undefined) : props.onBack,
    onSkip: step.required || taken ? undefined : () => void session.skip(step).then(props.onDone),
    camera: state,
  };

  if (taken)
    return (
      <StepFrame {...frame}>
        <section class="preview" aria-labelledby="video-title">
          <h2 id="video-title" class="visually-hidden">
            {t('video.title')}
          </h2>
          <div class="viewfinder">{url && <video src={url} controls playsInline />}</div>
          {message === 'video.maxReached' && (
            <p class="verdict good" role="status">
              {t('video.maxReached')}
            </p>
          )}
          <div class="actions row">
            <button type="button" class="secondary" onClick={() => setTaken(undefined)}>
              {t('video.retake')}
            </button>
            <button
              type="button"
              class="primary"
              disabled={saving}
              onClick={() => {
                setSaving(true);
                void session.keepVideo(step, taken.blob, taken.meta).then(props.onDone);
              }}
            >
              {t('video.use')}
            </button>
          </div>
        </section>
      </StepFrame>
    );

  return (
    <StepFrame {...frame}>
      <p class="instructions">{step.instructions}</p>
      {camera === 'unavailable' ? (
        <div class="fallback">
          <Overlay name={step.overlay} class="overlay static" />
          <p>{t('step.cameraBlockedVideo')}</p>
          <label class="button primary big">
            {t('step.openCamera')}
            <input
              type="file"
              accept="video/*"
              capture="environment"
              class="hidden-input"
              onChange={picked}
            />
          </label>
        </div>
      ) : (
        <>
          <div class="viewfinder">
            <div class="live" ref={host} />
            <Overlay name={step.overlay} class="overlay" />
            {recording && (
              <p class="timer" role="timer" aria-live="off">
                <span class="rec-dot" aria-hidden="true" /> {t('video.timer', { elapsed, max: maxSeconds })}
              </p>
            )}
          </div>
          {message === 'video.tooShort' && (
            <p class="alert" role="alert">
              {t('video.tooShort', { min: minSeconds })}
            </p>
          )}
          <div class="controls">
            <span class="round-spacer" />
            <button
              type="button"
              class={`shutter video ${recording ? 'recording' : ''}`}
              aria-label={recording ? t('video.stop') : t('video.record')}
              aria-pressed={recording !== undefined}
              disabled={!ready}
              onClick={() => (recording ? void stop() : start())}
            />
            <span class="round-spacer" />
          </div>
        </>
      )}
    </StepFrame>
  );
}
