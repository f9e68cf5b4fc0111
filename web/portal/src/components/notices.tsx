// What a page says while it loads and when something failed, and the button that loads the next page of
// a list: the same words, classes and roles everywhere (screen readers hear a status, and an alert).
import type { ComponentChildren } from 'preact';
import type { Pages } from '../data.js';

export function Loading({ children = 'Loading…' }: { children?: ComponentChildren }) {
  return (
    <p class="loading" role="status">
      {children}
    </p>
  );
}

/** The failure in words; nothing when there is none. */
export function ErrorNotice({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

/** "Show more", "Older changes"…: shown while the API holds more. */
export function MoreButton({
  pages,
  children,
}: {
  pages: Pages<unknown, unknown>;
  children: ComponentChildren;
}) {
  if (!pages.hasMore) return null;
  return (
    <button type="button" class="more" onClick={() => void pages.loadMore()}>
      {children}
    </button>
  );
}
