// The `jes` command line: commander's program with every command, and how a run ends (exit codes: 0 ok, 1 a job
// ended in ERROR or CANCELLED, 2 usage, 3 an HTTP or problem error printed as `code: detail`, 130 interrupted).
import { Command, CommanderError, Option } from 'commander';
import { dataFileCommands } from './commands/data-files.ts';
import { jobCommands } from './commands/jobs.ts';
import { loginCommand } from './commands/login.ts';
import { problemsCommand } from './commands/problems.ts';
import { submitCommand } from './commands/submit.ts';
import { watchCommand } from './commands/watch.ts';
import { webhookCommands } from './commands/webhook.ts';
import { baseUrlOf, defaultBaseUrl, type GlobalOptions, sandboxUrl } from './context.ts';
import { connectionError, ExitError, exitCodes, failureText, usageError } from './errors.ts';
import { json } from './format.ts';
import { packageVersion } from '@jes/contract/package-version';

/** The program; `quiet()` true silences commander's own error output (run() prints the error as JSON instead). */
export function program(quiet: () => boolean = () => false): Command {
  const jes = new Command('jes')
    .description(
      'The Job Execution Service from the command line: log in, submit max-cut and QUBO jobs, follow them, read their answers, set a webhook.',
    )
    .version(
      packageVersion(import.meta.dirname) ?? 'unknown',
      '-v, --version',
      'print the version of jes (@jes/client)',
    )
    .option(
      '--base-url <url>',
      `the service's URL; host:port means http://host:port (default: $JES_BASE_URL, else ${defaultBaseUrl})`,
    )
    .addOption(new Option('--sandbox', `use the sandbox at ${sandboxUrl()} (npm run sandbox)`).conflicts('baseUrl'))
    .option('--json', 'print JSON for scripts instead of tables (errors too, on stderr)')
    // Before the commands are added: they take the help and output settings from the program.
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ writeErr: (text) => quiet() || process.stderr.write(text) })
    .showHelpAfterError('(run jes --help for usage)')
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 the job ended in ERROR or CANCELLED, 2 usage, 3 HTTP or problem error (printed as "code: detail"), 130 interrupted.\nThe token comes from $JES_TOKEN, else from jes login (kept per service URL).',
    );
  loginCommand(jes);
  problemsCommand(jes);
  submitCommand(jes);
  jobCommands(jes);
  watchCommand(jes);
  dataFileCommands(jes);
  webhookCommands(jes);
  // Every (sub)command reports usage errors by exception, so that they exit with 2, not commander's 1.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(jes);
  return jes;
}

/** Commander's usage error as ours: its message without the `error: ` it prints. */
function commanderUsage(error: CommanderError): ExitError {
  if (error.code === 'commander.help') return usageError('a command is missing (run jes --help for usage)');
  return usageError(error.message.replace(/^error: /, ''));
}

/** Runs `jes` with `args` (without the node and script paths); resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const options = args.indexOf('--') < 0 ? args : args.slice(0, args.indexOf('--'));
  // --json as commander parsed it, else as written (for an error met before commander reached it).
  const asJson = () => jes.opts<GlobalOptions>().json === true || options.includes('--json');
  const jes = program(asJson);
  try {
    await jes.parseAsync(args, { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    let known: ExitError | undefined;
    if (error instanceof CommanderError) {
      // Commander has printed the help, or the message unless --json; help asked for exits 0.
      if (error.exitCode === 0) return exitCodes.ok;
      known = commanderUsage(error);
      if (!asJson()) return known.exitCode;
    } else {
      known = error instanceof ExitError ? error : connectionError(error, baseUrlOf(jes.opts<GlobalOptions>()));
    }
    if (!known) throw error;
    if (known.failure && asJson()) process.stderr.write(json(known.failure));
    else if (known.failure)
      process.stderr.write(`${failureText(known.failure)}\n` + (known.hint ? `hint: ${known.hint}\n` : ''));
    return known.exitCode;
  }
}
