// walkaround signing-keys list|rotate: JWT signing keys, rotated without invalidating issued tokens.
import { CLI_ACTOR } from '../services/audit.js';
import { Command } from 'commander';
import { listSigningKeys, longestTokenLifetime, rotateSigningKey } from '../services/signing-keys.js';
import { print, table, when, withStorage } from './context.js';

export function signingKeysCommand(): Command {
  const keys = new Command('signing-keys').description('manage the keys that sign the JWTs');

  keys
    .command('list')
    .description('list signing keys')
    .option('--json', 'print one JSON object')
    .action((o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const rows = await listSigningKeys(deps.db);
        print(o.json, { keys: rows }, () =>
          rows
            .map((k) =>
              table([
                ['kid', k.kid],
                ['created', when(k.created_at)],
                ['state', k.retired_at === null ? 'signing' : `verifies until ${when(k.retired_at)}`],
              ]),
            )
            .join('\n\n'),
        );
      }),
    );

  keys
    .command('rotate')
    .description('start signing with a new key; older keys verify until the tokens they signed expire')
    .option('--json', 'print one JSON object')
    .action((o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const verifyFor = longestTokenLifetime(deps.config);
        const kid = await rotateSigningKey(
          deps,
          { alg: deps.config.jwtAlgorithm, verifyForSeconds: verifyFor },
          CLI_ACTOR,
        );
        print(
          o.json,
          { kid, previous_keys_verify_for_seconds: verifyFor },
          () =>
            `New signing key ${kid}. Processes pick it up within SIGNING_KEY_CACHE_TTL; older keys verify for ${verifyFor} s more.`,
        );
      }),
    );
  return keys;
}
