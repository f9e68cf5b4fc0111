// walkaround users create|update|reset-password|unlock|list (README.md#operating-it): results-portal
// accounts.
import { CLI_ACTOR } from '../services/audit.js';
import crypto from 'node:crypto';
import { text } from 'node:stream/consumers';
import { Command } from 'commander';
import type { PortalRole, PortalUserRow } from '../ports/database.js';
import {
  createPortalUser,
  hasPassword,
  listPortalUsers,
  resetPassword,
  updatePortalUser,
} from '../services/users/accounts.js';
import { createSignInLimits, openRedis } from '../deps.js';
import { unlockSignIn } from '../services/portal/sessions.js';
import { print, table, when, withStorage } from './context.js';
import { oneOf } from './options.js';

/** Roles as typed on the command line (`client-admin`), as stored (`client_admin`). */
const ROLE_OPTION = oneOf('operator', 'client-admin', 'client-viewer');
const ROLE_HELP =
  'operator (every client), client-admin (one client, may review) or client-viewer (one client, read only)';
const stored = (role: string): PortalRole => role.replace('-', '_') as PortalRole;
const shown = (role: PortalRole): string => role.replace('_', '-');

/** The password from standard input, or a generated one that is printed once. */
async function passwordFrom(stdin: boolean | undefined) {
  const generated = stdin ? undefined : crypto.randomBytes(15).toString('base64url');
  const password = generated ?? (await text(process.stdin)).replace(/\r?\n$/, '');
  return { password, generated };
}

const view = (user: PortalUserRow) => ({
  id: user.id,
  email: user.email,
  role: shown(user.role),
  client_id: user.client_id,
  disabled: user.disabled_at !== null,
  /** Invited from the portal, and the set-password link not used yet: cannot sign in. */
  invited: !hasPassword(user),
});

/** What keeps a user from signing in, for the list's text. */
const standing = (user: PortalUserRow): string =>
  (user.disabled_at !== null ? '  (disabled)' : '') +
  (hasPassword(user) ? '' : '  (invited, no password yet)');

const describe = (user: PortalUserRow, generated?: string): string =>
  table([
    ['id', user.id],
    ['e-mail', user.email],
    ['role', shown(user.role) + (user.client_id ? ` of client ${user.client_id}` : '')],
    ...(user.disabled_at !== null ? [['disabled', when(user.disabled_at)] as [string, string]] : []),
    ...(hasPassword(user) ? [] : [['password', 'none yet (invited)'] as [string, string]]),
    ...(generated ? [['password', `${generated} (shown this once)`] as [string, string]] : []),
  ]);

export function usersCommand(): Command {
  const users = new Command('users').description('manage results-portal users');
  users
    .command('create')
    .description('create a portal user; without --password-stdin a password is generated and shown once')
    .requiredOption('--email <address>', 'sign-in e-mail')
    .requiredOption('--role <role>', ROLE_HELP, ROLE_OPTION)
    .option('--client <id>', 'the client of a client user')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print one JSON object')
    .action((o: { email: string; role: string; client?: string; passwordStdin?: boolean; json?: boolean }) =>
      withStorage(async (deps) => {
        const { password, generated } = await passwordFrom(o.passwordStdin);
        const user = await createPortalUser(
          deps,
          {
            email: o.email,
            password,
            role: stored(o.role),
            ...(o.client !== undefined && { clientId: o.client }),
          },
          CLI_ACTOR,
        );
        print(o.json, generated ? { ...view(user), password: generated } : view(user), () =>
          ['Portal user created.', describe(user, generated)].join('\n'),
        );
      }),
    );

  users
    .command('update')
    .description("change a user's role or client, or disable or enable them (their sessions end)")
    .requiredOption('--email <address>', 'the user')
    .option('--role <role>', ROLE_HELP, ROLE_OPTION)
    .option('--client <id>', 'the client of a client user')
    .option('--disable', 'stop the user from signing in')
    .option('--enable', 'let a disabled user sign in again')
    .option('--json', 'print one JSON object')
    .action(
      (o: {
        email: string;
        role?: string;
        client?: string;
        disable?: boolean;
        enable?: boolean;
        json?: boolean;
      }) =>
        withStorage(async (deps) => {
          const user = await updatePortalUser(
            deps,
            {
              email: o.email,
              ...(o.role !== undefined && { role: stored(o.role) }),
              ...(o.client !== undefined && { clientId: o.client }),
              ...((o.disable || o.enable) && { disabled: o.disable === true }),
            },
            CLI_ACTOR,
          );
          print(o.json, view(user), () => ['Portal user updated.', describe(user)].join('\n'));
        }),
    );

  users
    .command('reset-password')
    .description(
      "set a user's password (generated and shown once without --password-stdin); their sessions end",
    )
    .requiredOption('--email <address>', 'the user')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print one JSON object')
    .action((o: { email: string; passwordStdin?: boolean; json?: boolean }) =>
      withStorage(async (deps) => {
        const { password, generated } = await passwordFrom(o.passwordStdin);
        const user = await resetPassword(deps, { email: o.email, password }, CLI_ACTOR);
        print(o.json, generated ? { ...view(user), password: generated } : view(user), () =>
          ['Password reset; the user is signed out everywhere.', describe(user, generated)].join('\n'),
        );
      }),
    );

  users
    .command('unlock')
    .description(
      'lift the sign-in lock of a user locked out by wrong passwords (their failures are forgotten)',
    )
    .requiredOption('--email <address>', 'the user')
    .option('--json', 'print one JSON object')
    .action((o: { email: string; json?: boolean }) =>
      withStorage(async (deps) => {
        const redis = await openRedis(deps.config, deps.logger);
        try {
          const signInLimits = await createSignInLimits({ database: deps.database, redis });
          const user = await unlockSignIn({ ...deps, signInLimits }, o.email, CLI_ACTOR);
          print(o.json, view(user), () => `${user.email} may sign in again.`);
        } finally {
          redis?.disconnect();
        }
      }),
    );

  users
    .command('list')
    .description('every portal user')
    .option('--json', 'print one JSON object')
    .action((o: { json?: boolean }) =>
      withStorage(async (deps) => {
        const all = await listPortalUsers(deps.db);
        print(o.json, { users: all.map(view) }, () =>
          all.length === 0
            ? 'No users.'
            : all
                .map(
                  (u) =>
                    `${u.email}  ${shown(u.role)}${u.client_id ? ` of ${u.client_id}` : ''}${standing(u)}`,
                )
                .join('\n'),
        );
      }),
    );
  return users;
}
