// Every step with its photo and where its upload stands, the overall progress, and the send button,
// enabled once the server holds every required step.
import { useState } from 'preact/hooks';
import { ApiError, LinkError, type LinkProblem } from '../api.js';
import { useFocusHeading, useObjectUrl, useOffline } from '../hooks.js';
import type { Translate } from '../i18n/index.js';
import type { Session } from '../session.js';
import type { UploadState } from '../uploads.js';
import { PhotoView } from './photo-view.js';

export function Review(props: {
  session: Session;
  t: Translate;
  onTake: (index: number) => void;
  onSubmitted: () => void;
  onGone: (problem: LinkProblem) => void;
}) {
  const { session, t } = props;
  const heading = useFocusHeading();
  const offline = useOffline();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [opened, setOpened] = useState<{ label: string; photo: Blob | null }>();
  const steps = session.steps;
  const held = steps.filter((s) => session.isHeld(s.id)).length;
  const taken = steps.filter((s) => session.captures.has(s.id) || session.isHeld(s.id)).length;
  const { sent, total } = session.queue.totals();
  const missing = session.missing();
  const ready = session.canSubmit();

  const send = async () => {
    setSending(true);
    setFailure(undefined);
    try {
      await session.submit();
      props.onSubmitted();
    } catch (error) {
      if (error instanceof LinkError && error.problem !== 'network') return props.onGone(error.problem);
      setFailure(error instanceof ApiError ? error.message : t('review.sendFailed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <main class="page review">
      <h1 ref={heading} tabIndex={-1}>
        {t('review.title')}
      </h1>
      <div class="overall">
        <p role="status">{t('review.overall', { done: held, total: Math.max(taken, held) })}</p>
        <progress
          max={Math.max(1, taken)}
          value={taken === 0 ? 0 : held + (total === 0 ? 0 : (sent / total) * (taken - held))}
          aria-label={t('review.overall', { done: held, total: Math.max(taken, held) })}
        />
      </div>
      <ul class="items">
        {steps.map((step, index) => (
          <Item
            key={step.id}
            label={step.label}
            thumbnail={session.captures.get(step.id)?.thumbnail ?? null}
            warning={session.captures.get(step.id)?.warning !== undefined}
            onOpen={() => {
              const capture = session.captures.get(step.id);
              // The photo itself while the phone still has it, its thumbnail once the server holds it.
              setOpened({ label: step.label, photo: capture?.blob ?? capture?.thumbnail ?? null });
            }}
            state={session.queue.state(step.id)}
            skipped={session.progress.skipped.includes(step.id)}
            taken={session.captures.has(step.id) || session.isHeld(step.id)}
            offline={offline}
            t={t}
            onTake={() => props.onTake(index)}
          />
        ))}
      </ul>
      {missing.length > 0 && (
        <p class="note">{t('review.missing', { steps: missing.map((s) => s.label).join(', ') })}</p>
      )}
      {missing.length === 0 && !ready && <p class="note">{t('review.waitUploads')}</p>}
      {failure && (
        <p class="alert" role="alert">
          {failure}
        </p>
      )}
      {opened && <PhotoView {...opened} t={t} onClose={() => setOpened(undefined)} />}
      <div class="actions sticky">
        <button type="button" class="primary big" disabled={!ready || sending} onClick={() => void send()}>
          {sending ? t('review.sending') : t('review.send')}
        </button>
      </div>
    </main>
  );
}

function Item(props: {
  label: string;
  thumbnail: Blob | null;
  /** Kept despite the quality check's advice. */
  warning: boolean;
  onOpen: () => void;
  state: UploadState | undefined;
  skipped: boolean;
  taken: boolean;
  offline: boolean;
  t: Translate;
  onTake: () => void;
}) {
  const { t, state } = props;
  const url = useObjectUrl(props.thumbnail);
  let status: string;
  if (!props.taken) status = props.skipped ? t('review.skipped') : t('review.notTaken');
  else if (props.offline && state?.kind !== 'done') status = t('review.offline');
  else if (!state || state.kind === 'waiting') status = t('review.waiting');
  else if (state.kind === 'uploading')
    status = t('review.uploading', { percent: Math.floor((state.sent / Math.max(1, state.total)) * 100) });
  else if (state.kind === 'retrying') status = t('review.retrying');
  else if (state.kind === 'refused') status = t('review.refused', { reason: state.reason });
  else status = t('review.uploaded');
  return (
    <li class={`item ${state?.kind ?? (props.taken ? 'waiting' : 'empty')}`}>
      {url ? (
        <button
          type="button"
          class="thumb"
          aria-label={t('review.openPhoto', { step: props.label })}
          onClick={props.onOpen}
        >
          <img src={url} alt="" />
        </button>
      ) : (
        <div class="thumb" aria-hidden="true" />
      )}
      <div class="item-text">
        <p class="item-label">{props.label}</p>
        <p class="item-status">{status}</p>
        {props.taken && props.warning && <p class="item-warning">{t('review.keptWarning')}</p>}
      </div>
      <button
        type="button"
        class="secondary small"
        aria-label={`${props.taken ? t('review.retake') : t('review.take')}: ${props.label}`}
        onClick={props.onTake}
      >
        {props.taken ? t('review.retake') : t('review.take')}
      </button>
    </li>
  );
}
