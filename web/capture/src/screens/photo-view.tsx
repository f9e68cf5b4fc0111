// A kept photo opened from the review list, over the whole screen, until the person closes it.
import { useEffect, useRef } from 'preact/hooks';
import { useObjectUrl } from '../hooks.js';
import type { Translate } from '../i18n/index.js';

export function PhotoView(props: { label: string; photo: Blob | null; t: Translate; onClose: () => void }) {
  const url = useObjectUrl(props.photo);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && props.onClose();
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="photo-view" role="dialog" aria-modal="true" aria-label={props.label}>
      {url && <img src={url} alt={props.label} />}
      <button ref={close} type="button" class="secondary big" onClick={props.onClose}>
        {props.t('review.closePhoto')}
      </button>
    </div>
  );
}
