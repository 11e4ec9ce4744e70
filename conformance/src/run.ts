// runConformance: the options validated before any request (prepareRun), then the deployment's versions
// (versions.ts), then every selected check in order (selection.ts: the built-in ones with any of your own) against
// it, with one session per user, fixtures shared between checks, and the run's resources cleaned up at the end. A
// deployment that stops answering stops the run: the check it happened in and those after it are errors, not
// failures (all of them when it never answered the first request).
import { randomBytes } from 'node:crypto';
import type { Check } from './checks/check.ts';
import { checks } from './checks/registry.ts';
import { terminalStates } from './checks/terminal-states.ts';
import { moduleOf } from './check-modules.ts';
import { CheckContext } from './context.ts';
import { type Contract, contractAt } from './contract/contract.ts';
import { coverage } from './coverage.ts';
import { Fixtures } from './fixtures.ts';
import { replayMissed, replayPathPattern } from './generate/property.ts';
import { givenHeaders } from './given-headers.ts';
import type { RecordedRun } from './har/har.ts';
import { recordHar, writeHar } from './har/record.ts';
import { CheckAbort, CheckSkip, Http, TargetUnreachable, type Waited } from './http.ts';
import { pacer, parseRate } from './pace.ts';
import { runChecks, selectChecks } from './selection.ts';
import { startSessions } from './sessions.ts';
import { Terminals } from './terminal/rereads.ts';
import { TerminalWatch } from './terminal/watch.ts';
import { createTransport } from './transport.ts';
import type { CheckResult, ConformanceOptions, Report, Unreachable } from './types.ts';
import { askVersions, versionsCheck } from './versions.ts';
import { listenAddress } from './webhook-receiver.ts';

/** The fast-check seed when none is given: fixed, so that two runs generate the same cases. */
export const defaultSeed = 20261122;
export const defaultRuns = 8;

export const checkNames = (): string[] => checks.map((c) => c.name);

function rateOf(options: Pick<ConformanceOptions, 'rateLimit'>): number | undefined {
  if (options.rateLimit === undefined) return undefined;
  const perSecond = parseRate(options.rateLimit);
  if (perSecond === undefined)
    throw new Error(
      `the rate limit is a number of requests per second, minute or hour (10/s, 600/m, 3600/h); got "${options.rateLimit}"`,
    );
  return perSecond;
}

/** How long a check waited for rate limits, and what said to. */
function waitedNote({ ahead, after429 }: Waited): string {
  const why = [ahead && 'as its RateLimit headers said', after429 && '429 with Retry-After'].filter(Boolean);
  return `waited ${Math.round((ahead + after429) / 1000)} s in all for the deployment's rate limits (${why.join('; ')})`;
}

/** The run stopped where no connection could be made: the line that says so (`notRun`: the checks not begun). */
function unreachableReport(
  baseUrl: string,
  stop: TargetUnreachable,
  answeredBefore: boolean,
  notRun: number,
): Unreachable {
  const where = stop.tls
    ? `${answeredBefore ? `failed TLS during ${stop.check}` : `failed TLS on ${stop.request}`} (${stop.code}): ${stop.tls}`
    : answeredBefore
      ? `stopped answering (${stop.code}) during ${stop.check}`
      : `is not answering (${stop.code} on ${stop.request})`;
  const message = `target ${baseUrl} ${where}; ${notRun} check${notRun === 1 ? '' : 's'} not run`;
  return {
    code: stop.code,
    ...(stop.tls ? { tls: stop.tls } : {}),
    check: stop.check,
    request: stop.request,
    answeredBefore,
    notRun,
    message,
  };
}

/** What a connection to a deployment is made of (a run's, or a replay's: har/replay.ts). */
export type Connection = Pick<
  ConformanceOptions,
  | 'baseUrl'
  | 'username'
  | 'password'
  | 'username2'
  | 'password2'
  | 'token'
  | 'token2'
  | 'headers'
  | 'caFile'
  | 'certFile'
  | 'keyFile'
  | 'contractPath'
  | 'rateLimit'
  | 'onWait'
