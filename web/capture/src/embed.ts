// When the app runs in a frame opened by the embed script (web/embed/), it tells the embedding page what
// happens, as typed messages (web/embed/src/events.ts). The page's origin comes in the `embed` query
// parameter; every message is posted to that origin only, so a page that claims another origin than
// its own receives nothing. Which pages may frame the app at all is the service's frame-ancestors
// (EMBED_ORIGINS, docs/embedding.md). Outside a frame, nothing is posted.
import { EMBED_PARAMETER, type WalkaroundEvent, type WalkaroundMessage } from '../../embed/src/events.js';
import type { Session } from './session.js';

function embeddingOrigin(): string | undefined {
  if (window.parent === window) return undefined;
  const declared = new URLSearchParams(location.search).get(EMBED_PARAMETER);
  if (!declared) return undefined;
  try {
    const origin = new URL(declared).origin;
    return origin === declared && origin !== 'null' ? origin : undefined;
  } catch {
    return undefined;
  }
}

const parentOrigin = embeddingOrigin();

/** Tells the embedding page, if any. */
export function tellParent(event: WalkaroundEvent): void {
  if (!parentOrigin) return;
  const message: WalkaroundMessage = { source: 'walkaround', version: 1, event };
  window.parent.postMessage(message, parentOrigin);
}

/**
 * Tells the embedding page of each upload the service finishes or refuses from now on (not of those it
 * held before the link was opened again). Returns the unsubscribe.
 */
export function reportUploads(session: Session): () => void {
  if (!parentOrigin) return () => undefined;
  const known = new Map(session.steps.map((s) => [s.id, session.queue.state(s.id)?.kind]));
  return session.queue.subscribe(() => {
    for (const step of session.steps) {
      const state = session.queue.state(step.id);
      if (state?.kind === known.get(step.id)) continue;
      known.set(step.id, state?.kind);
      if (state?.kind === 'done') tellParent({ type: 'uploaded', step: step.id });
      if (state?.kind === 'refused')
        tellParent({ type: 'error', code: 'upload_refused', step: step.id, reason: state.reason });
    }
  });
}
