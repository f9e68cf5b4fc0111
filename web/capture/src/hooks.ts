import { useEffect, useReducer, useRef, useState } from 'preact/hooks';

/** Re-renders whenever `source` says it changed. */
export function useChanges(source: { subscribe(listener: () => void): () => void } | undefined): void {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => source?.subscribe(() => bump(undefined)), [source]);
}

export function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  return online;
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
