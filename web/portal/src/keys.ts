// Keyboard shortcuts for a page (a reviewer working through a queue): single keys, ignored while the
// person types in a field or holds a modifier, so they never take a letter from a note or a browser key.
import { useEffect, useRef } from 'preact/hooks';

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Calls `keys[event.key]` for a key pressed anywhere on the page but in a field. */
export function useKeys(keys: Record<string, (() => void) | undefined>): void {
  const latest = useRef(keys);
  latest.current = keys;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (TYPING.has(target.tagName) || target.isContentEditable)) return;
      const action = latest.current[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
}
