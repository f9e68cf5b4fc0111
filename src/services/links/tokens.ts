// Link tokens (docs/api.md#superapptoken): opaque and random; only their SHA-256 is stored, so a database
// leak opens no link.
import crypto from 'node:crypto';

/** 256 random bits, URL-safe: the part after `#` in `{SUPERAPP_URL}/#<token>`. */
export const newLinkToken = (): string => crypto.randomBytes(32).toString('base64url');

/** What the database holds for a token. Tokens carry 256 random bits, so a fast hash is enough. */
export const hashLinkToken = (token: string): string =>
  crypto.createHash('sha256').update(token).digest('hex');

/** Tokens this service issued have exactly this form; anything else is refused without a query. */
export const looksLikeLinkToken = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

const REDACTED = '#[redacted]';

/** `text` with every link token replaced: what the outbox keeps of a message. */
export const redactLinkTokens = (text: string): string => text.replace(/#[A-Za-z0-9_-]{43}\b/g, REDACTED);

/** The first link token in `text`, if any. */
export const linkTokenIn = (text: string): string | undefined => /#([A-Za-z0-9_-]{43})\b/.exec(text)?.[1];

/** A redacted message with its link token put back, for the moment it is sent. */
export const restoreLinkToken = (text: string, token: string): string =>
  text.replaceAll(REDACTED, `#${token}`);
