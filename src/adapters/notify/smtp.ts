// E-mail over SMTP with nodemailer. Nodemailer dials by itself, outside the fetch modules, so the address
// policy it is given is applied here: the mail server's name is resolved first, every address is checked
// against the guard (in production the operator's, which trusts the mail server of the configuration),
// and the connection goes to the checked address (the name stays the TLS server name, so certificates
// are verified against it). One connection per message: link e-mails are few.
import net from 'node:net';
import nodemailer, { type NodemailerError } from 'nodemailer';
import type { SmtpSettings } from '../../config.js';
import type { AddressGuard } from '../fetch/safe-fetch.js';
import { NotifyError } from '../../ports/notifier.js';
import type { EmailSender } from './notifier.js';

export interface SmtpOptions {
  guard: AddressGuard;
  connectTimeoutMs: number;
  /** Longest silence of the server once connected. */
  socketTimeoutMs: number;
}

/** How much of a server's refusal is kept with the message. */
const DETAIL_CHARS = 300;

export function createSmtpSender(settings: SmtpSettings, opts: SmtpOptions): EmailSender {
  return async (message) => {
    const address = await checkedAddress(settings.host, opts.guard);
    const transport = nodemailer.createTransport({
      host: address,
      port: settings.port,
      secure: settings.secure,
      requireTLS: !settings.secure && settings.requireTls,
      ...(!net.isIP(settings.host) && { servername: settings.host }),
      auth: settings.auth,
      connectionTimeout: opts.connectTimeoutMs,
      greetingTimeout: opts.socketTimeoutMs,
      socketTimeout: opts.socketTimeoutMs,
    });
    try {
      const info = await transport.sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html !== undefined && { html: message.html }),
      });
      return info.messageId || null;
    } catch (error) {
      throw smtpFailure(error, settings.host);
    } finally {
      transport.close();
    }
  };
}

/** The address to dial: refused when any address of the name is not allowed, as safe-fetch does. */
async function checkedAddress(host: string, guard: AddressGuard): Promise<string> {
  if (net.isIP(host)) {
    if (!guard.isAllowed(host)) throw new NotifyError(`Refused ${host}: private address`, true);
    return host;
  }
  let addresses: { address: string }[];
  try {
    addresses = await guard.resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new NotifyError(`Mail server ${host}: ${code}`, false, undefined, { cause: error });
  }
  const refused = addresses.find((a) => !guard.isAllowed(a.address));
  if (refused) throw new NotifyError(`Refused ${host}: resolves to private address ${refused.address}`, true);
  const [first] = addresses;
  if (!first) throw new NotifyError(`Mail server ${host}: no address`, false);
  return first.address;
}

/**
 * The short message names the step and the SMTP code; the server's own words (which may name the
 * recipient) go to `detail`. Permanent when the server refused for good (5xx but 503), as nodemailer
 * judges it.
 */
function smtpFailure(error: unknown, host: string): NotifyError {
  const e = error as NodemailerError;
  const code = [e.code, e.responseCode].filter((part) => part !== undefined).join(' ');
  const detail = (e.message ?? String(error)).replace(/\s+/g, ' ').trim().slice(0, DETAIL_CHARS);
  return new NotifyError(`Mail server ${host} failed: ${code || 'error'}`, e.permanent === true, detail, {
    cause: error,
  });
}
