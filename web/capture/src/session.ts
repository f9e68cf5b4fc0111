// One customer's pass through a link: the flow from the server, what the phone holds, where the customer
// is, and the upload queue. Screens read it and call its actions; it persists every change first.
import { readFlow, submit, type Flow, type Step } from './api.js';
import {
  decode,
  QUALITY_PREVIEW_JPEG,
  QUALITY_PREVIEW_SIDE,
  scaled,
  THUMBNAIL_SIDE,
  type Decoded,
} from './images.js';
import {
  captureKey,
  forgetLink,
  linkKey,
  loadCaptures,
  loadProgress,
  saveCapture,
  saveProgress,
  type CaptureMeta,
  type Progress,
  type StoredCapture,
} from './storage.js';
import { UploadQueue } from './uploads.js';
import type { MessageKey } from './i18n/index.js';

export interface PhotoTaken {
  blob: Blob;
  image: Decoded;
  /** A ≤1024 px copy for the quality check. */
  preview: Promise<Blob>;
}

export class Session {
  readonly captures = new Map<string, StoredCapture>();
  readonly queue: UploadQueue;
  private location: GeolocationPosition | undefined;
  private locationWatch: number | undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(
    readonly token: string,
    readonly link: string,
    public flow: Flow,
    public progress: Progress,
  ) {
    this.queue = new UploadQueue(token, (capture) => this.serverHolds(capture));
    this.queue.subscribe(() => this.changed());
  }

  /** Reads the flow, restores what the phone kept and resumes every unfinished upload. */
  static async open(token: string): Promise<Session> {
    // The phone's own records are read while the flow is on its way.
    const local = linkKey(token).then(async (link) => {
      const [progress, kept] = await Promise.all([
        loadProgress(link).catch(() => undefined),
        loadCaptures(link).catch(() => []),
      ]);
      return { link, progress: progress ?? { link, stepIndex: 0, skipped: [], started: false }, kept };
    });
    const [flow, { link, progress, kept }] = await Promise.all([readFlow(token), local]);
    const session = new Session(token, link, flow, progress);
    for (const upload of flow.uploaded) session.queue.markDone(upload.step_id);
    for (const capture of kept.sort((a, b) => a.createdAt - b.createdAt)) {
      session.captures.set(capture.stepId, capture);
      if (capture.state === 'done' || session.heldByServer(capture)) {
        if (capture.state !== 'done') await saveCapture({ ...capture, state: 'done', blob: null });
        session.queue.markDone(capture.stepId);
      } else session.queue.add(capture);
    }
    return session;
  }

  get steps(): Step[] {
    return this.flow.persona.steps;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  async goTo(stepIndex: number): Promise<void> {
    this.progress = { ...this.progress, stepIndex, started: true };
    this.changed();
    await saveProgress(this.progress).catch(() => undefined);
  }

  async skip(step: Step): Promise<void> {
    const skipped = [...new Set([...this.progress.skipped, step.id])];
    this.progress = { ...this.progress, skipped };
    await this.goTo(this.progress.stepIndex + 1);
  }

  /** Starts following the position when the persona asks for it (the browser asks the customer). */
  watchLocation(): void {
    if (!this.flow.persona.ask_location || this.locationWatch !== undefined || !navigator.geolocation) return;
    this.locationWatch = navigator.geolocation.watchPosition(
      (position) => (this.location = position),
      () => undefined,
      { enableHighAccuracy: true, maximumAge: 60_000, timeout: 30_000 },
    );
  }

  metaFor(source: CaptureMeta['source']): CaptureMeta {
    const meta: CaptureMeta = {
      source,
      captured_at: new Date().toISOString(),
      orientation:
        screen.orientation?.type ?? (innerWidth > innerHeight ? 'landscape-primary' : 'portrait-primary'),
    };
    if (this.location) {
      meta.latitude = round(this.location.coords.latitude, 6);
      meta.longitude = round(this.location.coords.longitude, 6);
      meta.accuracy = Math.round(this.location.coords.accuracy);
    }
    return meta;
  }

  async takePhoto(blob: Blob): Promise<PhotoTaken> {
    const image = await decode(blob);
    return { blob, image, preview: scaled(image, QUALITY_PREVIEW_SIDE, QUALITY_PREVIEW_JPEG) };
  }

  /** Keeps a photo for its step (replacing an earlier one) and queues its upload. */
  async keepPhoto(step: Step, photo: PhotoTaken, meta: CaptureMeta, warning?: MessageKey): Promise<void> {
    const limit = this.flow.persona.max_photo_dimension;
    const tooLarge = limit && Math.max(photo.image.width, photo.image.height) > limit;
    const blob = tooLarge ? await scaled(photo.image, limit, 0.92) : photo.blob;
    const thumbnail = await scaled(photo.image, THUMBNAIL_SIDE, 0.7).catch(() => null);
    await this.keep(step, blob, thumbnail, 'image', meta, warning);
  }

  async keepVideo(step: Step, blob: Blob, meta: CaptureMeta): Promise<void> {
    await this.keep(step, blob, null, 'video', meta);
  }

  private async keep(
    step: Step,
    blob: Blob,
    thumbnail: Blob | null,
    kind: StoredCapture['kind'],
    meta: CaptureMeta,
    warning?: MessageKey,
  ): Promise<void> {
    const capture: StoredCapture = {
      key: captureKey(this.link, step.id),
      link: this.link,
      stepId: step.id,
      kind,
      blob,
      bytes: blob.size,
      thumbnail,
      meta,
      uploadUrl: null,
      state: 'pending',
      createdAt: Date.now(),
      ...(warning && { warning }),
    };
    // Stored before anything else: from here on a reload or a dead battery loses nothing.
    await saveCapture(capture).catch(() => undefined);
    this.captures.set(step.id, capture);
    this.progress = { ...this.progress, skipped: this.progress.skipped.filter((id) => id !== step.id) };
    this.queue.add(capture);
    this.changed();
  }

  /** Whether the server holds the step's media (uploaded now, or before the phone lost track). */
  isHeld(stepId: string): boolean {
    return this.queue.state(stepId)?.kind === 'done';
  }

  /** Required steps with nothing taken yet (taken ones may still be uploading). */
  missing(): Step[] {
    return this.steps.filter((step) => step.required && !this.isHeld(step.id) && !this.captures.has(step.id));
  }

  /** Every capture held and every required step done: submit can go. */
  canSubmit(): boolean {
    const busy = [...this.captures.values()].some((c) => !this.isHeld(c.stepId));
    return !busy && this.missing().length === 0;
  }

  async submit(): Promise<void> {
    await submit(this.token);
    if (this.locationWatch !== undefined) navigator.geolocation.clearWatch(this.locationWatch);
    await forgetLink(this.link).catch(() => undefined);
  }

  /**
   * The server's media of the capture's step is this capture when it has its exact size (a retake of
   * the same byte count is all but impossible; the phone's clock is not trusted for this).
   */
  private heldByServer(capture: StoredCapture): boolean {
    return this.flow.uploaded.some((u) => u.step_id === capture.stepId && u.bytes === capture.bytes);
  }

  private async serverHolds(capture: StoredCapture): Promise<boolean> {
    this.flow = await readFlow(this.token);
    return this.heldByServer(capture);
  }
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
