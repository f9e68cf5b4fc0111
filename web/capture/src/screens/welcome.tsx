// The first screen: who asks, what it takes, three tips, and one button.
import { useFocusHeading } from '../hooks.js';
import type { Translate } from '../i18n/index.js';
import type { Session } from '../session.js';

/** Minutes a customer needs per photo, from taking to moving to the next angle. */
const MINUTES_PER_PHOTO = 0.5;

export function Welcome({ session, t, onStart }: { session: Session; t: Translate; onStart: () => void }) {
  const heading = useFocusHeading();
  const { persona } = session.flow;
  const name = persona.branding.name ?? persona.name;
  const photos = persona.steps.length;
  const resuming = session.progress.started || session.flow.uploaded.length > 0;
  return (
    <main class="page welcome">
      <header class="brand">
        {persona.branding.logoUrl && <img class="logo" src={persona.branding.logoUrl} alt={name} />}
      </header>
      <h1 ref={heading} tabIndex={-1}>
        {persona.kind === 'video'
          ? t('welcome.video', { name })
          : photos === 1
            ? t('welcome.photo', { name })
            : t('welcome.photos', { name, count: photos })}
      </h1>
      <p class="lead">
        {persona.kind === 'photo'
          ? t('welcome.photosTime', { minutes: Math.max(2, Math.ceil(photos * MINUTES_PER_PHOTO)) })
          : t('welcome.videoTime', {
              min: persona.video_min_seconds ?? 0,
              max: persona.video_max_seconds ?? 120,
            })}
      </p>
      <ul class="tips">
        <li class="tip-light">{t('welcome.tip.light')}</li>
        <li class="tip-lens">{t('welcome.tip.lens')}</li>
        <li class="tip-frame">{t('welcome.tip.frame')}</li>
      </ul>
      {persona.ask_location && <p class="note">{t('welcome.location')}</p>}
      <div class="actions">
        <button type="button" class="primary big" onClick={onStart}>
          {resuming ? t('welcome.resume') : t('welcome.start')}
        </button>
      </div>
    </main>
  );
}
