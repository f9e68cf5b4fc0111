// The rule a portal password keeps (docs/security.md#portal-accounts): at least MIN_PASSWORD_LENGTH
// characters besides spaces at its ends, and not one of the passwords people use most. The list is the
// common-passwords dictionary of zxcvbn-ts (`@zxcvbn-ts/language-common`, MIT, from the npm registry:
// no network at run time), loaded on the first check; only its entries long enough to pass the length
// rule are kept.
import { AppError } from '../../domain/errors.js';

export const MIN_PASSWORD_LENGTH = 12;

let common: Promise<ReadonlySet<string>> | undefined;

async function commonPasswords(): Promise<ReadonlySet<string>> {
  const { dictionary } = await import('@zxcvbn-ts/language-common');
  const list = dictionary['passwords-common'] ?? [];
  return new Set(
    list.filter((entry) => entry.length >= MIN_PASSWORD_LENGTH).map((entry) => entry.toLowerCase()),
  );
}

/** Why the password breaks the rule, or undefined when it keeps it. */
export async function passwordProblem(password: string): Promise<string | undefined> {
  if (password.trim().length < MIN_PASSWORD_LENGTH)
    return `password must have at least ${MIN_PASSWORD_LENGTH} characters besides spaces at its ends`;
  common ??= commonPasswords();
  const list = await common;
  const lower = password.toLowerCase();
  if (list.has(lower.trim()) || list.has(lower.replace(/\s+/g, '')))
    return 'password is one of the most common passwords: choose another';
  return undefined;
}

/** Throws USER_INVALID naming what is wrong with the password. */
export async function checkPassword(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw new AppError('USER_INVALID', { params: { reason: problem } });
}
