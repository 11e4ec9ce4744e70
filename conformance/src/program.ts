// The jes-conformance command: options (or JES_CONFORMANCE_* variables) to runConformance, the contract versions
// (the suite's and the deployment's, a warning when they may differ), one line per check as it ends (a line on
// stderr for each wait for a rate limit), the coverage, the deprecated operations used and the closing line, the
// JUnit and markdown files and the HAR (--har) when asked. Exit codes: 0 nothing failed, 1 a check failed, 2 usage
// or a deployment that could not be reached. `jes-conformance replay <file.har>` sends a recorded run again
// (har/replay.ts): a line per difference, 0 none, 1 some, 2 usage or unreachable.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageVersion } from '@jes/contract/package-version';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { checks } from './checks/registry.ts';
import type { RecordedHar } from './har/har.ts';
import { readHar, replayHar, type ReplayReport } from './har/replay.ts';
import { splitUser, variables } from './environment.ts';
import { parseRate, rateText } from './pace.ts';
import {
  closingLine,
  coverageLines,
  deprecatedLine,
  heading,
  type Reproduce,
  resultText,
  versionsLines,
} from './report/console.ts';
import { createReproducer, type ReproduceSetup, reproduceLines } from './report/curl.ts';
import { differenceLine, replayClosing, replayHeading, replayJunit, replayMarkdown } from './report/replay.ts';
import { junitXml } from './report/junit.ts';
import { markdownReport } from './report/markdown.ts';
import { checkNames, defaultRuns, defaultSeed, runConformance } from './run.ts';
import type { ConformanceOptions, Profile, RateLimitWait } from './types.ts';
import { listenAddress } from './webhook-receiver.ts';

interface Options {
  baseUrl: string;
  username?: string;
  password?: string;
  secondUser?: string;
  profile: Profile;
  only: string[];
  junit?: string;
  report?: string;
  seed: number;
  runs: number;
  rateLimit?: string;
  contract?: string;
  webhookListen?: string;
  har?: string;
  list?: boolean;
}

/** The options of `jes-conformance replay <file.har>`. */
interface ReplayCommandOptions {
  baseUrl: string;
  username?: string;
  password?: string;
  secondUser?: string;
  rateLimit?: string;
  contract?: string;
  report?: string;
  junit?: string;
}

const defaultBaseUrl = 'http://localhost:3000';

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

function rate(value: string): string {
  if (parseRate(value) === undefined)
    throw new InvalidArgumentError('expected requests per second, minute or hour: 10/s, 600/m, 3600/h');
  return value;
}

function listen(value: string): string {
  if (!listenAddress(value))
    throw new InvalidArgumentError(
      'expected host:port, the address the deployment calls ([::1]:port for IPv6, port 0 for any free one; not 0.0.0.0)',
    );
  return value;
}

function checkList(value: string, previous: string[]): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !checkNames().includes(n));
  if (unknown.length) throw new InvalidArgumentError(`unknown check ${unknown.join(', ')} (see --list)`);
  return [...previous, ...names];
}

