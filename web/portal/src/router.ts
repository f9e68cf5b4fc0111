// Where the portal is: the part of the URL after `#`, so that a share or set-password token never reaches
// the server in a URL and every page can be bookmarked.
import { useEffect, useState } from 'preact/hooks';

/** The operator console's sections (docs/portal.md#the-operator-console). */
export const CONSOLE_PAGES = ['clients', 'personas', 'outbox', 'users', 'audit'] as const;
export type ConsolePage = (typeof CONSOLE_PAGES)[number];

export type Route =
  | { page: 'list'; query: URLSearchParams }
  | { page: 'inspection'; id: string; version: number | undefined; media: string | undefined }
  /** A vehicle's inspections on a timeline. */
  | { page: 'vehicle'; id: string }
  | { page: 'share'; token: string }
  /** A set-password link from an invitation or reset e-mail: public, like a share link. */
  | { page: 'set-password'; token: string }
  /** A console section; `id` is the object opened in it (a client, a persona), `query` its filters. */
  | { page: ConsolePage; id: string | undefined; query: URLSearchParams };

const isConsolePage = (name: string | undefined): name is ConsolePage =>
  (CONSOLE_PAGES as readonly (string | undefined)[]).includes(name);

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'share' && parts[1]) return { page: 'share', token: parts[1] };
  if (parts[0] === 'set-password' && parts[1]) return { page: 'set-password', token: parts[1] };
  if (isConsolePage(parts[0]))
    return { page: parts[0], id: parts[1] === undefined ? undefined : decodeURIComponent(parts[1]), query };
  if (parts[0] === 'vehicles' && parts[1]) return { page: 'vehicle', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'inspections' && parts[1]) {
    const v = Number(query.get('v'));
    return {
      page: 'inspection',
      id: decodeURIComponent(parts[1]),
      version: Number.isInteger(v) && v > 0 ? v : undefined,
      media: query.get('media') ?? undefined,
    };
  }
  return { page: 'list', query };
}

export const listHref = (query: URLSearchParams) => `#/inspections${query.size > 0 ? `?${query}` : ''}`;
export const inspectionHref = (id: string, options: { version?: number; media?: string } = {}) => {
  const query = new URLSearchParams();
  if (options.version) query.set('v', String(options.version));
  if (options.media) query.set('media', options.media);
  return `#/inspections/${encodeURIComponent(id)}${query.size > 0 ? `?${query}` : ''}`;
};

export const vehicleHref = (id: string) => `#/vehicles/${encodeURIComponent(id)}`;

export const consoleHref = (page: ConsolePage, id?: string, query?: URLSearchParams) =>
  `#/${page}${id === undefined ? '' : `/${encodeURIComponent(id)}`}${query && query.size > 0 ? `?${query}` : ''}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
