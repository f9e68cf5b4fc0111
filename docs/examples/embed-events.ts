// The messages the capture app posts to the page that embeds it (docs/embedding.md): copy this file into
// your project to type what `Walkaround.open(link, { onEvent })` hands you. Kept equal to the service's own
// copy (web/embed/src/events.ts) by a test.

/** What happened in the capture flow, in the order it happens. */
export type WalkaroundEvent =
  /** The customer tapped Start: the flow has `steps` steps of `kind`. */
  | { type: 'started'; kind: 'photo' | 'video'; steps: number }
  /** A step's photo or video was kept (`index` from 0, in the flow's order). Skipped steps send nothing. */
  | { type: 'step_taken'; step: string; index: number }
  /** The service holds the step's photo or video. Uploads go on while later steps are taken. */
  | { type: 'uploaded'; step: string }
  /** The inspection was sent: the service now analyses it and calls the client's webhook. */
  | { type: 'submitted' }
  /**
   * Something the customer cannot get past inside the frame: the link is unknown, expired or already
   * used, the service cannot be reached, or the service refused a step's upload (`step`, `reason`).
   */
  | {
      type: 'error';
      code: 'link_unknown' | 'link_expired' | 'link_submitted' | 'network' | 'upload_refused';
      step?: string;
      reason?: string;
    };

/** The envelope of every message: `source` tells it from other messages the page receives. */
export interface WalkaroundMessage {
  source: 'walkaround';
  version: 1;
  event: WalkaroundEvent;
}

/** The query parameter by which the embed script tells the capture app the embedding page's origin. */
export const EMBED_PARAMETER = 'embed';
