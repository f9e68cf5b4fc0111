// POST /api/authenticate (docs/api.md#authenticate): an API key buys a session and its two JWTs.
import type { Db } from '../ports/database.js';
import type { AttemptLimiter } from '../ports/attempt-limiter.js';
import { findKeyOwner, touchApiKey } from './api-keys.js';
import { checkKeyAttempt } from './key-attempts.js';
import { issueCredentials, type Credentials, type TokenSettings } from './session-tokens.js';
import type { KeyRing } from './signing-keys.js';

interface Deps {
  db: Db;
  keys: KeyRing;
  tokens: TokenSettings;
  failedAttempts: AttemptLimiter;
  now: () => number;
}

export async function authenticate(
  deps: Deps,
  input: { key: string; clientId?: string | undefined; address: string },
): Promise<Credentials> {
  const now = deps.now();
  const owner = await checkKeyAttempt(
    deps.failedAttempts,
    input.address,
    async () => {
      const found = await findKeyOwner(deps.db, input.key, now);
      return found && (input.clientId === undefined || input.clientId === found.client.id)
        ? found
        : undefined;
    },
    'AUTH_KEY_NOT_VALID',
  );
  await touchApiKey(deps.db, owner, now);
  return issueCredentials(deps, { clientId: owner.client.id, apiKeyId: owner.apiKeyId });
}
