// Whether the phone can reach the server, as it last found out. `navigator.onLine` is only a hint:
// Chromium says false on a machine whose only interface is loopback, and captive portals and some
// Android WebViews are wrong both ways. So uploads always try the server (with backoff), and what the
// calls find out decides the offline banner; the hint decides it only until a call has answered.
type Reach = 'unknown' | 'reached' | 'unreachable';

let reach: Reach = 'unknown';
const listeners = new Set<() => void>();

function set(next: Reach): void {
  if (next === reach) return;
  reach = next;
  for (const listener of listeners) listener();
}

/** A call to the server got an answer (any status), or failed on the network. */
export function reportReach(answered: boolean): void {
  set(answered ? 'reached' : 'unreachable');
}

/** Whether to tell the person that the phone seems offline. */
export function seemsOffline(): boolean {
  return reach === 'unreachable' || (reach === 'unknown' && !navigator.onLine);
}

export function subscribeReach(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The browser saw its network change: what the calls found out before may no longer hold.
for (const event of ['online', 'offline'])
  addEventListener(event, () => {
    reach = 'unknown';
    for (const listener of listeners) listener();
  });
