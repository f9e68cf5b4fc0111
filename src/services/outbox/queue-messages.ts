// Writes the messages of a new inspection link (docs/messages.md) to the outbox, in the caller's transaction:
// they exist exactly when the link does. A channel with a provider gets a send job; one without stays held in
// the outbox, for the portal and `walkaround outbox list`.
import crypto from 'node:crypto';
import type { Db } from '../../ports/database.js';
import { renderLinkEmail, renderLinkSms } from '../../domain/messages.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Channel, Notifier } from '../../ports/notifier.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { jobKeys } from '../../domain/jobs.js';
import { redactLinkTokens } from '../links/tokens.js';

export interface LinkMessageInput {
  clientId: string;
  clientName: string;
  linkId: string;
  /** The persona's language: one of SUPPORTED_LANGUAGES (others fall back to English). */
  language: string;
  /** The full link `{SUPERAPP_URL}/#<token>`. */
  url: string;
  /** The token in `url`: kept sealed, never in the stored body. */
  token: string;
  /** Epoch ms. */
  expiresAt: number;
  /** E.164, already validated. */
  phone?: string | undefined;
  /** Already validated. */
  email?: string | undefined;
}

export interface OutboxDeps {
  queue: JobQueue;
  now: () => number;
  notifier: Notifier;
  secrets: SecretBox;
}

interface NewMessage {
  channel: Channel;
  recipient: string;
  /** The language the message was written in (the persona's, or English when it has no template). */
  language: string;
  subject: string | null;
  body: string;
}

export async function queueLinkMessages(trx: Db, deps: OutboxDeps, input: LinkMessageInput): Promise<void> {
  const messages: NewMessage[] = [];
  if (input.email) {
    const email = renderLinkEmail(input);
    messages.push({
      channel: 'email',
      recipient: input.email,
      language: email.language,
      subject: email.subject,
      body: email.text,
    });
  }
  if (input.phone) {
    const sms = renderLinkSms(input);
    messages.push({
      channel: 'sms',
      recipient: input.phone,
      language: sms.language,
      subject: null,
      body: sms.body,
    });
  }
  const now = deps.now();
  for (const message of messages) {
    const id = `out_${crypto.randomUUID().replaceAll('-', '')}`;
    const status = deps.notifier.configured(message.channel) ? 'pending' : 'held';
    await trx
      .insertInto('outbox_messages')
      .values({
        id,
        client_id: input.clientId,
        link_id: input.linkId,
        ...message,
        // A database dump must open no link: the token is put back only when the message is sent.
        body: redactLinkTokens(message.body),
        link_token_sealed: deps.secrets.seal(input.token),
        status,
        created_at: now,
        updated_at: now,
      })
      .execute();
    if (status === 'pending')
      await deps.queue.enqueue(trx, {
        task: 'send-message',
        key: jobKeys.sendMessage(id, 1),
        payload: { messageId: id, attempt: 1 },
      });
  }
}
