// Puts the configured providers of each channel behind the one Notifier port. A channel without a
// provider reports itself unconfigured, and sending on it fails for good (the outbox holds instead).
import {
  NotifyError,
  type Channel,
  type EmailMessage,
  type Notifier,
  type SmsMessage,
} from '../../ports/notifier.js';

export type EmailSender = (message: EmailMessage, signal?: AbortSignal) => Promise<string | null>;
export type SmsSender = (message: SmsMessage, signal?: AbortSignal) => Promise<string | null>;

export function createNotifier(senders: {
  email?: EmailSender | undefined;
  sms?: SmsSender | undefined;
  /** Releases what the senders share (the SMS provider's connection pool). */
  close?: () => Promise<void>;
}): Notifier {
  const { email, sms } = senders;
  const missing = (channel: Channel) =>
    Promise.reject(
      new NotifyError(`No ${channel === 'email' ? 'mail server' : 'SMS provider'} configured`, true),
    );
  return {
    configured: (channel) => (channel === 'email' ? email : sms) !== undefined,
    sendEmail: (message, signal) => (email ? email(message, signal) : missing('email')),
    sendSms: (message, signal) => (sms ? sms(message, signal) : missing('sms')),
    // Each SMTP send opens and closes its own connection; the SMS provider's pool is the senders' own.
    close: senders.close ?? (() => Promise.resolve()),
  };
}
