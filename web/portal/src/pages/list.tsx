// The inspection list: search by case id, plate and VIN, filter by status, flags, source, dates, the
// estimate's total and (operators) client; newest first or the highest estimate first, more on demand. The filters live in the URL, so a search can be
// bookmarked and the back button returns to it.
import { useEffect, useState } from 'preact/hooks';
import { SEARCH_FLAGS } from '../../../../src/domain/result/digest.js';
import { flagText } from '../../../../src/domain/flags.js';
import { api, queryOf, type Me, type Query, type Status } from '../api.js';
import { DateInput } from '../components/date-input.js';
import { FlagBadges } from '../components/flag-badges.js';
import { ErrorNotice, MoreButton } from '../components/notices.js';
import { useClients, usePages } from '../data.js';
import { count, sourceName, STATUS_NAMES, when } from '../format.js';
import { inspectionHref, listHref } from '../router.js';
import { rememberQueue } from '../queue.js';

const STATUSES: Status[] = ['queued', 'processing', 'completed', 'failed'];
const TEXT_FILTERS = [
  ['case_id', 'Case id', 'CLM-2026-0042'],
  ['plate', 'Plate', 'AB-123-CD'],
  ['vin', 'VIN', 'WVWZZZ1JZXW000001'],
] as const;
/** The search, as the URL holds it: the form's fields, the status tab and the flags. */
const FILTERS = [
  'case_id',
  'plate',
  'vin',
  'from',
  'to',
  'source',
  'client_id',
  'min_total',
  'max_total',
  'sort',
] as const;
const SEARCH = [...FILTERS, 'status', 'flags', 'review'] as const;
/** The review queue's tabs (docs/portal.md#the-review-queue). */
const REVIEWS = [
  ['to_review', 'To review'],
  ['accepted', 'Accepted'],
  ['rejected', 'Rejected'],
] as const;

