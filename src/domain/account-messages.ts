// The e-mails that give a portal user a one-time set-password link (docs/portal.md#users): an invitation
// to a new account, or a password reset an administrator asked for. Pure: no I/O. The portal speaks
// English, so these are written in English only. Like link messages, the outbox keeps the text with
// `[redacted]` where the token goes; it is put back only for the send.
import { formatExpiry } from './messages.js';

/** Where a set-password link opens in the portal: `{PUBLIC_BASE_URL}/portal/#/set-password/<token>`. */
export const SET_PASSWORD_PATH = '/portal/#/set-password/';
const REDACTED = '[redacted]';

export type PasswordLinkPurpose = 'invite' | 'reset';

export const ROLE_TITLES = {
  operator: 'operator (every client)',
  client_admin: 'administrator',
  client_viewer: 'viewer (read only)',
} as const;

export interface AccountMessageContext {
  purpose: PasswordLinkPurpose;
  /** `{PUBLIC_BASE_URL}`, without a trailing slash. */
  baseUrl: string;
  /** The user's e-mail (the account's name). */
  email: string;
  role: keyof typeof ROLE_TITLES;
  /** The client of a client user, shown in the invitation; null for operators. */
  clientName: string | null;
  /** Who asked for it: a portal user's e-mail, or null from the command line. */
  by: string | null;
  /** Epoch ms. */
  expiresAt: number;
}

/** The set-password link with its token left out: what the outbox stores. */
export const redactedPasswordLink = (baseUrl: string): string => `${baseUrl}${SET_PASSWORD_PATH}${REDACTED}`;

/** A stored text with the token put back, for the moment it is sent. */
export const restorePasswordToken = (text: string, token: string): string =>
  text.replaceAll(`${SET_PASSWORD_PATH}${REDACTED}`, `${SET_PASSWORD_PATH}${token}`);

/** The e-mail, its link redacted (the caller seals the token beside it). */
export function renderAccountEmail(context: AccountMessageContext): { subject: string; text: string } {
  const link = redactedPasswordLink(context.baseUrl);
  const until = formatExpiry(context.expiresAt, 'en');
  const client = context.clientName === null ? '' : ` of ${oneLine(context.clientName)}`;
  if (context.purpose === 'invite')
    return {
      subject: `Your account on the Walkaround inspection portal${client}`,
      text: [
        'Hello,',
        `${context.by ?? 'An administrator'} invited you to the Walkaround inspection portal${client}, as ${ROLE_TITLES[context.role]}. Your account is ${context.email}.`,
        'Choose your password with this link to start:',
        link,
        `The link works once and is valid until ${until}.`,
        'If you did not expect this message, you can ignore it: no account is usable without that password.',
      ].join('\n\n'),
    };
  return {
    subject: 'Choose a new password for the Walkaround inspection portal',
    text: [
      'Hello,',
      `${context.by ?? 'An administrator'} asked for a new password for your account ${context.email} on the Walkaround inspection portal. Choose it with this link:`,
      link,
      `The link works once and is valid until ${until}. Your current password keeps working until you choose a new one.`,
      'If you did not expect this message, tell your administrator.',
    ].join('\n\n'),
  };
}

/** A client name is operator input; line breaks would break a subject header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
