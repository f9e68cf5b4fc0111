// A delivery's failure in words a claims handler reads (docs/webhooks.md): the network error codes a
// receiver's address gives, and HTTP statuses, said plainly; anything else as it was. Pure.

const CODES: [RegExp, string][] = [
  [/ENOTFOUND|EAI_AGAIN/, 'the receiver’s address does not exist (its name is not found)'],
  [/ECONNREFUSED/, 'the receiver refused the connection (nothing listens there)'],
  [/ECONNRESET|EPIPE|socket hang up/i, 'the receiver closed the connection'],
  [/ETIMEDOUT|timeout|aborted/i, 'the receiver did not answer in time'],
  [/CERT|certificate|SSL|TLS/i, 'the receiver’s HTTPS certificate is not valid'],
  [/private address|refused/i, 'the address is a private one, which deliveries may not reach'],
];

/** `status` (an HTTP status) or `error` (a network failure) in words. */
export function failureInWords(status: number | null, error: string | null): string {
  if (status !== null) {
    if (status >= 200 && status < 300) return `answered ${status} (delivered)`;
    if (status === 410) return 'answered 410 (the receiver is gone)';
    if (status >= 500) return `answered ${status} (an error on the receiver’s side)`;
    if (status === 401 || status === 403)
      return `answered ${status} (the receiver refused it: check its signature check)`;
    return `answered ${status}`;
  }
  if (error === null) return 'no answer';
  return CODES.find(([pattern]) => pattern.test(error))?.[1] ?? error;
}
