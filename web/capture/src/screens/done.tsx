import { useFocusHeading } from '../hooks.js';
import type { Translate } from '../i18n/index.js';

export function Done({ t, name }: { t: Translate; name: string }) {
  const heading = useFocusHeading();
  return (
    <main class="page center">
      <div class="badge badge-done" aria-hidden="true" />
      <h1 ref={heading} tabIndex={-1}>
        {t('done.title')}
      </h1>
      <p>{t('done.body', { name })}</p>
    </main>
  );
}
