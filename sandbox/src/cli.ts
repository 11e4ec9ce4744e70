#!/usr/bin/env node
// `jes-sandbox` (and `npm run sandbox` in the repository): the sandbox on port 4010, printing its URL and two
// lines per request (request-log.ts), until Ctrl-C. The flags are Prism's (`prism mock -p 4010 -h 0.0.0.0`);
// SANDBOX_PORT and SANDBOX_HOST set the same defaults. Exit codes: 0 stopped by a signal, 2 usage or a failure to start.
import { packageVersion } from '@jes/contract/package-version';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { scenarioOptions, withScenarioAndProxyFlags } from './cli-flags.ts';
import { proxyLogLines } from './proxy-log.ts';
import { startProxy } from './proxy.ts';
import { requestLogLines } from './request-log.ts';
import type { ScenarioOptions } from './scenarios.ts';
import { startSandbox } from './server.ts';

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError('expected a port number (0 for any free port)');
  return Number(value);
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
    .addHelpText(
      'after',
      "\nStateless: any well-formed bearer token is accepted; Prefer: code=404 or Prefer: example=pending choose among the contract's examples.\nPer request: Prefer: latency=300ms, Prefer: scenario=rate-limited | service-unavailable | dropped-connection.\nExit codes: 0 stopped by a signal, 2 usage or a failure to start.",
    )
    .showHelpAfterError('(run jes-sandbox --help for usage)')
    .exitOverride();
  return withScenarioAndProxyFlags(command);
}

const command = program();
try {
  command.parse(process.argv.slice(2), { from: 'user' });
} catch (error) {
  process.exit(error instanceof CommanderError && error.exitCode === 0 ? 0 : 2);
}
const options = command.opts<
  { port: number; host: string; dynamic?: boolean; errors?: boolean; proxy?: string } & ScenarioOptions
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
      onResponse: (method, path, status, outcome) =>
        console.log(requestLogLines(new Date(), method, path, status, outcome)),
    });
const sandbox = await started.catch((error: NodeJS.ErrnoException) => {
  console.error(`jes-sandbox: cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`);
  return process.exit(2);
});
// Once it listens, nothing may stop it: it is stateless, so after a failure nothing is left half-done and the
// next request is answered as well as the last. (A failure to start still exits, above.)
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
  console.log(`jes sandbox (Prism mock of openapi.yaml) listening on ${sandbox.url}`);
  console.log(
    "Stateless: any well-formed bearer token is accepted, answers are the contract's examples (Prefer: code=…, example=… choose). See docs/sandbox.md.",
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