/** The command; `onReplay` is told of `jes-conformance replay <file.har>` and its options when that is what was asked. */
export function program(onReplay: (file: string, options: ReplayCommandOptions) => void = () => undefined): Command {
  const command = new Command('jes-conformance')
    .description('Checks a deployment of the Job Execution Service against the contract (openapi.yaml).')
    .version(packageVersion(import.meta.dirname) ?? 'unknown', '-v, --version', 'print the version')
    .addOption(new Option('--base-url <url>', 'the deployment').env(variables.baseUrl).default(defaultBaseUrl))
    .addOption(new Option('--username <name>', 'the user to run as').env(variables.username))
    .addOption(new Option('--password <password>', 'its password').env(variables.password))
    .addOption(new Option('--second-user <name:password>', 'a second user, for isolation').env(variables.secondUser))
    .addOption(
      new Option('--profile <profile>', 'full: every check; sandbox: what a stateless mock can pass')
        .choices(['full', 'sandbox'])
        .env(variables.profile)
        .default('full'),
    )
    .addOption(
      new Option('--only <check>', 'run only this check (repeat, or separate with commas)')
        .argParser(checkList)
        .default([], 'every check'),
    )
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--report <file.md>', 'also write a markdown report')
    .option(
      '--rate-limit <n/s>',
      'send at most this many requests per second (10/s), minute (600/m) or hour (3600/h)',
      rate,
    )
    .option('--seed <n>', 'fast-check seed of the generated checks', integer, defaultSeed)
    .option('--runs <n>', 'generated cases per target', integer, defaultRuns)
    .addOption(
      new Option(
        '--webhook-listen <host:port>',
        'receive webhook deliveries here (an address the deployment can reach) for the webhook checks',
      )
        .env(variables.webhookListen)
        .argParser(listen),
    )
    .option(
      '--contract <openapi.yaml>',
      'the contract to hold the deployment to (default: the one this package carries)',
    )
    .option('--har <file.har>', 'also record every request and answer of the run in this HAR file (secrets redacted)')
    .option('--list', 'list the checks and what each means, then exit')
    .addHelpText(
      'after',
      [
        '',
        "The run keeps to the deployment's RateLimit headers and waits out a 429 as its Retry-After says (a line",
        'on stderr for each wait). The reference server allows 60 new jobs and files a minute per user, a little',
        'less than a run starts, so a run waits once, about a minute in all; JES_RATE_LIMITS=off takes it under 20 s.',
        'Each failure comes with a curl command that sends its request again (bash or zsh).',
        'The webhook checks run only with --webhook-listen: the suite sets your webhook to that address for the run',
        '(and puts it back), and waits about 6 s for a retry the contract schedules 5 s after a failed attempt.',
        '',
        'Exit codes: 0 nothing failed, 1 a check failed, 2 usage or the deployment could not be reached.',
      ].join('\n'),
    )
    .showHelpAfterError('(run jes-conformance --help for usage)')
    .exitOverride()
    // The run's options come before `replay`, the replay's after it (both have --base-url).
    .enablePositionalOptions()
    .action(() => undefined);
  command
    .command('replay')
    .description(
      "send a recorded run's requests (--har) again, and report each answer that now differs in status, schema or semantics",
    )
    .argument('<file.har>', 'a HAR a run wrote with --har')
    .addOption(new Option('--base-url <url>', 'the deployment').env(variables.baseUrl).default(defaultBaseUrl))
    .addOption(new Option('--username <name>', "the user to run as (default: the recording's)").env(variables.username))
    .addOption(new Option('--password <password>', 'its password').env(variables.password))
    .addOption(
      new Option('--second-user <name:password>', 'the second user, when the recording has one').env(
        variables.secondUser,
      ),
    )
    .option(
      '--rate-limit <n/s>',
      'send at most this many requests per second (10/s), minute (600/m) or hour (3600/h)',
      rate,
    )
    .option('--contract <openapi.yaml>', 'the contract to judge the answers by (default: the one this package carries)')
    .option('--report <file.md>', 'also write a markdown report')
    .option('--junit <file>', 'also write a JUnit XML report (a testcase per check)')
    .addHelpText(
      'after',
      [
        '',
        'Each request goes again in the recorded order, with the ids the new deployment gives in place of those the',
        "recording got, and the password given here in place of the recording's redacted one. A poll the recording",
        'saw end is repeated (up to 30 s) until it ends now too. One line per difference: its entry in the HAR, the',
        'check that sent it, the request, and whether the status, the schema or the semantics (problem code, the',
        'status a job reached, a recomputed cut or energy, the keys and types of the body) differ.',
        '',
        'Exit codes: 0 nothing differs, 1 something does, 2 usage or the deployment could not be reached.',
      ].join('\n'),
    )
    .action((file: string, options: ReplayCommandOptions) => onReplay(file, options));
  return command;
}

