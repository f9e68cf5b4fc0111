// The audit log (docs/audit.md): who changed what and when, newest first, with filters; each entry opens
// to show its settings before and after. Operators see every client's, a client admin their own.
import { api, queryOf, type Query } from '../../api.js';
import { DateInput } from '../../components/date-input.js';
import { ErrorNotice, Loading, MoreButton } from '../../components/notices.js';
import { usePages } from '../../data.js';
import { when } from '../../format.js';
import { consoleHref } from '../../router.js';
import { Change } from './audit-change.js';
import type { ConsoleProps } from './props.js';

const FILTERS = [
  ['action', 'Action', 'client.update'],
  ['actor', 'Who', 'e-mail or key prefix'],
  ['object_id', 'Object id', ''],
] as const;

/** Every filter of the API: the form's, and any other a bookmarked URL holds. */
const SEARCH = ['client_id', 'action', 'actor', 'object_type', 'object_id', 'from', 'to'] as const;

const ACTOR_KINDS = {
  user: 'Portal user',
  api_key: 'API key',
  cli: 'Command line',
  system: 'Walkaround',
} as const;

export function AuditPage({ query, me }: ConsoleProps) {
  const filters = queryOf<Query<'/portal/api/audit'>>(query, SEARCH);
  const pages = usePages(
    (cursor) => api.GET('/portal/api/audit', { params: { query: { ...filters, cursor } } }),
    (page) => page.entries,
    [query.toString()],
  );

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const [name, value] of form)
      if (typeof value === 'string' && value.trim()) next.set(name, value.trim());
    location.hash = consoleHref('audit', undefined, next);
  };

  const { first: page, items: entries, error } = pages;
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
          <DateInput id="audit-from" name="from" value={query.get('from') ?? ''} />
        </div>
        <div class="field">
          <label for="audit-to">To</label>
          <DateInput id="audit-to" name="to" value={query.get('to') ?? ''} />
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
      <ErrorNotice text={error} />
      {pages.loading && <Loading />}
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
                        {entry.object_type.replace('_', ' ')}{' '}
                        {entry.object_name ? (
                          <b class="object-name">{entry.object_name}</b>
                        ) : (
                          <code>{entry.object_id}</code>
                        )}
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
      <MoreButton pages={pages}>Older changes</MoreButton>
    </main>
  );
}
