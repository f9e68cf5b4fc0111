// The photo just taken, with the server's quality verdict in plain words: retake, use it, or (where the
// step allows) keep a photo that failed.
import { useEffect, useState } from 'preact/hooks';
import { checkQuality, type QualityCheck, type Step } from '../api.js';
import { useObjectUrl } from '../hooks.js';
import type { MessageKey, Translate } from '../i18n/index.js';
import type { PhotoTaken, Session } from '../session.js';

type Verdict = 'checking' | 'unchecked' | QualityCheck;

/** The first reason a photo fails, in the order a customer can best act on. */
export function problemOf(quality: QualityCheck): MessageKey | undefined {
  if (!quality.resolution.pass) return 'preview.small';
  if (!quality.exposure.pass)
    return quality.exposure.state === 'dark' ? 'preview.dark' : 'preview.overexposed';
  if (!quality.blur.pass) return 'preview.blur';
  return undefined;
}

/**
 * A check that has not answered by then (a stalled uplink, a server too busy) is given up: the photo may
 * be kept unchecked rather than the person wait with the button disabled. An answer after it still shows.
 */
const CHECK_GIVEN_UP_MS = 15_000;

/** How the verdict looks: green only for a photo the check found good (not one it could not check). */
const verdictLook = (verdict: Verdict, problem: MessageKey | undefined) =>
  problem ? 'bad' : typeof verdict === 'object' ? 'good' : verdict === 'unchecked' ? 'unknown' : 'wait';

export function PhotoPreview(props: {
  session: Session;
  step: Step;
  t: Translate;
  photo: PhotoTaken;
  /** The camera focuses where the picture is tapped: the blur advice may say so. */
  canFocus: boolean;
  onRetake: () => void;
  /** Keeps the photo; `warning` is the advice shown, when the person keeps it despite that. */
  onUse: (warning?: MessageKey) => Promise<void>;
}) {
  const { photo, t } = props;
  const url = useObjectUrl(photo.blob);
  const [verdict, setVerdict] = useState<Verdict>('checking');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    const givenUp = setTimeout(
      () => live && setVerdict((now) => (now === 'checking' ? 'unchecked' : now)),
      CHECK_GIVEN_UP_MS,
    );
    photo.preview
      .then((preview) => checkQuality(props.session.token, preview, photo.image))
      .then(
        (quality) => live && setVerdict(quality),
        () => live && setVerdict('unchecked'),
      )
      .finally(() => clearTimeout(givenUp));
    return () => {
      live = false;
      clearTimeout(givenUp);
    };
  }, [photo]);

  const found = typeof verdict === 'object' ? problemOf(verdict) : undefined;
  const problem = found === 'preview.blur' && props.canFocus ? 'preview.blurFocus' : found;
  const mayKeep = props.step.accept_poor_quality !== false;
  const use = async () => {
    setSaving(true);
    await props.onUse(problem);
  };

  return (
    <section
      class="preview"
      aria-labelledby="preview-title"
      data-verdict={problem ? 'problem' : typeof verdict === 'string' ? verdict : 'good'}
    >
      <h2 id="preview-title" class="visually-hidden">
        {t('preview.title')}
      </h2>
      <div class="viewfinder">{url && <img src={url} alt={props.step.label} />}</div>
      <div class={`verdict ${verdictLook(verdict, problem)}`} role="status">
        {verdict === 'checking' && t('preview.checking')}
        {verdict === 'unchecked' && t('preview.unchecked')}
        {typeof verdict === 'object' && (problem ? t(problem) : t('preview.good'))}
        {problem && !mayKeep && <strong> {t('preview.retakeNeeded')}</strong>}
      </div>
      <div class="actions row">
        <button type="button" class={problem ? 'primary' : 'secondary'} onClick={props.onRetake}>
          {t('preview.retake')}
        </button>
        {(!problem || mayKeep) && (
          <button
            type="button"
            class={problem ? 'secondary' : 'primary'}
            disabled={saving || verdict === 'checking'}
            onClick={() => void use()}
          >
            {problem ? t('preview.keep') : t('preview.use')}
          </button>
        )}
      </div>
    </section>
  );
}
