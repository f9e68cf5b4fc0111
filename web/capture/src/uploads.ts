// Sends the captures to the server in the order they were taken, over tus: each upload resumes from the
// last byte the server holds after a dropped connection, a reload or a killed browser (its URL is kept
// with the capture). Two at a time: while one finishes and the next is created (a round trip each on a
// mobile link), the other keeps the uplink busy.
import { Upload, type DetailedError } from 'tus-js-client';
import { API } from './api.js';
import { reportReach } from './connectivity.js';
import { saveCapture, type StoredCapture } from './storage.js';

export type UploadState =
  | { kind: 'waiting' }
  | { kind: 'uploading'; sent: number; total: number }
  | { kind: 'retrying'; sent: number; total: number }
  | { kind: 'done' }
  | { kind: 'refused'; reason: string };

type UrlStorage = NonNullable<Upload['options']['urlStorage']>;

/** Waits between automatic restarts after tus's own retries gave up (ms), the last one repeating. */
const RESTART_DELAYS = [2_000, 5_000, 10_000, 30_000];
const MAX_ACTIVE = 2;

interface Active {
  capture: StoredCapture;
  upload: Upload;
}

export class UploadQueue {
  private readonly states = new Map<string, UploadState>();
  private readonly pending: StoredCapture[] = [];
  private readonly active = new Map<string, Active>();
  private restarts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly token: string,
    /** Asked when a resumed upload is gone from the server: does the server hold this capture already? */
    private readonly serverHolds: (capture: StoredCapture) => Promise<boolean>,
  ) {
    // navigator.onLine is a hint only (./connectivity.ts): uploads try the server whatever it says, and
    // its 'online' event just ends a backoff wait early.
    addEventListener('online', () => this.kick());
  }

  state(stepId: string): UploadState | undefined {
    return this.states.get(stepId);
  }

  /** Bytes sent and total over every capture still to send or sending. */
  totals(): { sent: number; total: number } {
    let sent = 0;
    let total = 0;
    for (const [, state] of this.states)
      if (state.kind === 'uploading' || state.kind === 'retrying') {
        sent += state.sent;
        total += state.total;
      }
    for (const capture of this.pending) total += capture.bytes;
    return { sent, total };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Marks a step as held by the server (known from the flow, or a capture uploaded earlier). */
  markDone(stepId: string): void {
    this.set(stepId, { kind: 'done' });
  }

  /** Queues a capture; a newer capture of the same step (a retake) replaces the older one. */
  add(capture: StoredCapture): void {
    this.dropStep(capture.stepId);
    this.pending.push(capture);
    this.set(capture.stepId, { kind: 'waiting' });
    this.kick();
  }

  private dropStep(stepId: string): void {
    const index = this.pending.findIndex((c) => c.stepId === stepId);
    if (index >= 0) this.pending.splice(index, 1);
    const active = this.active.get(stepId);
    if (active) {
      this.active.delete(stepId);
      // Terminates the unfinished upload on the server too: the retake replaces it.
      void active.upload.abort(true).catch(() => undefined);
    }
  }

  private kick(): void {
    clearTimeout(this.timer);
    while (this.active.size < MAX_ACTIVE && this.pending.length > 0) this.start(this.pending.shift()!, true);
  }

  private start(capture: StoredCapture, resume: boolean): void {
    if (!capture.blob) return this.finished(capture);
    const blob = capture.blob;
    const resuming = resume && capture.uploadUrl !== null;
    const upload: Upload = new Upload(blob, {
      // A resumed upload gets no endpoint: when the server no longer knows it, tus would otherwise
      // start it again from zero before we could ask whether the server holds it already.
      endpoint: resuming ? null : `${API}/uploads`,
      uploadUrl: resuming ? capture.uploadUrl : null,
      headers: { authorization: `Bearer ${this.token}` },
      metadata: metadataOf(capture),
      chunkSize: Infinity,
      retryDelays: [0, 1_000, 3_000, 5_000],
      // tus waits for its URL storage before the first byte goes: the address is on the phone's disk
      // before any byte is on the server, so a reload or a kill in between never sends them twice.
      storeFingerprintForResuming: true,
      fingerprint: () => Promise.resolve(capture.key),
      urlStorage: addressKeeper(capture),
      onProgress: (sent, total) => {
        this.restarts = 0;
        reportReach(true);
        this.set(capture.stepId, { kind: 'uploading', sent, total });
      },
      onSuccess: () => {
        reportReach(true);
        this.active.delete(capture.stepId);
        this.finished(capture);
        this.kick();
      },
      onError: (error) => void this.failed(capture, error as DetailedError, resuming),
    });
    this.active.set(capture.stepId, { capture, upload });
    const previous = this.states.get(capture.stepId);
    const sent = previous && 'sent' in previous ? previous.sent : 0;
    this.set(capture.stepId, { kind: 'uploading', sent, total: blob.size });
    upload.start();
  }

  private finished(capture: StoredCapture): void {
    capture.state = 'done';
    capture.blob = null;
    void saveCapture(capture);
    this.set(capture.stepId, { kind: 'done' });
  }

  private async failed(capture: StoredCapture, error: DetailedError, resumed: boolean): Promise<void> {
    if (this.active.get(capture.stepId)?.capture !== capture) return; // replaced by a retake meanwhile
    this.active.delete(capture.stepId);
    const status = error.originalResponse?.getStatus() ?? 0;
    reportReach(status !== 0);
    if (resumed && (status === 404 || status === 410)) {
      // The server no longer knows the upload: it finished before the answer got lost, or was swept.
      if (await this.serverHolds(capture).catch(() => false)) this.finished(capture);
      else this.start({ ...capture, uploadUrl: null }, false);
      return this.kick();
    }
    if (status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429) {
      const reason = messageOf(error.originalResponse?.getBody()) ?? `HTTP ${status}`;
      this.set(capture.stepId, { kind: 'refused', reason });
      return this.kick();
    }
    const previous = this.states.get(capture.stepId);
    const sent = previous && 'sent' in previous ? previous.sent : 0;
    this.set(capture.stepId, { kind: 'retrying', sent, total: capture.bytes });
    this.pending.unshift(capture);
    const delay = RESTART_DELAYS[Math.min(this.restarts++, RESTART_DELAYS.length - 1)]!;
    this.timer = setTimeout(() => this.kick(), delay);
  }

  private set(stepId: string, state: UploadState): void {
    this.states.set(stepId, state);
    for (const listener of this.listeners) listener();
  }
}