>;

/**
 * The Http a run or a replay sends through: the contract, its own pace (rateLimit), the waits for the deployment's
 * rate limits, the transport (proxies, a private CA, a client certificate), the headers given (-H) and the users'
 * sessions.
 */
export function connect(options: Connection, contract = contractAt(options.contractPath)): Http {
  const perSecond = rateOf(options);
  const http = new Http(options.baseUrl, contract, {
    ...(perSecond ? { pace: pacer(perSecond) } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
    transport: createTransport(options),
    headers: givenHeaders(options.headers),
  });
  startSessions(http, options);
  return http;
}

/** A run's options validated, with the contract and the checks it takes (prepareRun). */
export interface PreparedRun {
  options: ConformanceOptions;
  contract: Contract;
  /** The checks to run, in order. */
  checks: readonly Check[];
}

/**
 * Validates the options before any request is sent (the command's usage errors): the checks of your own, `only`,
 * `operations`, the rate and the webhook listener's address; throws a one-line error.
 */
export function prepareRun(options: ConformanceOptions): PreparedRun {
  if (options.replayPath !== undefined) {
    if (!replayPathPattern.test(options.replayPath))
      throw new Error(
        `replayPath is <target>/<fast-check path> as a failure gives it (such as 3/5:1:0); got "${options.replayPath}"`,
      );
    if (options.only?.length !== 1)
      throw new Error('replayPath replays a case of one check: give that check alone in only (--only <check>)');
  }
  if (
    options.maxResponseTimeMs !== undefined &&
    !(Number.isFinite(options.maxResponseTimeMs) && options.maxResponseTimeMs > 0)
  )
    throw new Error(`maxResponseTimeMs is a number of milliseconds above 0; got ${options.maxResponseTimeMs}`);
  rateOf(options);
  if (options.webhookListen !== undefined && !listenAddress(options.webhookListen))
    throw new Error(
      `webhookListen takes host:port, an address the deployment can reach; got "${options.webhookListen}"`,
    );
  if (options.token === undefined && (options.username === undefined || options.password === undefined))
    throw new Error('the run needs a username and password, or a token');
  const contract = contractAt(options.contractPath);
  return { options, contract, checks: selectChecks(runChecks(contract, options.checks), options, contract) };
}

/** Holds the deployment at `options.baseUrl` to the contract: the options validated (prepareRun), then the run. */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  return runPrepared(prepareRun(options));
}

