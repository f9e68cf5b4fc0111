// Why the link cannot be used, in the customer's words, and what to do next: never a blank page.
import type { LinkProblem } from '../api.js';
import { useFocusHeading } from '../hooks.js';
import type { Translate } from '../i18n/index.js';

export function Problem(props: { problem: LinkProblem; t: Translate; onRetry: () => void }) {
  const { problem, t } = props;
  const heading = useFocusHeading();
  return (
    <main class="page center" data-problem={problem}>
      <div class={`badge badge-${problem}`} aria-hidden="true" />
      <h1 ref={heading} tabIndex={-1}>
        {t(`state.${problem}.title`)}
      </h1>
      <p>{t(`state.${problem}.body`)}</p>
      {problem === 'network' && (
        <button type="button" class="primary" onClick={props.onRetry}>
          {t('state.retry')}
        </button>
      )}
    </main>
  );
}