/** The URL storage tus awaits after creating an upload: it keeps the address on the capture itself. */
function addressKeeper(capture: StoredCapture): UrlStorage {
  return {
    findAllUploads: () => Promise.resolve([]),
    findUploadsByFingerprint: () => Promise.resolve([]),
    removeUpload: () => Promise.resolve(),
    addUpload: async (_fingerprint, upload) => {
      if (capture.uploadUrl !== upload.uploadUrl) {
        capture.uploadUrl = upload.uploadUrl;
        await saveCapture(capture);
      }
      return capture.key;
    },
  };
}

function metadataOf(capture: StoredCapture): Record<string, string> {
  const { meta } = capture;
  const metadata: Record<string, string> = {
    step: capture.stepId,
    source: meta.source,
    captured_at: meta.captured_at,
    orientation: meta.orientation,
  };
  if (meta.latitude !== undefined && meta.longitude !== undefined) {
    metadata.latitude = String(meta.latitude);
    metadata.longitude = String(meta.longitude);
    if (meta.accuracy !== undefined) metadata.accuracy = String(Math.round(meta.accuracy));
  }
  return metadata;
}

function messageOf(body: string | undefined): string | undefined {
  try {
    return (JSON.parse(body ?? '') as { message?: string }).message;
  } catch {
    return undefined;
  }
}
