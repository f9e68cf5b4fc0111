// walkaround users create (README.md#operating-it): portal accounts.
import crypto from 'node:crypto';
import { text } from 'node:stream/consumers';
import { Command } from 'commander';
import { createPortalUser } from '../services/portal-users.js';
import { print, table, withStorage } from './context.js';
import { oneOf } from './options.js';

export function usersCommand(): Command {
  const users = new Command('users').description('manage results-portal users');
  users
    .command('create')
    .description('create a portal user; without --password-stdin a password is generated and shown once')
    .requiredOption('--email <address>', 'login e-mail')
    .requiredOption(
      '--role <role>',
      'operator (all clients) or client (one client)',
      oneOf('operator', 'client'),
    )
    .option('--client <id>', 'the client of a client user')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print one JSON object')
    .action(
      (o: {
        email: string;
        role: 'operator' | 'client';
        client?: string;
        passwordStdin?: boolean;
        json?: boolean;
      }) =>
        withStorage(async (deps) => {
          const generated = o.passwordStdin ? undefined : crypto.randomBytes(15).toString('base64url');
          const password = generated ?? (await text(process.stdin)).replace(/\r?\n$/, '');
          const user = await createPortalUser(deps, {
            email: o.email,
            password,
            role: o.role,
            ...(o.client !== undefined && { clientId: o.client }),
          });
          const shown = { id: user.id, email: user.email, role: user.role, client_id: user.client_id };
          print(o.json, generated ? { ...shown, password: generated } : shown, () =>
            [
              'Portal user created.',
              table([
                ['id', user.id],
                ['e-mail', user.email],
                ['role', user.role + (user.client_id ? ` of client ${user.client_id}` : '')],
                ...(generated ? [['password', `${generated} (shown this once)`] as [string, string]] : []),
              ]),
            ].join('\n'),
          );
        }),
    );
  return users;
}
