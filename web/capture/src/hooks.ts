import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
import { seemsOffline, subscribeReach } from './connectivity.js';

/** Re-renders whenever `source` says it changed. */
export function useChanges(source: { subscribe(listener: () => void): () => void } | undefined): void {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => source?.subscribe(() => bump(undefined)), [source]);
}

/** Whether the phone seems offline (./connectivity.ts): what the calls found, the browser's hint before. */
export function useOffline(): boolean {
  const [offline, setOffline] = useState(seemsOffline);
  useEffect(() => {
    const update = () => setOffline(seemsOffline());
    update();
    return subscribeReach(update);
  }, []);
  return offline;
}

/** An object URL for `blob`, revoked when it changes or the component goes. */
export function useObjectUrl(blob: Blob | null | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}

/** Moves keyboard and screen-reader focus to a new screen's heading. */
export function useFocusHeading() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
}

/** Whether the screen is taller than wide (the phone held upright), following it as the phone turns. */
export function usePortrait(): boolean {
  const [portrait, setPortrait] = useState(() => matchMedia('(orientation: portrait)').matches);
  useEffect(() => {
    const query = matchMedia('(orientation: portrait)');
    const update = () => setPortrait(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return portrait;
}
