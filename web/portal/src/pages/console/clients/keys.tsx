// A client's API keys: the live ones by their prefix, one more (a second system gets its own key),
// a rotation (a new key; the others stop after a grace period, so integrators switch without downtime)
// and revoking one at once. A new key is shown once, with a copy button.
import { useState } from 'preact/hooks';
import { api, errorText } from '../../../api.js';
import { ErrorNotice } from '../../../components/notices.js';
import { SecretOnce } from '../../../components/secret-once.js';
import { when } from '../../../format.js';
import type { ClientTabProps } from './detail.js';
import { DEFAULT_GRACE, GRACE_CHOICES } from './types.js';

export function ApiKeys({ client, reload }: ClientTabProps) {
  const [fresh, setFresh] = useState<{ key: string; note: string }>();
  const [confirming, setConfirming] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const params = { path: { id: client.id } };

  const run = async (action: () => Promise<void>) => {
    setError(undefined);
    setNotice(undefined);
    try {
      await action();
      await reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const create = () =>
    run(async () => {
      const made = await api.POST('/portal/api/clients/{id}/keys', { params });
      setFresh({ key: made.key, note: 'The other keys keep working.' });
    });
  const rotate = (event: Event) => {
    event.preventDefault();
    const grace = Number(new FormData(event.currentTarget as HTMLFormElement).get('grace'));
    return run(async () => {
      const made = await api.POST('/portal/api/clients/{id}/keys/rotate', {
        params,
        body: { grace_seconds: grace },
      });
      setFresh({
        key: made.key,
        note:
          grace === 0
            ? 'The other keys stopped working now.'
            : `The other keys stop working at ${when(made.others_expire_at)}.`,
      });
    });
  };
  const revoke = (prefix: string) =>
    run(async () => {
      const path = { id: client.id, prefix };
      await api.DELETE('/portal/api/clients/{id}/keys/{prefix}', { params: { path } });
      setConfirming(undefined);
      setNotice(`Key ${prefix}… is revoked: it stopped working now.`);
    });

  return (
    <>
      {fresh && (
        <section class="panel once" aria-labelledby="new-key-title" role="status">
          <h2 id="new-key-title">New API key</h2>
          <p>
            Copy it now: <strong>it is not shown again</strong>. {fresh.note}
          </p>
          <SecretOnce id="new-key" label="API key" value={fresh.key} />
          <button type="button" class="quiet" onClick={() => setFresh(undefined)}>
            I have copied it
          </button>
        </section>
      )}
      <section class="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">Live API keys</h2>
        <p class="muted">
          Integrations authenticate with a key (<code>POST /api/authenticate</code>). Walkaround keeps no copy
          of a key, only its start, shown here so that you can tell the keys apart.
        </p>
        {client.keys.length === 0 ? (
          <p class="notice">This client has no live key: its integrations cannot call the API.</p>
        ) : (
          <table class="inspections keys">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Stops working</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {client.keys.map((key) => (
                <tr key={key.prefix}>
                  <td>
                    <code>{key.prefix}…</code>
                    {fresh?.key.startsWith(key.prefix) && <span class="status delivery-delivered">New</span>}
                  </td>
                  <td>{when(key.created_at)}</td>
                  <td>{key.last_used_at ? when(key.last_used_at) : <span class="muted">Never</span>}</td>
                  <td>{key.expires_at ? when(key.expires_at) : <span class="muted">When revoked</span>}</td>
                  <td>
                    <div class="row-actions">
                      {confirming === key.prefix ? (
                        <>
                          <button type="button" class="danger" onClick={() => void revoke(key.prefix)}>
                            Revoke now
                          </button>
                          <button type="button" class="quiet" onClick={() => setConfirming(undefined)}>
                            Keep it
                          </button>
                        </>
                      ) : (
                        <button type="button" class="quiet" onClick={() => setConfirming(key.prefix)}>
                          Revoke<span class="sr-only"> {key.prefix}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {notice && <p role="status">{notice}</p>}
        <ErrorNotice text={error} />
      </section>
      <div class="lower key-actions">
        <section class="panel" aria-labelledby="add-key-title">
          <h2 id="add-key-title">Add a key</h2>
          <p class="muted">One more key, the others unchanged: for another system of the client.</p>
          <button type="button" class="primary" onClick={() => void create()}>
            Create a key
          </button>
        </section>
        <form class="panel" aria-labelledby="rotate-key-title" onSubmit={(e) => void rotate(e)}>
          <h2 id="rotate-key-title">Rotate keys</h2>
          <p class="muted">A new key replaces every live one, after a grace period to switch over.</p>
          <label for="key-grace">The old keys stop working</label>
          <div class="share-form">
            <select id="key-grace" name="grace">
              {GRACE_CHOICES.map(([seconds, text]) => (
                <option key={seconds} value={String(seconds)} selected={seconds === DEFAULT_GRACE}>
                  {text}
                </option>
              ))}
            </select>
            <button type="submit" class="primary">
              Rotate keys
            </button>
          </div>
        </form>
      </div>
    </>
  );
}
