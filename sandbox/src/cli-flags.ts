// The flags of the sandbox's scenarios (scenarios.ts: --latency, --rate-limit, --unavailable, --drop; --seed, which
// seeds the state too) and of
// its validation proxy (proxy.ts: --proxy), each read by its parser in durations.ts into what startSandbox and
// startProxy take.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { parseFraction, parseLatency, parseRate } from './durations.ts';
import type { ScenarioOptions } from './scenarios.ts';
import { maxSeed } from './state/random.ts';

function upstreamUrl(value: string): string {
  const url = URL.parse(value);
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new InvalidArgumentError('expected the http or https URL of a deployment');
  return value;
}

/** An option's parser from one of durations.ts's: undefined becomes a usage error saying what was expected. */
const reading =
  <T>(parse: (text: string) => T | undefined, expected: string) =>
  (value: string): T => {
    const read = parse(value);
    if (read === undefined) throw new InvalidArgumentError(`expected ${expected}`);
    return read;
  };

function seed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > maxSeed)
    throw new InvalidArgumentError(`expected a whole number up to ${maxSeed}`);
  return Number(value);
}

/** `command` with the scenario and proxy flags added (after its own, in --help). */
export function withScenarioAndProxyFlags(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--proxy <url>',
        "Prism's proxy: forward every request to the deployment at <url>, check both ways against the contract, report violations in the sl-violations header and the log",
      ).argParser(upstreamUrl),
    )
    .addOption(
      new Option(
        '--latency <duration>',
        'every answer waits this long: 200ms, 2s, or a range drawn from, 100-400ms',
      ).argParser(reading(parseLatency, 'a duration such as 200ms or 2s, or a range such as 100-400ms')),
    )
    .addOption(
      new Option(
        '--rate-limit <rate>',
        'limit each client (token, else address): 10/s, 60/min, 5/10s; past it, 429 rate_limited',
      ).argParser(reading(parseRate, 'a rate such as 10/s, 60/min or 5/10s')),
    )
    .addOption(
      new Option(
        '--unavailable <fraction>',
        'answer this fraction of requests 503 service_unavailable: 0.1 or 10%',
      ).argParser(reading(parseFraction, 'a fraction such as 0.1 or 10%')),
    )
    .addOption(
      new Option(
        '--drop <fraction>',
        'drop the connection of this fraction of requests, unanswered: 0.05 or 5%',
      ).argParser(reading(parseFraction, 'a fraction such as 0.05 or 5%')),
    )
    .addOption(
      new Option(
        '--seed <n>',
        "seed the state's ids, tokens, timings and answers and what the scenarios draw (latency ranges, --unavailable, --drop): one seed, one sequence of requests, one transcript",
      ).argParser(seed),
    );
}

export /** The scenario flags given, and only those (exactOptionalPropertyTypes). */
function scenarioOptions(given: ScenarioOptions): ScenarioOptions {
  const names = ['latency', 'rateLimit', 'unavailable', 'drop', 'seed'] as const;
  return Object.fromEntries(names.filter((name) => given[name] !== undefined).map((name) => [name, given[name]]));
}
