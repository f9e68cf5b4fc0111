// Share links: a read-only report for someone without an account, expiring, revocable, optionally with
// faces and plates blurred. A new link is shown once, with a copy button.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, post, type Share } from '../api.js';
import { when } from '../format.js';

export function SharePanel({ inspectionId, mayChange }: { inspectionId: string; mayChange: boolean }) {
  const [shares, setShares] = useState<Share[]>([]);
  const [created, setCreated] = useState<Share>();
  const [error, setError] = useState<string>();
  const [copied, setCopied] = useState(false);
  const load = () =>
    api<{ shares: Share[] }>(`/inspections/${inspectionId}/shares`).then((r) => setShares(r.shares));
  useEffect(() => void load(), [inspectionId]);

  const create = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(undefined);
    try {
      const share = await post<Share>(`/inspections/${inspectionId}/shares`, {
        days: Number(form.get('days')),
        blur: form.get('blur') === 'on',
      });
      setCreated(share);
      setCopied(false);
      await load();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    }
  };
  const revoke = async (id: string) => {
    await api(`/shares/${id}`, { method: 'DELETE' });
    await load();
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
            onClick={() => void navigator.clipboard?.writeText(created.url!).then(() => setCopied(true))}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ul class="shares">
        {shares.map((s) => (
          <li key={s.id}>
            {s.revoked_at
              ? 'Revoked'
              : Date.parse(s.expires_at) < Date.now()
                ? 'Expired'
                : `Until ${when(s.expires_at)}`}
            {s.blur ? ' · blurred' : ''}
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
