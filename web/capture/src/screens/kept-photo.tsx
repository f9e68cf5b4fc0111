// A step already taken, as the customer finds it when going back (or opening it from the review): the
// photo the phone kept, marked as taken, with Keep (on to the next step) and Retake (the camera).
import type { Step } from '../api.js';
import { useObjectUrl } from '../hooks.js';
import type { Translate } from '../i18n/index.js';
import type { Session } from '../session.js';

export function KeptPhoto(props: {
  session: Session;
  step: Step;
  t: Translate;
  onKeep: () => void;
  onRetake: () => void;
}) {
  const { session, step, t } = props;
  const capture = session.captures.get(step.id);
  // The full photo until it is uploaded, then the thumbnail the phone keeps for the list.
  const url = useObjectUrl(capture?.blob ?? capture?.thumbnail);
  return (
    <section class="preview kept" aria-labelledby="kept-title">
      <h2 id="kept-title" class="visually-hidden">
        {t('preview.title')}
      </h2>
      <div class="viewfinder">{url && <img src={url} alt={step.label} />}</div>
      <p class="verdict good taken">
        <span class="tick" aria-hidden="true" /> {t('step.done')}
      </p>
      <div class="actions row">
        <button type="button" class="secondary" onClick={props.onRetake}>
          {t('preview.retake')}
        </button>
        <button type="button" class="primary" onClick={props.onKeep}>
          {t('step.keep')}
        </button>
      </div>
    </section>
  );
}
