import { describe, expect, it } from 'vitest';
import { auditSnapshot } from './audit.js';

describe('auditSnapshot', () => {
  it('leaves out secret fields and secret values, keeping what names a secret without being it', () => {
    expect(
      auditSnapshot({
        name: 'Acme',
        webhook_secret_enc: 'sealed',
        password_hash: 'scrypt$…',
        token: 'abc',
        nested: [
          {
            api_key: 'wk_live_0123456789abcdef0123456789abcdef',
            note: 'wk_live_0123456789abcdef0123456789abcdef',
          },
        ],
        prefix: 'wk_live_012345',
        signed: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
        whsec: 'whsec_abcdefghijklmnopqrstuvwxyz012345',
        quota: 5,
        gone: undefined,
      }),
    ).toEqual({
      name: 'Acme',
      nested: [{ note: '[secret]' }],
      prefix: 'wk_live_012345',
      signed: '[secret]',
      whsec: '[secret]',
      quota: 5,
    });
  });
});
