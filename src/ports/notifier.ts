// Sends one link message (docs/messages.md#providers) to a person: e-mail over SMTP, SMS through an HTTP
// provider. Each channel is optional; the outbox holds the messages of a channel with no provider instead of
// sending them.

export type Channel = 'email' | 'sms';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SmsMessage {
  /** E.164, for example +33612345678. */
  to: string;
  body: string;
}

export interface Notifier {
  /** True when `channel` has a provider; sending on a channel without one fails for good. */
  configured(channel: Channel): boolean;
  /**
   * Sends one e-mail; resolves with the provider's id of the message (the SMTP Message-ID), or null
   * when it gives none. Rejects with NotifyError.
   */
  sendEmail(message: EmailMessage, signal?: AbortSignal): Promise<string | null>;
  /** Sends one SMS; resolves with the provider's id of the message, or null. Rejects with NotifyError. */
  sendSms(message: SmsMessage, signal?: AbortSignal): Promise<string | null>;
  /** Releases what the providers hold (connections). */
  close(): Promise<void>;
}

/**
 * A message the provider did not take. `message` is short and safe to log (no secrets, no recipient);
 * `detail` is what the provider said, kept with the message only. `permanent` when trying again
 * cannot help: a refused address, a rejected recipient, bad credentials.
 */
export class NotifyError extends Error {
  override name = 'NotifyError';
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly detail?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
