// The review queue: the inspections of the list a reviewer last looked at, in its order, kept for the
// tab, so that an inspection's page can open the next or previous one without going back to the list.
const KEY = 'walkaround.portal.queue';

export interface Queue {
  /** The list's inspections as loaded (more come with "Show more"). */
  ids: string[];
  /** The list's address, to go back to it. */
  href: string;
  /** The list's name in words: "To review", "Accepted", "Inspections". */
  label: string;
}

export function rememberQueue(queue: Queue): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(queue));
  } catch {
    // Storage refused (private mode, quota): the page works without next and previous.
  }
}

export interface QueuePlace {
  queue: Queue;
  /** 1-based. */
  position: number;
  previous: string | undefined;
  next: string | undefined;
}

/** Where inspection `id` is in the queue remembered, if it is in it. */
export function placeInQueue(id: string): QueuePlace | undefined {
  let queue: Queue;
  try {
    queue = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Queue;
  } catch {
    return undefined;
  }
  const index = queue?.ids?.indexOf(id) ?? -1;
  if (index < 0) return undefined;
  return { queue, position: index + 1, previous: queue.ids[index - 1], next: queue.ids[index + 1] };
}
