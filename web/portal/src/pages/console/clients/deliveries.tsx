// A client's delivery log: every webhook message across its inspections and links, newest first, with
// filters by event, status and day (in the URL), each message opening to its attempts, and re-send (one
// more attempt with the same webhook-id).
import { DateInput } from '../../../components/date-input.js';
import { useState } from 'preact/hooks';
import { api, errorText, queryOf, type Query } from '../../../api.js';
import { ErrorNotice, Loading, MoreButton } from '../../../components/notices.js';
import { usePages } from '../../../data.js';
import { field } from '../../../form.js';
import { when } from '../../../format.js';
import { inspectionHref } from '../../../router.js';
import { EVENT_TYPES, type Client, type ClientDelivery } from './types.js';

const FILTERS = ['event', 'status', 'from', 'to'] as const;
const STATUS_TEXT = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' } as const;

export function DeliveryLog({
  client,
  query,
  filterHref,
}: {
  client: Client;
  query: URLSearchParams;
  filterHref: (filters: URLSearchParams) => string;
}) {
  const [notice, setNotice] = useState<{ id: string; text: string }>();
  const filters = queryOf<Query<'/portal/api/clients/{id}/deliveries'>>(query, FILTERS);
  const filtered = Object.keys(filters).length > 0;
  const path = { id: client.id };
  const pages = usePages(
    (cursor) =>
      api.GET('/portal/api/clients/{id}/deliveries', {
        params: { path, query: { ...filters, cursor } },
      }),
    (page) => page.deliveries,
    [client.id, JSON.stringify(filters)],
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams({ tab: 'deliveries' });
    for (const name of FILTERS) {
      const value = field(form, name);
      if (value) next.set(name, value);
    }
    location.hash = filterHref(next);
  };
  const resend = async (id: string) => {
    setNotice(undefined);
    try {
      await api.POST('/portal/api/clients/{id}/deliveries/{messageId}/resend', {
        params: { path: { ...path, messageId: id } },
      });
      setNotice({ id, text: 'Queued to be sent again: the attempt appears here once it has run.' });
    } catch (failure) {
      setNotice({ id, text: errorText(failure) });
    }
  };

  const { first: page, items: deliveries, error } = pages;
  return (
    <>
      <p class="muted">
        Every webhook message of {client.name}, newest first, across its inspections and links. Open one to
        see each attempt and what the receiver answered, and to send it again with the same{' '}
        <code>webhook-id</code>.
      </p>
      <form class="filters" onSubmit={submit} role="search" aria-label="Filter the delivery log">
        <div class="field">
          <label for="log-event">Event</label>
          <select id="log-event" name="event">
            <option value="">Any event</option>
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type} selected={filters.event === type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="log-status">Status</label>
          <select id="log-status" name="status">
            <option value="">Any status</option>
            {Object.entries(STATUS_TEXT).map(([value, text]) => (
              <option key={value} value={value} selected={filters.status === value}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="log-from">From</label>
          <DateInput id="log-from" name="from" value={filters.from ?? ''} />
        </div>
        <div class="field">
          <label for="log-to">To</label>
          <DateInput id="log-to" name="to" value={filters.to ?? ''} />
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Filter
          </button>
          <a class="button quiet" href={filterHref(new URLSearchParams({ tab: 'deliveries' }))}>
            Clear
          </a>
        </div>
      </form>

      <ErrorNotice text={error} />
      {pages.loading && <Loading />}
      {page && deliveries.length === 0 && (
        <p class="empty">
          {filtered ? 'No webhook message matches these filters.' : 'No webhook message yet.'}
        </p>
      )}
      {deliveries.length > 0 && (
        <ol class="audit-entries delivery-log">
          {deliveries.map((d) => (
            <li key={d.id}>
              <details>
                <summary>
                  <time dateTime={d.created_at}>{when(d.created_at)}</time>
                  <strong>{d.event_type}</strong>
                  <span class={`status delivery-${d.status}`}>{STATUS_TEXT[d.status]}</span>
                  <span class="muted">{lastAnswer(d)}</span>
                  {d.case_id && <span>case {d.case_id}</span>}
                </summary>
                <Message
                  delivery={d}
                  onResend={() => void resend(d.id)}
                  notice={notice?.id === d.id ? notice.text : undefined}
                />
              </details>
            </li>
          ))}
        </ol>
      )}
      <MoreButton pages={pages}>Older messages</MoreButton>
    </>
  );
}

/** What the receiver last answered, in a few words. */
function lastAnswer(d: ClientDelivery): string {
  const last = d.attempts.at(-1);
  if (!last) return 'not tried yet';
  const answer = last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'no answer');
  return `${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}, last: ${answer}`;
}

function Message({
  delivery: d,
  onResend,
  notice,
}: {
  delivery: ClientDelivery;
  onResend: () => void;
  notice: string | undefined;
}) {
  return (
    <div class="message">
      <dl class="facts">
        <div>
          <dt>webhook-id</dt>
          <dd>
            <code>{d.id}</code>
          </dd>
        </div>
        <div>
          <dt>Sent to</dt>
          <dd>{d.url}</dd>
        </div>
        {d.inspection_id && (
          <div>
            <dt>Inspection</dt>
            <dd>
              <a href={inspectionHref(d.inspection_id)}>{d.case_id ?? d.inspection_id}</a>
            </dd>
          </div>
        )}
        {d.next_attempt_at && (
          <div>
            <dt>Next attempt</dt>
            <dd>{when(d.next_attempt_at)}</dd>
          </div>
        )}
      </dl>
      {d.attempts.length > 0 && (
        <table class="audit-change attempts-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">At</th>
              <th scope="col">Answer</th>
              <th scope="col">Time</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td>{when(a.at)}</td>
                <td>
                  {a.status_code ?? a.error ?? 'no answer'} <span class="muted">({a.outcome})</span>
                </td>
                <td>{a.latency_ms} ms</td>
                <td>
                  <code>{a.response_excerpt ?? ''}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" class="quiet" onClick={onResend}>
        Re-send
      </button>
      <span role="status" class="saved">
        {notice}
      </span>
    </div>
  );
}
