import { describe, expect, it } from 'vitest';
import { failureInWords } from './failure-words.js';

describe('failureInWords', () => {
  it.each([
    [
      null,
      'getaddrinfo ENOTFOUND hooks.example.com',
      'the receiver’s address does not exist (its name is not found)',
    ],
    [
      null,
      'connect ECONNREFUSED 10.0.0.1:443',
      'the receiver refused the connection (nothing listens there)',
    ],
    [null, 'The operation was aborted due to timeout', 'the receiver did not answer in time'],
    [null, 'something new', 'something new'],
    [null, null, 'no answer'],
    [200, null, 'answered 200 (delivered)'],
    [503, null, 'answered 503 (an error on the receiver’s side)'],
    [404, null, 'answered 404'],
  ])('%s %s → %s', (status, error, words) => {
    expect(failureInWords(status, error)).toBe(words);
  });
});
