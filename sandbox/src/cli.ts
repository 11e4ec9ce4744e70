#!/usr/bin/env node
// `jes-sandbox` (and `npm run sandbox` in the repository): the sandbox on port 4010, printing its URL and two
// lines per request (request-log.ts), until Ctrl-C. The flags are Prism's (`prism mock -p 4010 -h 0.0.0.0`), and
// the state's (`--seed`, `--speed`, the caps, `--stateless`); SANDBOX_PORT and SANDBOX_HOST set the same defaults.
// Exit codes: 0 stopped by a signal, 2 usage or a failure to start.
import { packageVersion } from '@jes/contract/package-version';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { scenarioOptions, withScenarioAndProxyFlags } from './cli-flags.ts';
import { proxyLogLines } from './proxy-log.ts';
import { startProxy } from './proxy.ts';
import { requestLogLines } from './request-log.ts';
import type { ScenarioOptions } from './scenarios.ts';
import { defaultWebhookAllowHosts, resetPath, startSandbox } from './server.ts';
import { defaultSpeed } from './state/clock.ts';
import { defaultLimits, type StateLimits } from './state/limits.ts';

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError('expected a port number (0 for any free port)');
  return Number(value);
}

function whole(most: number, what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) > most) throw new InvalidArgumentError(`expected ${what}`);
    return Number(value);
  };
}

function speed(value: string): number {
  const factor = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(factor > 0) || factor > 1_000_000)
    throw new InvalidArgumentError('expected a factor above 0 (1: as fast as a deployment, 10: ten times faster)');
  return factor;
}

/** The caps a flag sets, with their defaults (state/limits.ts). */
const caps: [flag: string, key: keyof StateLimits, what: string][] = [
  ['--max-users', 'maxUsers', 'users kept; past it the one seen least recently is forgotten'],
  ['--max-jobs-per-user', 'maxJobsPerUser', 'jobs kept per user; past it the oldest ended go'],
  ['--max-jobs', 'maxJobs', 'jobs kept in all'],
  ['--max-active-jobs', 'maxActiveJobsPerUser', 'jobs per user that have not ended (429 past it)'],
  ['--max-bytes-per-user', 'maxBytesPerUser', 'bytes of inputs, outputs and data files per user'],
  ['--max-bytes', 'maxBytes', 'bytes in all'],
  ['--max-streams-per-user', 'maxStreamsPerUser', 'event streams open at once per user (429 too_many_streams past it)'],
];

/** `--webhook-allow-hosts a,b`: the hosts; `none` (or nothing) for none, to refuse loopback as a deployment does. */
function hostList(value: string): string[] {
  const hosts = value
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
  return hosts.length === 1 && hosts[0] === 'none' ? [] : hosts;
}

function program(): Command {
  const command = new Command('jes-sandbox')
    .description(
      "A mock of the Job Execution Service: Prism's engine over the contract this package carries, keeping its conventions.",
    )
    .helpOption('--help', 'show this help')
    .version(packageVersion(import.meta.dirname) ?? 'unknown', '-v, --version', 'print the version')
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (0 for any free port)')
        .env('SANDBOX_PORT')
        .argParser(port)
        .default(4010),
    )
    .addOption(
      new Option('-h, --host <host>', 'address to listen on (0.0.0.0 for every interface)')
        .env('SANDBOX_HOST')
        .default('127.0.0.1'),
    )
    .option(
      '--errors',
      "Prism's --errors: always on in the mock, a request at odds with the contract answers 400 invalid_request; with --proxy, such a request is not forwarded and a response at odds with the contract answers 502",
    )
    .option('-d, --dynamic', "Prism's --dynamic: not offered, the sandbox answers with the contract's examples only")
    .option(
      '--stateless',
      "store nothing: answer with the contract's examples only (Prism's classic mock; Prefer: code=…, example=… choose)",
    )
    .addOption(
      new Option('--speed <factor>', 'how many times faster than a deployment jobs run (a 10 s time limit: 1 s at 10)')
        .argParser(speed)
        .default(defaultSpeed),
    );
  command.addOption(
    new Option(
      '--webhook-allow-hosts <hosts>',
      "hosts a webhook may call beside public ones, comma-separated (a deployment's JES_WEBHOOK_ALLOW_HOSTS); none to refuse loopback too",
    )
      .env('SANDBOX_WEBHOOK_ALLOW_HOSTS')
      .argParser(hostList)
      .default([...defaultWebhookAllowHosts], defaultWebhookAllowHosts.join(',')),
  );
  for (const [flag, key, what] of caps)
    command.addOption(
      new Option(`${flag} <n>`, what)
        .argParser(whole(Number.MAX_SAFE_INTEGER, 'a whole number'))
        .default(defaultLimits[key]),
    );
  return withScenarioAndProxyFlags(command)
    .addHelpText(
      'after',
      `\nStateful by default: any username and password log in, each username is its own user; jobs run on a simulated clock and answer valid (not good) outputs for the input sent. POST ${resetPath} forgets everything (sandbox-only, outside the contract).\nStateless: Prefer: code=404 or Prefer: example=pending choose among the contract's examples.\nPer request: Prefer: latency=300ms, Prefer: scenario=rate-limited | service-unavailable | dropped-connection | solver-error.\nExit codes: 0 stopped by a signal, 2 usage or a failure to start.`,
    )
    .showHelpAfterError('(run jes-sandbox --help for usage)')
    .exitOverride();
}

