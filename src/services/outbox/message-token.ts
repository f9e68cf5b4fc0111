// Where a message's token goes back into its stored text: after `#` in an inspection link, at the end of
// a set-password link in an invitation or reset e-mail. Both are stored redacted and sealed beside.
import { restorePasswordToken } from '../../domain/account-messages.js';
import type { OutboxMessageRow } from '../../ports/database.js';
import { restoreLinkToken } from '../links/tokens.js';

/** The message's text with `token` put back: for the send, or the operator's `outbox list --reveal`. */
export const bodyWithToken = (message: Pick<OutboxMessageRow, 'kind' | 'body'>, token: string): string =>
  message.kind === 'link' ? restoreLinkToken(message.body, token) : restorePasswordToken(message.body, token);
