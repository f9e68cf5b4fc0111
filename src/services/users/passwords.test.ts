import { describe, expect, it } from 'vitest';
import { passwordProblem } from './passwords.js';

describe('the password rule', () => {
  it.each([
    ['12 spaces', ' '.repeat(12)],
    ['a tab and spaces', '\t'.repeat(6) + ' '.repeat(10)],
    ['11 characters padded with spaces', `  ${'x'.repeat(11)}  `],
    ['too short', 'short pass'],
  ])('refuses %s for its length', async (_name, password) => {
    expect(await passwordProblem(password)).toMatch(/at least 12 characters besides spaces at its ends/);
  });

  it.each(['qwerty123456', '1qaz2wsx3edc', 'QWERTY123456', '1qaz 2wsx 3edc', '  administrator  '])(
    'refuses the common %s',
    async (password) => {
      expect(await passwordProblem(password)).toMatch(/most common passwords/);
    },
  );

  it.each(['a long enough password', 'correct horse battery staple', 'Ünïcode-räder-42!'])(
    'takes %s',
    async (password) => {
      expect(await passwordProblem(password)).toBeUndefined();
    },
  );
});
