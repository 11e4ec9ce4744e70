#!/usr/bin/env node
// `jes-server` (or `jes-server serve`): the API server with solver workers. `jes-server worker`: solver workers
// only, against DATABASE_URL. `jes-server hash-password`: a password's hash for JES_USERS. Settings come from the
// environment (settings.ts lists them; --help prints them).
// Exit codes: 0 stopped by SIGTERM (after JES_DRAIN_SECONDS) or SIGINT, 1 an invalid setting or a failure while
// running, 2 usage.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Command, CommanderError } from 'commander';
import { hashPassword } from '../auth/passwords.ts';
import { ConfigError, readConfig } from '../config/config.ts';
import type { Listening } from './listen.ts';
import { createLogger } from './logger.ts';
import { guardProcess } from './process-guard.ts';
import { type Stoppable, stopOnSignals } from './signals.ts';
import { settingsTable } from '../config/settings.ts';
import { contractVersion, serverVersion } from '../core/version.ts';

/** Where it listens, and where a listen on the loopback alone can be opened up (HOST). */
function where({ url, address, port, allInterfaces }: Listening): string {
  if (allInterfaces) return `${url} (on every interface: ${address}, port ${port})`;
  if (/^(127\.|::1$)/.test(address)) return `${url} (this machine only; HOST=0.0.0.0 listens on every interface)`;
  return url;
}

/** The lines a first start prints to log in as the user it made: the guides and `jes` read these variables. */
const demoLines = (password: string) =>
  `Created user demo with a random password, shown this once (JES_USERS=name:password chooses users). To log in as\n` +
  `it with the guides' commands and jes, paste this line into the shell you run them from:\n` +
  `  export JES_USERNAME=demo JES_PASSWORD='${password}'`;

/** Where the ops listener (JES_METRICS_PORT) is: a test or a scraper's set-up reads the URL from this line. */
const opsLine = (url: string, metrics: boolean) => (metrics ? `metrics at ${url}/metrics` : `ops listener at ${url}`);

async function run(command: 'serve' | 'worker'): Promise<void> {
  const config = readConfig();
  // Imported once the settings hold: --help, --version, hash-password and an invalid setting answer without loading
  // the server (Express, PGlite, Ajv): 0.6 s of a core instead of 0.9.
  const { startServer, startWorker } = await import('./main.ts');
  const logger = createLogger(config);
  guardProcess(logger);
  let running: Stoppable;
  if (command === 'serve') {
    const server = await startServer(config, logger);
    console.log(
      `jes server listening on ${where(server.listening)}\nAPI reference at ${server.url}/docs, contract at ${server.url}/openapi.yaml\nDashboard at ${server.url}/app`,
    );
    if (server.demoPassword) console.log(demoLines(server.demoPassword));
    if (server.opsUrl) console.log(opsLine(server.opsUrl, config.metrics.enabled));
    running = server;
  } else {
    const worker = await startWorker(config, logger);
    console.log(`jes worker running ${worker.threads} solver threads`);
    if (worker.opsUrl) console.log(opsLine(worker.opsUrl, config.metrics.enabled));
    running = worker;
  }
  stopOnSignals(running, config.drainSeconds);
}

/** `jes-server hash-password`: the first line of stdin (typed at a terminal, not echoed, or piped), hashed. */
async function printHash(): Promise<void> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  // At a terminal readline takes the echo over and echoes to its output: a sink, so the password is not shown.
  const lines = createInterface({
    input: process.stdin,
    output: new Writable({ write: (_, __, done) => done() }),
    terminal: Boolean(process.stdin.isTTY),
  });
  const [password] = await Promise.race([once(lines, 'line'), once(lines, 'close').then(() => [''])]);
  lines.close();
  if (process.stdin.isTTY) process.stderr.write('\n');
  if (!password) throw new ConfigError('hash-password: no password on stdin (give it as the first line)');
  console.log(await hashPassword(password));
}

function program(): Command {
  const program = new Command('jes-server')
    .description(
      `The reference server of the Job Execution Service (contract ${contractVersion}), on its embedded database or PostgreSQL.`,
    )
    .helpOption('-h, --help', 'show this help')
    .version(serverVersion, '-v, --version', 'print the version')
    .addHelpText(
      'after',
      `\nSettings (environment variables; an invalid one stops start-up with a line naming it):\n${settingsTable()}\n\n` +
        'Exit codes: 0 stopped by SIGTERM or SIGINT, 1 an invalid setting or a failure, 2 usage.',
    )
    .showHelpAfterError('(run jes-server --help for usage)')
    .exitOverride();
  program
    .command('serve', { isDefault: true })
    .description('the API, the dashboard (/app), the API reference (/docs) and solver threads (the default)')
    .action(() => run('serve'));
  program
    .command('worker')
    .description(
      "solver threads only, taking work from the PostgreSQL at DATABASE_URL (no HTTP but JES_METRICS_PORT's /metrics)",
    )
    .action(() => run('worker'));
  program
    .command('hash-password')
    .description(
      'read a password from stdin (its first line) and print its salted scrypt hash, to name in JES_USERS as name:hash',
    )
    .action(printHash);
  program
    .command('help')
    .description('show this help')
    .action(() => program.help());
  return program;
}

const commands = ['serve', 'worker', 'hash-password', 'help'];
try {
  const cli = program();
  const args = process.argv.slice(2);
  // Any other word would be taken as an argument of serve, the default: name it as the unknown command it is.
  const word = args.find((arg) => !arg.startsWith('-'));
  if (word !== undefined && !commands.includes(word))
    cli.error(`error: unknown command '${word}' (the commands are ${commands.join(', ')})`);
  await cli.parseAsync(args, { from: 'user' });
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof ConfigError) {
    console.error(`jes-server: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
