// The jes-conformance command: options (or JES_CONFORMANCE_* variables) to runConformance, with the checks of the
// modules --checks names (check-modules.ts) and the operations --operation selects; the contract versions
// (the suite's and the deployment's, a warning when they may differ), one line per check as it ends (a line on
// stderr for each wait for a rate limit), the coverage, the deprecated operations used and the closing line, the
// JUnit and markdown files and the HAR (--har) when asked. Exit codes: 0 nothing failed, 1 a check failed, 2 usage
// or a deployment that could not be reached. `jes-conformance replay <file.har>` sends a recorded run again
// (replay-command.ts): a line per difference, 0 none, 1 some, 2 usage or unreachable. The options are
// command-options.ts's, the reproduce lines reproduction.ts's.
import { randomBytes } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { packageVersion } from '@jes/contract/package-version';
import { Command, CommanderError, Option } from 'commander';
import { loadChecks, moduleOf } from './check-modules.ts';
import {
  accessOptions,
  conformanceOptions,
  defaultBaseUrl,
  integer,
  list,
  listen,
  milliseconds,
  type Options,
  rate,
  repeated,
  replayPath,
  type ReplayCommandOptions,
  type SourceOf,
} from './command-options.ts';
import { type ConfigRead, defaultConfigFile, readConfig } from './config-file.ts';
import { contractAt } from './contract/contract.ts';
import { variables } from './environment.ts';
import { rateText } from './pace.ts';
import { replayCommand } from './replay-command.ts';
import {
  closingLine,
  coverageLines,
  deprecatedLine,
  heading,
  type Reproduce,
  resultText,
  versionsLines,
  waitLine,
} from './report/console.ts';
import {
  deprecatedAnnotation,
  failureAnnotations,
  unreachableAnnotation,
  versionsAnnotation,
} from './report/github.ts';
import { junitXml } from './report/junit.ts';
import { markdownReport } from './report/markdown.ts';
import { reproduction } from './reproduction.ts';
import { defaultRuns, defaultSeed, type PreparedRun, prepareRun, runPrepared } from './run.ts';
import { runChecks, selectChecks } from './selection.ts';
import type { ConformanceOptions } from './types.ts';

/** The command; `onReplay` is told of `jes-conformance replay <file.har>` and its options when that is what was asked. */
export function program(
  onReplay: (file: string, options: ReplayCommandOptions, sourceOf: SourceOf) => void = () => undefined,
): Command {
  const command = new Command('jes-conformance')
    .description('Checks a deployment of the Job Execution Service against the contract (openapi.yaml).')
    .version(packageVersion(import.meta.dirname) ?? 'unknown', '-v, --version', 'print the version')
    .addOption(new Option('--base-url <url>', 'the deployment').env(variables.baseUrl).default(defaultBaseUrl))
    .addOption(new Option('--username <name>', 'the user to run as').env(variables.username))
    .addOption(new Option('--password <password>', 'its password').env(variables.password))
    .addOption(new Option('--second-user <name:password>', 'a second user, for isolation').env(variables.secondUser));
  for (const option of accessOptions()) command.addOption(option);
  command
    .addOption(
      new Option('--profile <profile>', 'full: every check; sandbox: what a stateless mock can pass')
        .choices(['full', 'sandbox'])
        .env(variables.profile)
        .default('full'),
    )
    .addOption(
      new Option('--only <check>', 'run only this check (repeat, or separate with commas)')
        .argParser(list)
        .default([], 'every check'),
    )
    .addOption(
      new Option(
        '--operation <operationId>',
        'run only the checks of this operation, the checks of every operation aimed at it alone (repeat, or separate with commas)',
      )
        .argParser(list)
        .default([], 'every operation'),
    )
    .addOption(
      new Option(
        '--checks <module>',
        'also run the checks this module exports (a path from here, .mjs or .js, or .ts where Node strips types; or a package name; repeat for more)',
      )
        .argParser(repeated)
        .default([], 'none'),
    )
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--report <file.md>', 'also write a markdown report')
    .option(
      '--rate-limit <n/s>',
      'send at most this many requests per second (10/s), minute (600/m) or hour (3600/h)',
      rate,
    )
    .option('--seed <n>', 'fast-check seed of the generated checks', integer, defaultSeed)
    .option('--runs <n>', 'generated cases per target (see the cost below)', integer, defaultRuns)
    .option(
      '--replay-path <target/path>',
      'replay exactly one generated case, as a failure gives it (with --only <check>, --seed and --runs)',
      replayPath,
    )
    .option(
      '--max-response-time <ms>',
      'response_time fails every answer slower than this (default: no budget; it notes the slowest)',
      milliseconds,
    )
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
    .option('--config <file>', `read settings from this JSON file (default: ./${defaultConfigFile} when it exists)`)
    .addOption(
      new Option(
        '--github-annotations',
        'print a GitHub Actions annotation per failure and add the markdown report to the job summary (default: on when GITHUB_ACTIONS=true)',
      ),
    )
    .addOption(new Option('--no-github-annotations', 'none of that, even under GitHub Actions'))
    .option(
      '--har <file.har>',
      'also record every request and answer of the run in this HAR file (secrets redacted; gzipped when it ends in .gz)',
    )
    .option('--list', 'list the checks (those --only, --operation and --checks select) and what each means, then exit')
    .addHelpText(
      'after',
      [
        '',
        "The run keeps to the deployment's RateLimit headers and waits out a 429 as its Retry-After says (a line",
        'on stderr for each wait). The reference server allows 60 new jobs and files a minute per user, a little',
        'less than a run starts, so a run waits once, about a minute in all; JES_RATE_LIMITS=off takes it under 20 s.',
        'Each failure comes with a curl command that sends its request again (bash or zsh). Secrets never appear:',
        'tokens, passwords and the -H headers are shown hidden, and the commands read them from the variables above.',
        'Requests go through the proxies that HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or lower-case) name.',
        '',
        'Generated cases: negative_data_rejection and positive_data_acceptance send --runs cases to each of their',
        'targets (23 against the reference server, 4 more per use case listed). Each extra run costs about 27 requests',
        '(6 per use case and 16 more; 4 new jobs and an upload among them) and 0.9 s against the reference server on',
        'a 2-core machine: a default run sends about 560 + 27 × runs. A failing case is shrunk (at most 48 more cases',
        'or 30 s) and reported with the --replay-path that sends exactly it again (with --only, --seed and --runs).',
        '',
        'The webhook checks run only with --webhook-listen: the suite sets your webhook to that address for the run',
        '(and puts it back), and waits about 6 s for a retry the contract schedules 5 s after a failed attempt.',
        '',
        `Settings can be kept in a JSON file (--config, or ./${defaultConfigFile}): the options' long names in`,
        'camelCase ({"baseUrl": "https://…", "maxResponseTime": 500, "only": ["lifecycle"]}), paths relative to the file.',
        'The command line comes first, then the variables, then the file.',
        '',
        'Exit codes: 0 nothing failed, 1 a check failed, 2 usage or the deployment could not be reached.',
      ].join('\n'),
    )
    .showHelpAfterError('(run jes-conformance --help for usage)')
    .exitOverride()
    // The run's options come before `replay`, the replay's after it (both have --base-url).
    .enablePositionalOptions()
    .action(() => undefined);
  const replay = command
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
    );
  for (const option of accessOptions()) replay.addOption(option);
  replay
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
    .action((file: string, options: ReplayCommandOptions, replay: Command) =>
      onReplay(file, options, (option) => replay.getOptionValueSource(option)),
    );
  return command;
}

