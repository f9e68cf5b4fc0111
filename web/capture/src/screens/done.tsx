import { useFocusHeading } from '../hooks.js';
import type { Translate } from '../i18n/index.js';

/** The thank-you page: the case's reference to quote, and what happens next. */
export function Done(props: { t: Translate; name: string; reference?: string | null | undefined }) {
  const { t, name, reference } = props;
  const heading = useFocusHeading();
  return (
    <main class="page center">
      <div class="badge badge-done" aria-hidden="true" />
      <h1 ref={heading} tabIndex={-1}>
        {t('done.title')}
      </h1>
      <p>{t('done.body', { name })}</p>
      {reference && <p class="reference">{t('done.reference', { reference })}</p>}
      <p>{t('done.next', { name })}</p>
    </main>
  );
}
