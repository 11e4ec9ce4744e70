// The `jes` command line: commander's program with every command, and how a run ends (exit codes:
// 0 ok, 1 a job ended in ERROR or CANCELLED, 2 usage, 3 an HTTP or problem error printed as `code: detail`).
import { Command, CommanderError, Option } from 'commander';
import { dataFileCommands } from './commands/data-files.ts';
import { jobCommands } from './commands/jobs.ts';
import { loginCommand } from './commands/login.ts';
import { problemsCommand } from './commands/problems.ts';
import { submitCommand } from './commands/submit.ts';
import { baseUrlOf, defaultBaseUrl, type GlobalOptions, sandboxUrl } from './context.ts';
import { connectionError, ExitError, exitCodes } from './errors.ts';

export function program(): Command {
  const jes = new Command('jes')
    .description('The Job Execution Service from the command line: log in, submit max-cut jobs, follow them, read their cuts.')
    .option('--base-url <url>', `the service's URL (default: $JES_BASE_URL, else ${defaultBaseUrl})`)
    .addOption(new Option('--sandbox', `use the sandbox at ${sandboxUrl()} (npm run sandbox)`).conflicts('baseUrl'))
    .option('--json', 'print JSON for scripts instead of tables')
    .showHelpAfterError('(run jes --help for usage)')
    .addHelpText('after', '\nExit codes: 0 ok, 1 the job ended in ERROR or CANCELLED, 2 usage, 3 HTTP or problem error (printed as "code: detail").\nThe token comes from $JES_TOKEN, else from jes login (kept per service URL).');
  loginCommand(jes);
  problemsCommand(jes);
  submitCommand(jes);
  jobCommands(jes);
  dataFileCommands(jes);
  // Every (sub)command reports usage errors by exception, so that they exit with 2, not commander's 1.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(jes);
  return jes;
}

/** Runs `jes` with `args` (without the node and script paths); resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const jes = program();
  try {
    await jes.parseAsync(args, { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message or the help already; help asked for exits 0, help instead of a
      // missing command is a usage error.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    const known = error instanceof ExitError ? error : connectionError(error, baseUrlOf(jes.opts<GlobalOptions>()));
    if (!known) throw error;
    if (known.message) process.stderr.write(`${known.message}\n`);
    if (known.hint) process.stderr.write(`hint: ${known.hint}\n`);
    return known.exitCode;
  }
}
