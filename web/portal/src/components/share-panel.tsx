// Share links: a read-only report for someone without an account, expiring, revocable, optionally with
// faces and plates blurred. A new link is shown once, with a copy button.
import { useState } from 'preact/hooks';
import { api, errorText, type Answer } from '../api.js';
import { useLoad } from '../data.js';
import { when } from '../format.js';
import { ErrorNotice } from './notices.js';

export function SharePanel({ inspectionId, mayChange }: { inspectionId: string; mayChange: boolean }) {
  const params = { path: { id: inspectionId } };
  const list = useLoad(() => api.GET('/portal/api/inspections/{id}/shares', { params }), [inspectionId]);
  const shares = list.data?.shares ?? [];
  const [created, setCreated] = useState<Answer<'/portal/api/inspections/{id}/shares', 'post'>>();
  const [error, setError] = useState<string>();
  const [copied, setCopied] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(undefined);
    try {
      setCreated(
        await api.POST('/portal/api/inspections/{id}/shares', {
          params,
          body: {
            days: Number(form.get('days')),
            blur: form.get('blur') === 'on',
            details: form.get('details') === 'on',
          },
        }),
      );
      setCopied(false);
      await list.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const revoke = async (shareId: string) => {
    await api.DELETE('/portal/api/shares/{shareId}', { params: { path: { shareId } } });
    await list.reload();
  };

  return (
    <section class="panel" aria-labelledby="share-title">
      <h2 id="share-title">Share</h2>
      {mayChange && (
        <form class="share-form" onSubmit={(e) => void create(e)}>
          <label for="share-days">Valid for</label>
          <select id="share-days" name="days">
            <option value="1">1 day</option>
            <option value="7" selected>
              7 days
            </option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
          </select>
          <label class="check">
            <input type="checkbox" name="blur" /> Blur faces and plates
          </label>
          <label class="check">
            <input type="checkbox" name="details" /> Include fraud signals and photo details (EXIF, hashes,
            readings, file names)
          </label>
          <button type="submit" class="primary">
            Create share link
          </button>
        </form>
      )}
      {created?.url && (
        <div class="created" role="status">
          <p>Copy this link now; it is not shown again.</p>
          <input
            readOnly
            value={created.url}
            aria-label="Share link"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button
            type="button"
            class="quiet"
            onClick={() => void navigator.clipboard?.writeText(created.url).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      <ErrorNotice text={error} />
      <ul class="shares">
        {shares.map((s) => (
          <li key={s.id}>
            {s.revoked_at
              ? 'Revoked'
              : Date.parse(s.expires_at) < Date.now()
                ? 'Expired'
                : `Until ${when(s.expires_at)}`}
            {s.blur ? ' · blurred' : ''}
            {s.details ? ' · with details' : ''}
            <span class="muted small"> · by {s.created_by ?? 'a former user'}</span>
            {mayChange && !s.revoked_at && Date.parse(s.expires_at) > Date.now() && (
              <button type="button" class="quiet" onClick={() => void revoke(s.id)}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