/** Runs what prepareRun validated. */
export async function runPrepared({ options, contract, checks: selected }: PreparedRun): Promise<Report> {
  const started = Date.now();
  const profile = options.profile ?? 'full';
  const seed = options.seed ?? defaultSeed;
  const runs = options.runs ?? defaultRuns;
  const http = connect(options, contract);
  const fixtures = new Fixtures();
  const versions = await askVersions(http);
  // Every answer from here on is watched for ended jobs and deletions, when terminal_states is to run.
  const terminals =
    selected.includes(terminalStates) && !terminalStates.skip?.({ profile, options })
      ? new Terminals(http, terminalStates.name, new TerminalWatch(http.baseUrl))
      : undefined;
  const run = {
    options,
    profile,
    seed,
    runs,
    runId: `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`,
    versions,
    terminals,
  };
  let stop: TargetUnreachable | undefined = http.unreachable;
  if (!stop) options.onVersions?.(versions);
  const results: CheckResult[] = [];
  for (const check of selected) {
    const module = moduleOf(check);
    const base = {
      name: check.name,
      ...(module !== undefined ? { module } : {}),
      description: check.description,
      operations: check.operations,
    };
    let result: CheckResult;
    let reason: string | undefined;
    let thrown: unknown;
    try {
      reason = check.skip?.({ profile, options });
    } catch (error) {
      thrown = error;
    }
    if (thrown !== undefined) {
      // A check of your own whose skip throws fails as one whose run throws.
      const failure = { message: `the check itself failed: ${(thrown as Error).stack ?? String(thrown)}` };
      result = { ...base, status: 'failed', failures: [failure], notes: [], requests: 0, ms: 0 };
    } else if (reason) {
      result = { ...base, status: 'skipped', reason, failures: [], notes: [], requests: 0, ms: 0 };
    } else if (stop) {
      result = {
        ...base,
        status: 'error',
        reason:
          stop.check === versionsCheck
            ? `not run: the deployment did not answer: ${stop.failure} for ${stop.request}`
            : `not run: the deployment stopped answering during ${stop.check}`,
        failures: [],
        notes: [],
        requests: 0,
        ms: 0,
      };
    } else {
      const ctx = new CheckContext(check.name, http, fixtures, run);
      const from = Date.now();
      let skipped: string | undefined;
      try {
        await check.run(ctx);
      } catch (error) {
        if (error instanceof CheckSkip) skipped = error.message;
        else if (error instanceof CheckAbort) ctx.fail(error.message, error.exchange);
        else if (!(error instanceof TargetUnreachable))
          ctx.fail(`the check itself failed: ${(error as Error).stack ?? String(error)}`);
      }
      const missed = replayMissed(ctx);
      if (missed && !http.unreachable) ctx.fail(missed);
      // Set even when the check caught the error itself: the deployment is gone either way.
      stop = http.unreachable;
      const waited = http.waited.get(check.name);
      if (waited) ctx.note(waitedNote(waited));
      const status = stop ? 'error' : ctx.failures.length ? 'failed' : skipped !== undefined ? 'skipped' : 'passed';
      const interrupted =
        stop &&
        `the deployment ${http.answered ? 'stopped answering' : 'did not answer'}: ${stop.failure} for ${stop.request}`;
      const reason = interrupted || (status === 'skipped' ? skipped : undefined);
      result = {
        ...base,
        status,
        ...(reason ? { reason } : {}),
        failures: ctx.failures,
        notes: ctx.notes,
        requests: ctx.requests,
        ms: Date.now() - from,
      };
    }
    results.push(result);
    options.onResult?.(result);
    if (terminals && !stop) {
      // A few ended jobs and deletions read again (until terminal_states has run; it reports what they find).
      await terminals.between();
      stop = http.unreachable;
    }
  }
  if (!stop) await fixtures.cleanUp();
  await http.transport.close();
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  // The check the deployment went away in is an error too, but it was begun; the version request is no check.
  const notRun = count('error') - (stop?.check === versionsCheck ? 0 : 1);
  const unreachable = stop ? unreachableReport(options.baseUrl, stop, http.answered, notRun) : undefined;
  if (options.har !== undefined) {
    const recorded: RecordedRun = {
      baseUrl: http.baseUrl,
      runId: run.runId,
      profile,
      seed,
      runs,
      ...(options.only?.length ? { only: options.only } : {}),
      contract: versions.contract,
      deployment: versions.deployment,
      users: {
        ...(options.username !== undefined ? { user: options.username } : {}),
        ...(options.username2 !== undefined ? { user2: options.username2 } : {}),
      },
      ...(unreachable ? { unreachable: unreachable.message } : {}),
    };
    writeHar(options.har, recordHar({ exchanges: http.exchanges, contract: http.contract, run: recorded, options }));
  }
  return {
    baseUrl: options.baseUrl,
    versions,
    profile,
    seed,
    runs,
    ...(options.operations?.length ? { operations: options.operations } : {}),
    results,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    errors: count('error'),
    ...(unreachable ? { unreachable } : {}),
    coverage: coverage(http.contract, http.exchanges),
    ms: Date.now() - started,
  };
}