export function InspectionListView({ query, me }: { query: URLSearchParams; me: Me }) {
  const operator = me.user.role === 'operator';
  const search = queryOf<Query<'/portal/api/inspections'>>(query, SEARCH);
  // The list searched before stays until the new one is here, so the page does not jump.
  const pages = usePages(
    (cursor) => api.GET('/portal/api/inspections', { params: { query: { ...search, cursor } } }),
    (page) => page.items,
    [query.toString()],
    { keep: true },
  );
  const clients = useClients(operator).clients ?? [];
  const [narrow] = useState(() => matchMedia('(max-width: 600px)').matches);

  const go = (change: (q: URLSearchParams) => void) => {
    const next = new URLSearchParams(query);
    next.delete('cursor');
    change(next);
    location.hash = listHref(next);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    go((q) => {
      for (const name of FILTERS) {
        const field = form.get(name);
        const value = typeof field === 'string' ? field.trim() : '';
        if (value) q.set(name, value);
        else q.delete(name);
      }
      const flags = form.getAll('flags').map(String);
      if (flags.length > 0) q.set('flags', flags.join(','));
      else q.delete('flags');
    });
  };
  const flags = new Set((query.get('flags') ?? '').split(',').filter(Boolean));
  const active = FILTERS.filter((name) => query.get(name)).length + flags.size;
  const status = query.get('status');
  const { first: page, items } = pages;
  const total = page ? STATUSES.reduce((n, s) => n + page.counts[s], 0) : 0;
  const review = query.get('review');
  const reviewName = REVIEWS.find(([value]) => value === review)?.[1];
  // The list as loaded is the queue the inspection page walks with [ and ].
  useEffect(() => {
    if (!page) return;
    rememberQueue({
      ids: items.map((i) => i.id),
      href: listHref(query),
      label: reviewName ?? (status ? STATUS_NAMES[status as Status] : 'Inspections'),
    });
  }, [items]);

  return (
    <main class="list-page">
      <div class="page-head">
        <h1>Inspections</h1>
        {me.user.role !== 'client_viewer' && (
          <a class="button quiet" href="/portal/api/labels" download="labels-coco.json">
            Export reviewed damages (COCO)
          </a>
        )}
      </div>
      {/* On a phone the filters fold away, so that inspections show above the fold. */}
      <details class="filters-fold" open={!narrow}>
        <summary>
          Search and filters
          {active > 0 && <span class="count"> · {active} on</span>}
        </summary>
        <form class="filters" onSubmit={submit} role="search" aria-label="Search inspections">
          {TEXT_FILTERS.map(([name, label, example]) => (
            <div class="field" key={name}>
              <label for={`f-${name}`}>{label}</label>
              <input
                id={`f-${name}`}
                name={name}
                defaultValue={query.get(name) ?? ''}
                placeholder={`e.g. ${example}`}
              />
            </div>
          ))}
          <div class="field">
            <label for="f-source">Source</label>
            <select id="f-source" name="source" defaultValue={query.get('source') ?? ''}>
              <option value="">Any</option>
              <option value="api">API upload</option>
              <option value="link">Inspection link</option>
            </select>
          </div>
          <div class="field">
            <label for="f-min-total">Estimate from</label>
            <input
              id="f-min-total"
              name="min_total"
              type="number"
              min={0}
              step="any"
              inputMode="decimal"
              defaultValue={query.get('min_total') ?? ''}
            />
          </div>
          <div class="field">
            <label for="f-max-total">Estimate up to</label>
            <input
              id="f-max-total"
              name="max_total"
              type="number"
              min={0}
              step="any"
              inputMode="decimal"
              defaultValue={query.get('max_total') ?? ''}
            />
          </div>
          <div class="field">
            <label for="f-sort">Order</label>
            <select id="f-sort" name="sort" defaultValue={query.get('sort') ?? ''}>
              <option value="">Newest first</option>
              <option value="total">Highest estimate first</option>
            </select>
          </div>
          <div class="field">
            <label for="f-from">From</label>
            <DateInput id="f-from" name="from" value={query.get('from') ?? ''} />
          </div>
          <div class="field">
            <label for="f-to">To</label>
            <DateInput id="f-to" name="to" value={query.get('to') ?? ''} />
          </div>
          {operator && (
            <div class="field">
              <label for="f-client">Client</label>
              <select id="f-client" name="client_id" defaultValue={query.get('client_id') ?? ''}>
                <option value="">All clients</option>
                {clients.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <fieldset class="flag-filter">
            <legend>Flagged as</legend>
            {SEARCH_FLAGS.map((flag) => (
              <label key={flag} class="chip">
                <input type="checkbox" name="flags" value={flag} defaultChecked={flags.has(flag)} />
                {flagText(flag).label}
              </label>
            ))}
          </fieldset>
          <div class="actions">
            <button type="submit" class="primary">
              Search
            </button>
            <a class="button quiet" href="#/inspections">
              Clear
            </a>
          </div>
        </form>
      </details>

      <nav class="tabs" aria-label="Status">
        <a href={listHref(without(query, 'status'))} aria-current={status ? undefined : 'page'}>
          All <span class="count">{total}</span>
        </a>
        {STATUSES.map((s) => (
          <a
            key={s}
            href={listHref(withValue(query, 'status', s))}
            aria-current={status === s ? 'page' : undefined}
          >
            {STATUS_NAMES[s]} <span class="count">{page?.counts[s] ?? 0}</span>
          </a>
        ))}
      </nav>

      <nav class="tabs review-tabs" aria-label="Review">
        <a href={listHref(without(query, 'review'))} aria-current={review ? undefined : 'page'}>
          Any review
        </a>
        {REVIEWS.map(([value, name]) => (
          <a
            key={value}
            href={listHref(withValue(query, 'review', value))}
            aria-current={review === value ? 'page' : undefined}
          >
            {name}
          </a>
        ))}
      </nav>

      <ErrorNotice text={pages.error} />
      {page && items.length === 0 && (
        <p class="empty">
          {review === 'to_review'
            ? 'Nothing left to review in this search.'
            : 'No inspection matches this search.'}
        </p>
      )}
      {items.length > 0 && (
        <table class="inspections">
          <thead>
            <tr>
              <th scope="col">
                <span class="sr-only">Photo</span>
              </th>
              <th scope="col">Case id</th>
              {operator && <th scope="col">Client</th>}
              <th scope="col">Plate</th>
              <th scope="col">Flags</th>
              <th scope="col" class="number">
                Estimate
              </th>
              <th scope="col">Status</th>
              <th scope="col">Received</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td class="thumb">
                  {item.has_thumbnail ? (
                    <img src={`/portal/api/inspections/${item.id}/thumbnail`} alt="" loading="lazy" />
                  ) : (
                    <span class="no-thumb" aria-hidden="true" />
                  )}
                </td>
                <td>
                  <a href={inspectionHref(item.id)}>{item.case_id}</a>
                  <span class="muted small">
                    {' '}
                    {sourceName(item.source)} · {count(item.media_count, 'item')}
                  </span>
                </td>
                {operator && <td>{item.client_name}</td>}
                <td>{item.plate ?? <span class="muted">—</span>}</td>
                <td>
                  <FlagBadges flags={item.flags} />
                </td>
                <td class="number">
                  {item.estimate ? (
                    new Intl.NumberFormat('en-GB', {
                      style: 'currency',
                      currency: item.estimate.currency,
                    }).format(item.estimate.total)
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
                <td>
                  <span class={`status status-${item.status}`}>{STATUS_NAMES[item.status]}</span>
                  {item.review_decision && (
                    <span class={`status review-${item.review_decision}`}>
                      {item.review_decision === 'accepted' ? 'Accepted' : 'Rejected'}
                    </span>
                  )}
                </td>
                <td>{when(item.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <MoreButton pages={pages}>Show more</MoreButton>
    </main>
  );
}

function without(query: URLSearchParams, name: string) {
  const next = new URLSearchParams(query);
  next.delete(name);
  next.delete('cursor');
  return next;
}

function withValue(query: URLSearchParams, name: string, value: string) {
  const next = without(query, name);
  next.set(name, value);
  return next;
}
