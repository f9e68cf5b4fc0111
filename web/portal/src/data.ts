// How pages load what they show, written once: an answer loaded for the page's inputs (loaded again when
// they change), keyset paging ("next_cursor" and more on demand), and the list of clients that several
// pages offer as a filter or a choice. An answer that arrives after its inputs changed is dropped.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, signedOut, type Answer } from './api.js';

export interface Load<T> {
  /** The answer, once it is here (during a reload, the one before). */
  data: T | undefined;
  /** Why the last load failed, in words. */
  error: string | undefined;
  /** Nothing to show yet: no answer, and no failure. */
  loading: boolean;
  /** Loads again with the same inputs; the answer shown stays until the new one is here. Never rejects. */
  reload: () => Promise<void>;
  /** Replaces the answer, with one a change of the page answered. */
  set: (data: T) => void;
}

export interface LoadOptions {
  /** Words for a failure (default: the API's message). */
  describe?: (failure: unknown) => string;
  /** Keeps showing the answer for the previous inputs until the new one is here. */
  keep?: boolean;
}

/** `load()` for the page's `inputs`: again whenever one of them changes. */
export function useLoad<T>(
  load: () => Promise<T>,
  inputs: readonly unknown[],
  { describe = errorText, keep = false }: LoadOptions = {},
): Load<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const calls = useRef(0);
  const latest = useRef(load);
  latest.current = load;

  const run = async () => {
    const call = ++calls.current;
    try {
      const loaded = await latest.current();
      if (call !== calls.current) return;
      setData(loaded);
      setError(undefined);
    } catch (failure) {
      if (call === calls.current) setError(describe(failure));
    }
  };
  useEffect(() => {
    if (!keep) setData(undefined);
    setError(undefined);
    void run();
  }, inputs);

  return { data, error, loading: data === undefined && error === undefined, reload: run, set: setData };
}

export interface Pages<Page, Item> extends Omit<Load<Page>, 'data' | 'set'> {
  /** The first page (the counts and other facts beside its items), once it is here. */
  first: Page | undefined;
  /** Every item loaded so far, the first page's and then the ones loaded with `loadMore`. */
  items: Item[];
  /** Whether the API holds more after the last page loaded. */
  hasMore: boolean;
  /** Adds the next page's items. */
  loadMore: () => Promise<void>;
}

/**
 * Keyset paging: the first page for the page's `inputs`, then the next ones with the last one's
 * `next_cursor`. A change of the inputs, or a reload, starts again from the first page.
 */
export function usePages<Page extends { next_cursor: string | null }, Item>(
  load: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
  inputs: readonly unknown[],
  options?: LoadOptions,
): Pages<Page, Item> {
  const { data: first, set: _set, ...state } = useLoad(() => load(undefined), inputs, options);
  const [more, setMore] = useState<{ items: Item[]; cursor: string | null }>();
  /** Bumped when the list starts again: a later page asked for before then is dropped. */
  const start = useRef(0);
  useEffect(() => {
    start.current++;
    setMore(undefined);
  }, [...inputs, first]);

  const cursor = more ? more.cursor : (first?.next_cursor ?? null);
  const loadMore = async () => {
    if (!cursor) return;
    const started = start.current;
    const page = await load(cursor);
    if (started !== start.current) return;
    setMore((before) => ({ items: [...(before?.items ?? []), ...itemsOf(page)], cursor: page.next_cursor }));
  };
  const items = first ? [...itemsOf(first), ...(more?.items ?? [])] : [];
  return { ...state, first, items, hasMore: cursor !== null, loadMore };
}

type ClientSummary = Answer<'/portal/api/clients'>['clients'][number];

/** The clients, shared by the pages that show them: the last list at once, then a fresh one. */
const clients = {
  list: undefined as ClientSummary[] | undefined,
  loading: undefined as Promise<void> | undefined,
  listeners: new Set<() => void>(),
};

/**
 * Forgets what a session loaded when it ends (signed out here or elsewhere): whoever signs in next in
 * this tab, maybe of another client, must not see it even for a moment.
 */
export function forgetSessionData(): void {
  clients.list = undefined;
}
signedOut.addEventListener('signed-out', forgetSessionData);

/** Asks for the list (once at a time) and tells every page showing it; rejects when it cannot. */
function refreshClients(): Promise<void> {
  clients.loading ??= api
    .GET('/portal/api/clients')
    .then((answer) => {
      clients.list = answer.clients;
      for (const listener of clients.listeners) listener();
    })
    .finally(() => (clients.loading = undefined));
  return clients.loading;
}

/**
 * The clients (operators only: `enabled` false gives none and asks nothing). A page shows the list it
 * finds at once and asks for a fresh one as it opens, as a client may have been added or renamed since.
 */
export function useClients(enabled = true) {
  const [list, setList] = useState(clients.list);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!enabled) return;
    const update = () => {
      setList(clients.list);
      setError(undefined);
    };
    clients.listeners.add(update);
    refreshClients().catch((failure: unknown) => setError(errorText(failure)));
    return () => void clients.listeners.delete(update);
  }, [enabled]);
  return {
    clients: enabled ? list : [],
    error,
    /** Asks for the list again, after a change to a client. */
    reload: () => refreshClients().catch((failure: unknown) => setError(errorText(failure))),
  };
}
