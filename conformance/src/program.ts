// The jes-conformance command: options (or JES_CONFORMANCE_* variables) to runConformance, one line per
// check as it ends, the closing line, the JUnit and markdown files when asked. Exit codes: 0 nothing
// failed, 1 a check failed, 2 usage.
import { writeFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { checks } from './checks/registry.ts';
import { fromEnvironment, splitUser } from './environment.ts';
import { closingLine, heading, resultText } from './report/console.ts';
import { junitXml } from './report/junit.ts';
import { markdownReport } from './report/markdown.ts';
import { checkNames, defaultRuns, defaultSeed, runConformance } from './run.ts';
import type { ConformanceOptions, Profile } from './types.ts';

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
  contract?: string;
  list?: boolean;
}

const env = fromEnvironment();

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

function checkList(value: string, previous: string[]): string[] {
  const names = value.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !checkNames().includes(n));
  if (unknown.length) throw new InvalidArgumentError(`unknown check ${unknown.join(', ')} (see --list)`);
  return [...previous, ...names];
}

export function program(): Command {
  return new Command('jes-conformance')
    .description('Checks a deployment of the Job Execution Service against the contract (openapi.yaml).')
    .option('--base-url <url>', 'the deployment (default: $JES_CONFORMANCE_BASE_URL, else http://localhost:3000)', env.baseUrl ?? 'http://localhost:3000')
    .option('--username <name>', 'the user to run as (default: $JES_CONFORMANCE_USERNAME)', env.username)
    .option('--password <password>', 'its password (default: $JES_CONFORMANCE_PASSWORD)', env.password)
    .option('--second-user <name:password>', 'a second user, for isolation (default: $JES_CONFORMANCE_SECOND_USER)', env.secondUser)
    .addOption(new Option('--profile <profile>', 'full: every check; sandbox: what a stateless mock can pass').choices(['full', 'sandbox']).default(env.profile ?? 'full'))
    .option('--only <check>', 'run only this check (repeat, or separate with commas)', checkList, [])
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--report <file.md>', 'also write a markdown report')
    .option('--seed <n>', 'fast-check seed of the generated checks', integer, defaultSeed)
    .option('--runs <n>', 'generated cases per target', integer, defaultRuns)
    .option('--contract <openapi.yaml>', "the contract to hold the deployment to (default: the one this package carries)")
    .option('--list', 'list the checks and what each means, then exit')
    .addHelpText('after', '\nExit codes: 0 nothing failed, 1 a check failed, 2 usage.')
    .showHelpAfterError('(run jes-conformance --help for usage)')
    .exitOverride();
}

function conformanceOptions(o: Options): ConformanceOptions {
  const sandbox = o.profile === 'sandbox';
  const username = o.username ?? (sandbox ? 'sandbox' : undefined);
  const password = o.password ?? (sandbox ? 'sandbox' : undefined);
  if (username === undefined || password === undefined) throw new Error('--username and --password are required (or JES_CONFORMANCE_USERNAME and JES_CONFORMANCE_PASSWORD)');
  const second = o.secondUser === undefined ? undefined : splitUser(o.secondUser);
  if (o.secondUser !== undefined && !second) throw new Error('--second-user takes name:password');
  return {
    baseUrl: o.baseUrl, username, password, profile: o.profile, only: o.only, seed: o.seed, runs: o.runs,
    ...(second ? { username2: second.username, password2: second.password } : {}),
    ...(o.contract ? { contractPath: o.contract } : {}),
  };
}

/** Runs the command with `args` (without node and the script); resolves to the exit code. */
export async function run(args: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const command = program();
  let options: ConformanceOptions;
  try {
    command.parse(args, { from: 'user' });
    const o = command.opts<Options>();
    if (o.list) {
      for (const check of checks) out(`${check.name.padEnd(29)} ${check.description}`);
      return 0;
    }
    options = conformanceOptions(o);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
  out(heading({ baseUrl: options.baseUrl, profile: options.profile!, seed: options.seed!, runs: options.runs! }));
  const report = await runConformance({ ...options, onResult: (result) => out(resultText(result)) });
  out(closingLine(report));
  const o = command.opts<Options>();
  if (o.junit) writeFileSync(o.junit, junitXml(report));
  if (o.report) writeFileSync(o.report, markdownReport(report));
  return report.failed ? 1 : 0;
}
