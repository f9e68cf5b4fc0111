// The portal's invitation and reset e-mails: the link stored redacted and put back whole, the texts naming
// the account, the client and the link's end in UTC.
import { describe, expect, it } from 'vitest';
import { redactedPasswordLink, renderAccountEmail, restorePasswordToken } from './account-messages.js';

const TOKEN = 'Ab0_-'.repeat(8) + 'xyz';
const base = {
  baseUrl: 'https://inspections.example.com',
  email: 'claims@acme.example',
  role: 'client_admin',
  clientName: 'Acme\nLeasing',
  by: 'boss@acme.example',
  expiresAt: Date.parse('2026-11-28T10:00:00Z'),
} as const;

describe('account e-mails', () => {
  it('invites with the link redacted, the inviter, the role, the client on one line and the end in UTC', () => {
    const { subject, text } = renderAccountEmail({ ...base, purpose: 'invite' });
    expect(subject).toBe('Your account on the Walkaround inspection portal of Acme Leasing');
    expect(text).toContain(
      'boss@acme.example invited you to the Walkaround inspection portal of Acme Leasing',
    );
    expect(text).toContain('as administrator. Your account is claims@acme.example.');
    expect(text).toContain('\n\nhttps://inspections.example.com/portal/#/set-password/[redacted]\n\n');
    expect(text).toContain('valid until 28 November 2026 at 10:00 UTC');
  });

  it('says that a reset keeps the current password until a new one is chosen', () => {
    const { subject, text } = renderAccountEmail({ ...base, purpose: 'reset', by: null });
    expect(subject).toBe('Choose a new password for the Walkaround inspection portal');
    expect(text).toContain('An administrator asked for a new password for your account claims@acme.example');
    expect(text).toContain('Your current password keeps working until you choose a new one.');
  });

  it('puts the token back only where the link is', () => {
    const stored = `Open ${redactedPasswordLink(base.baseUrl)} now. [redacted] stays.`;
    expect(restorePasswordToken(stored, TOKEN)).toBe(
      `Open https://inspections.example.com/portal/#/set-password/${TOKEN} now. [redacted] stays.`,
    );
  });
});
