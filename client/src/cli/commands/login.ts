// jes login [--username U] [--password-stdin]: logs in and stores the token for this service URL. The user name and
// password may come from JES_USERNAME and JES_PASSWORD, the line a first `jes-server` start prints to paste.
import { type Command, Option } from 'commander';
import { createJesClient } from '../../index.ts';
import { context } from '../context.ts';
import { must, usageError } from '../errors.ts';
import { promptHidden, readStdin } from '../prompt.ts';
import { saveToken } from '../token-store.ts';

export function loginCommand(program: Command): void {
  program
    .command('login')
    .description('log in and keep the token (in $XDG_CONFIG_HOME/jes or ~/.config/jes, mode 0600)')
    .addOption(new Option('--username <name>', 'your user name').env('JES_USERNAME').makeOptionMandatory())
    .option(
      '--password-stdin',
      'read the password from standard input (else from $JES_PASSWORD, else it is asked for on the terminal)',
    )
    .action(async (options: { username: string; passwordStdin?: boolean }, command: Command) => {
      const ctx = context(command);
      let password: string;
      if (options.passwordStdin) password = await readStdin();
      else if (process.env.JES_PASSWORD) password = process.env.JES_PASSWORD;
      else if (process.stdin.isTTY)
        password = await promptHidden(`Password for ${options.username} at ${ctx.baseUrl}: `);
      else
        throw usageError(
          'no terminal to ask for the password on: pipe it in with --password-stdin, or set JES_PASSWORD',
        );
      if (!password) throw usageError('the password is empty');

      const login = must(
        await createJesClient({ baseUrl: ctx.baseUrl }).login({ username: options.username, password }),
      );
      const expiresAt = new Date(Date.now() + login.expires_in * 1000).toISOString();
      const file = await saveToken(ctx.baseUrl, {
        username: options.username,
        token: login.access_token,
        expires_at: expiresAt,
      });
      ctx.print(
        { base_url: ctx.baseUrl, username: options.username, expires_at: expiresAt, credentials_file: file },
        () =>
          `Logged in to ${ctx.baseUrl} as ${options.username}; the token is valid until ${expiresAt} (kept in ${file}).\n`,
      );
    });
}
