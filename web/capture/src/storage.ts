// What the phone keeps until the server holds it: every capture (its bytes until uploaded, a thumbnail
// for the list) and where the customer is in the flow, in IndexedDB, so a reload, a killed browser or a
// dead battery loses nothing. Records are keyed by a hash of the link token, never the token itself.
import type { MessageKey } from './i18n/index.js';

export interface CaptureMeta {
  source: 'camera' | 'gallery';
  captured_at: string;
  orientation: string;
  latitude?: number;
  longitude?: number;
  accuracy?: number;
}

export interface StoredCapture {
  key: string;
  link: string;
  stepId: string;
  kind: 'image' | 'video';
  /** The bytes to upload; null once the server holds them. */
  blob: Blob | null;
  bytes: number;
  thumbnail: Blob | null;
  meta: CaptureMeta;
  /** The tus upload this capture resumes, once created. */
  uploadUrl: string | null;
  state: 'pending' | 'done';
  createdAt: number;
  /** The quality advice the person kept the photo despite, so the review list can say so. */
  warning?: MessageKey;
}

export interface Progress {
  link: string;
  stepIndex: number;
  skipped: string[];
  started: boolean;
}

const DB_NAME = 'walkaround-capture';
const CAPTURES = 'captures';
const PROGRESS = 'progress';

let opening: Promise<IDBDatabase | null> | undefined;

/** The database, or null where the browser refuses IndexedDB (private modes): the app then still works. */
function database(): Promise<IDBDatabase | null> {
  opening ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore(CAPTURES, { keyPath: 'key' }).createIndex('link', 'link');
        db.createObjectStore(PROGRESS, { keyPath: 'link' });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opening;
}

function run<T>(store: string, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>) {
  return database().then(
    (db) =>
      new Promise<T | undefined>((resolve, reject) => {
        if (!db) return resolve(undefined);
        // Writes are flushed to disk before they count as done: a phone may kill the browser right after
        // an upload starts, and the upload's address must survive it to resume.
        const tx = db.transaction(store, mode, { durability: mode === 'readwrite' ? 'strict' : 'default' });
        const request = work(tx.objectStore(store));
        tx.oncomplete = () => resolve(request.result);
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB failed'));
      }),
  );
}

export const captureKey = (link: string, stepId: string) => `${link}:${stepId}`;

export async function loadCaptures(link: string): Promise<StoredCapture[]> {
  const all = await run(
    CAPTURES,
    'readonly',
    (s) => s.index('link').getAll(link) as IDBRequest<StoredCapture[]>,
  );
  return all ?? [];
}

export const saveCapture = (capture: StoredCapture) =>
  run(CAPTURES, 'readwrite', (s) => s.put(capture)).then(() => undefined);

export const loadProgress = (link: string) =>
  run<Progress>(PROGRESS, 'readonly', (s) => s.get(link) as IDBRequest<Progress>);

export const saveProgress = (progress: Progress) =>
  run(PROGRESS, 'readwrite', (s) => s.put(progress)).then(() => undefined);

/** Forgets everything of a link once it is submitted. */
export async function forgetLink(link: string): Promise<void> {
  for (const capture of await loadCaptures(link))
    await run(CAPTURES, 'readwrite', (s) => s.delete(capture.key));
  await run(PROGRESS, 'readwrite', (s) => s.delete(link));
}

/** A short stable key for the token (SHA-256 where the page is a secure context). */
export async function linkKey(token: string): Promise<string> {
  if (globalThis.crypto?.subtle) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
    return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  let hash = 0x811c9dc5;
  for (const char of token) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `f${hash.toString(16)}${token.length}`;
}