const command = program();
try {
  command.parse(process.argv.slice(2), { from: 'user' });
} catch (error) {
  process.exit(error instanceof CommanderError && error.exitCode === 0 ? 0 : 2);
}
const options = command.opts<
  {
    port: number;
    host: string;
    dynamic?: boolean;
    errors?: boolean;
    proxy?: string;
    stateless?: boolean;
    speed: number;
    webhookAllowHosts: string[];
  } & ScenarioOptions
>();
if (options.dynamic) {
  console.error(
    'jes-sandbox: --dynamic is not offered: generated bodies need not match the contract, so the sandbox answers with its examples only (Prefer: example=… chooses one)',
  );
  process.exit(2);
}

if (options.proxy && Object.keys(scenarioOptions(options)).length) {
  console.error(
    "jes-sandbox: --latency, --rate-limit, --unavailable, --drop and --seed are the mock's; the proxy answers what the deployment answers",
  );
  process.exit(2);
}

const limits = Object.fromEntries(
  caps.map(([, key]) => [key, command.getOptionValue(key) as number]),
) as Partial<StateLimits>;
const started = options.proxy
  ? startProxy({
      upstream: options.proxy,
      port: options.port,
      host: options.host,
      errors: options.errors === true,
      onExchange: (exchange) => console.log(proxyLogLines(new Date(), exchange)),
    })
  : startSandbox({
      port: options.port,
      host: options.host,
      ...scenarioOptions(options),
      stateless: options.stateless ?? false,
      speed: options.speed,
      webhookAllowHosts: options.webhookAllowHosts,
      limits,
      onResponse: (method, path, status, outcome) =>
        console.log(requestLogLines(new Date(), method, path, status, outcome)),
    });
const sandbox = await started.catch((error: NodeJS.ErrnoException) => {
  console.error(`jes-sandbox: cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`);
  return process.exit(2);
});
// Once it listens, nothing may stop it: a request's failure leaves nothing half-done (the state changes only once
// an answer is decided), and the next request is answered as well as the last. (A failure to start still exits.)
for (const event of ['unhandledRejection', 'uncaughtException'] as const) {
  process.on(event, (error: unknown) =>
    console.error(`${new Date().toISOString()} ${event}, the sandbox keeps running:`, error),
  );
}
if (options.proxy) {
  console.log(`jes sandbox (validation proxy of ${options.proxy}) listening on ${sandbox.url}`);
  console.log(
    `Answers are the deployment's, with what breaks openapi.yaml in sl-violations${options.errors ? ' (--errors: refused, or 502)' : ''}. See docs/sandbox.md.`,
  );
} else {
  const seed = 'seed' in sandbox ? sandbox.seed : undefined;
  console.log(`jes sandbox (Prism mock of openapi.yaml) listening on ${sandbox.url}`);
  console.log(
    seed === undefined
      ? "Stateless: any well-formed bearer token is accepted, answers are the contract's examples (Prefer: code=…, example=… choose). See docs/sandbox.md."
      : `Stateful, seed ${seed} (--seed ${seed} repeats this run), jobs ${options.speed}× faster than a deployment; any username and password log in; POST ${resetPath} forgets everything. See docs/sandbox.md.`,
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