/** Runs the command with `args` (without node and the script); resolves to the exit code. */
export async function run(
  args: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<number> {
  let replay: { file: string; options: ReplayCommandOptions; sourceOf: SourceOf } | undefined;
  const command = program((file, options, sourceOf) => (replay = { file, options, sourceOf }));
  let options: ConformanceOptions;
  let o: Options;
  let sourceOf: SourceOf;
  let reproduce: Reproduce;
  let prepared: PreparedRun;
  let config: ConfigRead | undefined;
  let github = false;
  // The runner reads a workflow command on any line of the step's output, the deployment's words included: commands
  // are stopped for the whole run (a token no one else knows), and started again only for each annotation of ours.
  const stopToken = randomBytes(16).toString('hex');
  const annotate = (line: string | undefined) => {
    if (!github || line === undefined) return;
    out(`::${stopToken}::`);
    out(line);
    out(`::stop-commands::${stopToken}`);
  };
  try {
    command.parse(args, { from: 'user' });
    if (replay) return await replayCommand(replay.file, replay.options, replay.sourceOf, out, err);
    config = readConfig(command, command.opts<Options>().config);
    for (const warning of config?.warnings ?? []) err(`warning: ${warning}`);
    o = command.opts<Options>();
    const extra = await loadChecks(o.checks);
    if (o.list) {
      const contract = contractAt(o.contract);
      const listed = selectChecks(runChecks(contract, extra), { only: o.only, operations: o.operation }, contract);
      for (const check of listed) {
        const module = moduleOf(check);
        out(`${check.name.padEnd(29)} ${check.description}${module ? ` (from ${module})` : ''}`);
      }
      return 0;
    }
    sourceOf = (option) => command.getOptionValueSource(option);
    options = { ...conformanceOptions(o, sourceOf), ...(extra.length ? { checks: extra } : {}) };
    reproduce = reproduction(options, o, sourceOf);
    // GitHub Actions sets GITHUB_ACTIONS=true in every step; the option (or the settings file) overrides it.
    github = o.githubAnnotations ?? process.env.GITHUB_ACTIONS === 'true';
    const given = new Set<string>();
    prepared = prepareRun({
      ...options,
      onVersions: (versions) => {
        versionsLines(versions).forEach((line) => out(line));
        annotate(versionsAnnotation(versions));
      },
      onResult: (result) => {
        out(resultText(result, reproduce, given));
        if (github) failureAnnotations(result, reproduce).forEach(annotate);
      },
      onWait: (wait) => err(waitLine(wait)),
    });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  if (github) out(`::stop-commands::${stopToken}`);
  out(
    heading({
      baseUrl: options.baseUrl,
      profile: options.profile!,
      seed: options.seed!,
      runs: options.runs!,
      ...(o.rateLimit ? { rateLimit: rateText(o.rateLimit) } : {}),
      ...(options.operations ? { operations: options.operations } : {}),
      ...(config ? { config: config.path } : {}),
    }),
  );
  const report = await runPrepared(prepared);
  for (const line of coverageLines(report.coverage)) out(line);
  const deprecated = deprecatedLine(report.coverage);
  if (deprecated) out(deprecated);
  annotate(deprecatedAnnotation(report.coverage));
  annotate(unreachableAnnotation(report));
  out(closingLine(report));
  // Commands run again after the run, for the steps' own lines that follow.
  if (github) out(`::${stopToken}::`);
  if (o.junit) writeFileSync(o.junit, junitXml(report, reproduce));
  if (o.report) writeFileSync(o.report, markdownReport(report, reproduce));
  if (github && process.env.GITHUB_STEP_SUMMARY)
    appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdownReport(report, reproduce));
  if (report.unreachable) {
    err(`jes-conformance: ${report.unreachable.message}`);
    return 2;
  }
  return report.failed ? 1 : 0;
}
