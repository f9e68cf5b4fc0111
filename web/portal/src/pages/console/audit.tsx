// The audit log (docs/audit.md): who changed what and when, newest first, with filters; each entry opens
// to show its settings before and after. Operators see every client's, a client admin their own.
import { useEffect, useState } from 'preact/hooks';
import { api, type ApiError } from '../../api.js';
import { when } from '../../format.js';
import { consoleHref } from '../../router.js';
import type { ConsoleProps } from './props.js';

interface AuditEntry {
  id: string;
  at: string;
  actor_kind: 'user' | 'api_key' | 'cli' | 'system';
  actor: string;
  client_id: string | null;
  client_name: string | null;
  action: string;
  object_type: string;
  object_id: string;
  before: unknown;
  after: unknown;
}
interface AuditPage {
  entries: AuditEntry[];
  next_cursor: string | null;
}

const FILTERS = [
  ['action', 'Action', 'client.update'],
  ['actor', 'Who', 'e-mail or key prefix'],
  ['object_id', 'Object id', ''],
] as const;

const ACTOR_KINDS = {
  user: 'Portal user',
  api_key: 'API key',
  cli: 'Command line',
  system: 'Walkaround',
} as const;

export function AuditPage({ query, me }: ConsoleProps) {
  const [page, setPage] = useState<AuditPage | undefined>();
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    setPage(undefined);
    setMore([]);
    setError(undefined);
    api<AuditPage>(`/audit?${query}`).then(setPage, (e: ApiError) => setError(e.message));
  }, [query.toString()]);

  const loadMore = async (cursor: string) => {
    const next = new URLSearchParams(query);
    next.set('cursor', cursor);
    const loaded = await api<AuditPage>(`/audit?${next}`);
    setMore((before) => [...before, ...loaded.entries]);
    setPage((current) => current && { ...current, next_cursor: loaded.next_cursor });
  };

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const [name, value] of form)
      if (typeof value === 'string' && value.trim()) next.set(name, value.trim());
    location.hash = consoleHref('audit', undefined, next);
  };

  const entries = [...(page?.entries ?? []), ...more];
  return (
    <main class="console-page">
      <div class="page-head">
        <h1>Audit log</h1>
        <p class="muted">
          {me.user.role === 'operator'
            ? 'Every change made in the portal, with the command line or through the API, newest first.'
            : "Every change to your organisation's settings, newest first."}
        </p>
      </div>
      <form class="filters" onSubmit={submit} role="search" aria-label="Filter the audit log">
        {FILTERS.map(([name, label, placeholder]) => (
          <div class="field" key={name}>
            <label for={`audit-${name}`}>{label}</label>
            <input
              id={`audit-${name}`}
              name={name}
              defaultValue={query.get(name) ?? ''}
              placeholder={placeholder}
            />
          </div>
        ))}
        <div class="field">
          <label for="audit-from">From</label>
          <input id="audit-from" name="from" type="date" defaultValue={query.get('from') ?? ''} />
        </div>
        <div class="field">
          <label for="audit-to">To</label>
          <input id="audit-to" name="to" type="date" defaultValue={query.get('to') ?? ''} />
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Filter
          </button>
          <a class="button quiet" href={consoleHref('audit')}>
            Clear
          </a>
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!page && !error && (
        <p class="loading" role="status">
          Loading…
        </p>
      )}
      {page && entries.length === 0 && <p class="empty">No change matches these filters.</p>}
      {entries.length > 0 && (
        <ol class="audit-entries">
          {entries.map((entry) => (
            <li key={entry.id}>
              <details>
                <summary>
                  <time dateTime={entry.at}>{when(entry.at)}</time>
                  <strong>{entry.action}</strong>
                  <span>
                    {entry.object_type === 'client' && entry.client_name ? (
                      <>client {entry.client_name}</>
                    ) : (
                      <>
                        {entry.object_type.replace('_', ' ')} <code>{entry.object_id}</code>
                        {entry.client_name && <> of {entry.client_name}</>}
                      </>
                    )}
                  </span>
                  <span class="muted">
                    by {ACTOR_KINDS[entry.actor_kind]}
                    {entry.actor_kind === 'user' || entry.actor_kind === 'api_key' ? ` ${entry.actor}` : ''}
                  </span>
                </summary>
                <Change before={entry.before} after={entry.after} />
              </details>
            </li>
          ))}
        </ol>
      )}
      {page?.next_cursor && (
        <button type="button" class="more" onClick={() => void loadMore(page.next_cursor!)}>
          Older changes
        </button>
      )}
    </main>
  );
}

/** The settings that changed, before and after; everything recorded for a creation. */
function Change({ before, after }: { before: unknown; after: unknown }) {
  if (before === null && after === null)
    return <p class="muted small">No settings recorded for this change.</p>;
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (name) => before === null || after === null || JSON.stringify(b[name]) !== JSON.stringify(a[name]),
  );
  if (names.length === 0) return <p class="muted small">Nothing changed in the recorded settings.</p>;
  const shown = (value: unknown) =>
    value === undefined
      ? '—'
      : value === null
        ? 'none'
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
  return (
    <table class="audit-change">
      <thead>
        <tr>
          <th scope="col">Setting</th>
          {before !== null && <th scope="col">Before</th>}
          {after !== null && <th scope="col">After</th>}
        </tr>
      </thead>
      <tbody>
        {names.map((name) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            {before !== null && <td>{shown(b[name])}</td>}
            {after !== null && <td>{shown(a[name])}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
