// "Send me a test link": a real link to the saved flow, as its QR code to scan with a phone, and as a URL
// to copy. The link is shown once (only its hash is kept); unsaved changes are saved first, so the phone
// shows what the editor shows.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, type Answer } from '../../../api.js';
import { ErrorNotice } from '../../../components/notices.js';
import { when } from '../../../format.js';

export function TestLinkPanel(props: { personaId: number; dirty: boolean; save: () => Promise<boolean> }) {
  const [link, setLink] = useState<Answer<'/portal/api/personas/{id}/test-link', 'post'>>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const shown = useRef<HTMLDivElement>(null);
  // The code appears below the button, often below the fold: bring it into view to be scanned.
  useEffect(() => shown.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }), [link]);

  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      if (props.dirty && !(await props.save())) return;
      const params = { path: { id: String(props.personaId) } };
      setLink(await api.POST('/portal/api/personas/{id}/test-link', { params }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel test-link" aria-labelledby="test-link-title">
      <h2 id="test-link-title">Try it on your phone</h2>
      <p class="muted small">
        A real inspection link to this flow: scan the code with your phone's camera. Whatever you send through
        it becomes an inspection with the case id <code>test-persona-{props.personaId}</code>, and your
        webhook hears of it like any other.
      </p>
      <button type="button" class="primary" disabled={busy} onClick={() => void create()}>
        {props.dirty ? 'Save, then send me a test link' : 'Send me a test link'}
      </button>
      <ErrorNotice text={error} />
      {link && (
        <div class="created" role="status" ref={shown}>
          <img
            class="qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr_svg)}`}
            alt="QR code of the test link"
            width={200}
            height={200}
          />
          <label for="test-link-url">The link (shown only now; valid until {when(link.expires_at)})</label>
          <input id="test-link-url" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
    </section>
  );
}