function conformanceOptions(o: Options): ConformanceOptions {
  const sandbox = o.profile === 'sandbox';
  // An empty variable counts as unset.
  const username = o.username || (sandbox ? 'sandbox' : undefined);
  const password = o.password || (sandbox ? 'sandbox' : undefined);
  if (username === undefined || password === undefined)
    throw new Error(`--username and --password are required (or ${variables.username} and ${variables.password})`);
  const baseUrl = o.baseUrl || defaultBaseUrl;
  if (!/^https?:\/\/[^/]/i.test(baseUrl))
    throw new Error(
      `--base-url takes an http:// or https:// URL; got "${baseUrl}"${/^[\w.-]+:\d+/.test(baseUrl) ? ` (http://${baseUrl}?)` : ''}`,
    );
  const second = o.secondUser ? splitUser(o.secondUser) : undefined;
  if (o.secondUser && !second) throw new Error('--second-user takes name:password');
  return {
    baseUrl,
    username,
    password,
    profile: o.profile,
    only: o.only,
    seed: o.seed,
    runs: o.runs,
    ...(second ? { username2: second.username, password2: second.password } : {}),
    ...(o.contract ? { contractPath: o.contract } : {}),
    ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
    ...(o.webhookListen ? { webhookListen: o.webhookListen } : {}),
    ...(o.har ? { har: o.har } : {}),
  };
}

/** Where bodies too long for a reproduce line go: beside the markdown report, else a new folder in the temp folder. */
function bodyWriter(report: string | undefined): ReproduceSetup['writeBody'] {
  let dir: string | undefined;
  return (name, content) => {
    if (!dir) {
      dir = report
        ? resolve(`${report.replace(/\.md$/i, '')}.bodies`)
        : mkdtempSync(join(tmpdir(), 'jes-conformance-bodies-'));
      mkdirSync(dir, { recursive: true });
    }
    const path = join(dir, name.replace(/[^\w.-]/g, '_'));
    writeFileSync(path, content);
    return path;
  };
}

/** The reproduce lines of failures; passwords stay in the variables the command reads them from. */
function reproduction(options: ConformanceOptions, o: Options): Reproduce {
  const setup: ReproduceSetup = {
    baseUrl: options.baseUrl,
    users: {
      user: {
        username: options.username,
        password: options.password,
        ...(o.password ? { passwordExpression: `$${variables.password}`, passwordFrom: variables.password } : {}),
      },
      ...(options.username2 !== undefined && options.password2 !== undefined
        ? {
            user2: {
              username: options.username2,
              password: options.password2,
              passwordExpression: `\${${variables.secondUser}#*:}`,
              passwordFrom: `${variables.secondUser} (name:password)`,
            },
          }
        : {}),
    },
    writeBody: bodyWriter(o.report),
  };
  const reproducer = createReproducer(setup);
  return (exchange, given) => reproduceLines(reproducer, setup, exchange, given as Set<'user' | 'user2'>);
}

export function waitLine(wait: RateLimitWait): string {
  if (wait.retryAfter !== undefined)
    return `waiting ${wait.seconds} s for the rate limit (429 on ${wait.method} ${wait.path}, Retry-After ${wait.retryAfter})`;
  const quota = wait.quota !== undefined && wait.windowSeconds !== undefined;
  const spent = quota ? `its ${wait.quota} requests per ${wait.windowSeconds} s are spent` : 'nothing left';
  return `waiting ${wait.seconds} s for the rate limit "${wait.policy}" (${spent}; next: ${wait.method} ${wait.path})`;
}

/** Runs the command with `args` (without node and the script); resolves to the exit code. */
export async function run(
  args: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<number> {
  let replay: { file: string; options: ReplayCommandOptions } | undefined;
  const command = program((file, options) => (replay = { file, options }));
  let options: ConformanceOptions;
  let o: Options;
  try {
    command.parse(args, { from: 'user' });
    if (replay) return await replayCommand(replay.file, replay.options, out, err);
    o = command.opts<Options>();
    if (o.list) {
      for (const check of checks) out(`${check.name.padEnd(29)} ${check.description}`);
      return 0;
    }
    options = conformanceOptions(o);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  out(
    heading({
      baseUrl: options.baseUrl,
      profile: options.profile!,
      seed: options.seed!,
      runs: options.runs!,
      ...(o.rateLimit ? { rateLimit: rateText(o.rateLimit) } : {}),
    }),
  );
  const reproduce = reproduction(options, o);
  const given = new Set<string>();
  const report = await runConformance({
    ...options,
    onVersions: (versions) => versionsLines(versions).forEach((line) => out(line)),
    onResult: (result) => out(resultText(result, reproduce, given)),
    onWait: (wait) => err(waitLine(wait)),
  });
  for (const line of coverageLines(report.coverage)) out(line);
  const deprecated = deprecatedLine(report.coverage);
  if (deprecated) out(deprecated);
  out(closingLine(report));
  if (o.junit) writeFileSync(o.junit, junitXml(report, reproduce));
  if (o.report) writeFileSync(o.report, markdownReport(report, reproduce));
  if (report.unreachable) {
    err(`jes-conformance: ${report.unreachable.message}`);
    return 2;
  }
  return report.failed ? 1 : 0;
}

/** `jes-conformance replay <file.har>`: the recorded requests sent again, a line per difference; resolves to the exit code. */
async function replayCommand(
  file: string,
  o: ReplayCommandOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let har: RecordedHar;
  const second = o.secondUser ? splitUser(o.secondUser) : undefined;
  try {
    if (o.secondUser && !second) throw new Error('--second-user takes name:password');
    if (!/^https?:\/\/[^/]/i.test(o.baseUrl))
      throw new Error(`--base-url takes an http:// or https:// URL; got "${o.baseUrl}"`);
    har = readHar(file);
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  out(replayHeading(file, har.log._jes, har.log.entries.length, o.baseUrl));
  let report: ReplayReport;
  try {
    report = await replayHar({
      baseUrl: o.baseUrl,
      har,
      // An empty variable counts as unset.
      ...(o.username ? { username: o.username } : {}),
      ...(o.password ? { password: o.password } : {}),
      ...(second ? { username2: second.username, password2: second.password } : {}),
      ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
      ...(o.contract ? { contractPath: o.contract } : {}),
      onDifference: (difference) => out(differenceLine(difference)),
      onWait: (wait) => err(waitLine(wait)),
    });
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  out(replayClosing(report));
  if (o.report) writeFileSync(o.report, replayMarkdown(file, report));
  if (o.junit) writeFileSync(o.junit, replayJunit(file, report));
  if (report.unreachable) {
    err(`jes-conformance replay: ${report.unreachable}`);
    return 2;
  }
  return report.differences.length ? 1 : 0;
}
