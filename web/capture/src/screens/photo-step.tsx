// One photo step: the live rear camera with the step's outline over it, a big shutter within thumb's
// reach, the torch where there is one, the gallery where the persona allows it; when the camera cannot
// be used, the phone's own camera through a file input. Then the photo's preview and quality check.
// A step already taken (the customer came back to it) shows its kept photo first: keep it, or retake.
import { useState } from 'preact/hooks';
import { usePortrait } from '../hooks.js';
import { CAR_ANGLES, Overlay } from '../overlays/index.js';
import type { PhotoTaken } from '../session.js';
import type { CaptureMeta } from '../storage.js';
import { useLiveHint } from '../live-hints.js';
import { AllowCamera } from './allow-camera.js';
import { KeptPhoto } from './kept-photo.js';
import { PhotoPreview } from './photo-preview.js';
import { sourceOfFile, StepFrame, useStepCamera, type StepProps } from './step-frame.js';

/** The customer chose to take the car's photos upright: not asked to turn the phone again in this visit. */
let stayUpright = false;

export function PhotoStep(props: StepProps) {
  const { session, step, t } = props;
  const [torch, setTorch] = useState(false);
  const [taken, setTaken] = useState<{ photo: PhotoTaken; meta: CaptureMeta }>();
  const [kept, setKept] = useState(
    () => !props.retake && (session.captures.has(step.id) || session.isHeld(step.id)),
  );
  const [busy, setBusy] = useState(false);
  const [focus, setFocus] = useState<{ x: number; y: number; at: number }>();
  const [refused, setRefused] = useState(false);
  const { camera, host, ready, state } = useStepCamera('photo', true, !taken && !kept);
  const hint = useLiveHint(host, ready && !taken && !kept && typeof camera !== 'string');
  const portrait = usePortrait();
  const [upright, setUpright] = useState(stayUpright);
  // The whole-vehicle outlines are drawn for a landscape picture; the close-ups fit either way.
  const askToTurn = portrait && !upright && CAR_ANGLES.includes(step.overlay);
  const allowGallery = session.flow.persona.allow_gallery === true;

  const take = async (blob: Blob, source: CaptureMeta['source']) => {
    if (source === 'gallery' && !allowGallery) return setRefused(true);
    setBusy(true);
    try {
      setTaken({ photo: await session.takePhoto(blob), meta: session.metaFor(source) });
      setRefused(false);
    } finally {
      setBusy(false);
    }
  };

  const shoot = async () => {
    const video = host.current?.querySelector('video');
    if (typeof camera === 'string' || !video) return;
    setBusy(true);
    try {
      await take(await camera.takePhoto(video), 'camera');
    } finally {
      setBusy(false);
    }
  };

  /** A tap on the picture focuses there (where the camera can; see camera.ts), marked by a ring. */
  const focusOn = (event: MouseEvent) => {
    const video = host.current?.querySelector('video');
    if (typeof camera === 'string' || !camera.canFocus || !video) return;
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const point = picturePoint(video, box, event.clientX, event.clientY);
    if (!point) return;
    setFocus({ x: event.clientX - box.left, y: event.clientY - box.top, at: Date.now() });
    void camera.focusAt(point.x, point.y).catch(() => undefined);
  };

  const picked = (source: 'camera' | 'gallery' | 'file') => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void take(file, source === 'file' ? sourceOfFile(file) : source);
  };

  const frame = {
    session,
    step,
    index: props.index,
    total: session.steps.length,
    t,
    onBack: taken ? () => setTaken(undefined) : props.onBack,
    onSkip: step.required || taken || kept ? undefined : () => void session.skip(step).then(props.onDone),
    camera: state,
  };

  if (kept)
    return (
      <StepFrame {...frame}>
        <KeptPhoto
          session={session}
          step={step}
          t={t}
          onKeep={props.onDone}
          onRetake={() => setKept(false)}
        />
      </StepFrame>
    );

  if (taken)
    return (
      <StepFrame {...frame}>
        <PhotoPreview
          session={session}
          step={step}
          t={t}
          photo={taken.photo}
          canFocus={typeof camera !== 'string' && camera.canFocus}
          onRetake={() => setTaken(undefined)}
          onUse={async (warning) => {
            await session.keepPhoto(step, taken.photo, taken.meta, warning);
            props.onDone();
          }}
        />
      </StepFrame>
    );

  const torchButton =
    typeof camera !== 'string' && camera.hasTorch ? (
      <button
        type="button"
        class="round"
        aria-pressed={torch}
        aria-label={torch ? t('step.torchOff') : t('step.torchOn')}
        onClick={() => void camera.setTorch(!torch).then(() => setTorch(!torch))}
      >
        <span class="icon icon-torch" aria-hidden="true" />
      </button>
    ) : (
      <span class="round-spacer" />
    );
  const galleryButton = allowGallery ? (
    <label class="round" aria-label={t('step.gallery')}>
      <span class="icon icon-gallery" aria-hidden="true" />
      <input type="file" accept="image/*" class="hidden-input" onChange={picked('gallery')} />
    </label>
  ) : (
    <span class="round-spacer" />
  );

  return (
    <StepFrame {...frame}>
      <p class="instructions">{step.instructions}</p>
      {refused && (
        <p class="alert" role="alert">
          {t('step.galleryRefused')}
        </p>
      )}
      {camera === 'unavailable' ? (
        <div class="fallback">
          <Overlay name={step.overlay} class="overlay static" />
          <p>{t('step.cameraBlocked')}</p>
          <AllowCamera t={t} />
          <label class="button primary big">
            {t('step.openCamera')}
            <input
              type="file"
              accept="image/*"
              capture="environment"
              class="hidden-input"
              onChange={picked('file')}
            />
          </label>
          {allowGallery && (
            <label class="button secondary">
              {t('step.gallery')}
              <input type="file" accept="image/*" class="hidden-input" onChange={picked('gallery')} />
            </label>
          )}
        </div>
      ) : (
        <>
          <div class="viewfinder">
            <div class="live" ref={host} onClick={focusOn} />
            <Overlay name={step.overlay} class="overlay" />
            {focus && (
              <span
                key={focus.at}
                class="focus-ring"
                aria-hidden="true"
                style={{ left: `${focus.x}px`, top: `${focus.y}px` }}
              />
            )}
            {!ready && <p class="camera-status">{t('step.cameraStarting')}</p>}
            <p class="live-hint" role="status" data-hint={hint}>
              {hint && !askToTurn && t(`hint.${hint}`)}
            </p>
            {askToTurn && (
              <div class="turn">
                <span class="turn-icon" aria-hidden="true" />
                <p>{t('step.turnSideways')}</p>
                <button
                  type="button"
                  class="secondary small"
                  onClick={() => {
                    stayUpright = true;
                    setUpright(true);
                  }}
                >
                  {t('step.stayUpright')}
                </button>
              </div>
            )}
          </div>
          <div class="controls">
            {galleryButton}
            <button
              type="button"
              class="shutter"
              aria-label={t('step.shutter')}
              disabled={!ready || busy}
              onClick={() => void shoot()}
            />
            {torchButton}
          </div>
        </>
      )}
    </StepFrame>
  );
}

/**
 * Where a tap at `clientX`, `clientY` lands on the picture itself (0–1 from its top left), the video
 * being drawn whole inside `box` (object-fit: contain); nothing when the tap is on the bars around it.
 */
function picturePoint(video: HTMLVideoElement, box: DOMRect, clientX: number, clientY: number) {
  if (!video.videoWidth || !video.videoHeight) return undefined;
  const scale = Math.min(box.width / video.videoWidth, box.height / video.videoHeight);
  const width = video.videoWidth * scale;
  const height = video.videoHeight * scale;
  const x = (clientX - box.left - (box.width - width) / 2) / width;
  const y = (clientY - box.top - (box.height - height) / 2) / height;
  return x >= 0 && x <= 1 && y >= 0 && y <= 1 ? { x, y } : undefined;
}
