// runConformance: the deployment's versions first (versions.ts), then every selected check in the registry's order
// against it, with one session per user, fixtures shared between checks, and the run's resources cleaned up at the
// end. A deployment that stops answering stops the run: the check it happened in and those after it are errors,
// not failures (all of them when it never answered the first request).
import { randomBytes } from 'node:crypto';
import { answered, shown } from './answer-text.ts';
import { checks } from './checks/registry.ts';
import { CheckContext } from './context.ts';
import { Contract } from './contract/contract.ts';
import { coverage } from './coverage.ts';
import { Fixtures } from './fixtures.ts';
import type { RecordedRun } from './har/har.ts';
import { recordHar, writeHar } from './har/record.ts';
import { CheckAbort, CheckSkip, Http, TargetUnreachable, type Waited } from './http.ts';
import { pacer, parseRate } from './pace.ts';
import type { CheckResult, ConformanceOptions, Report, Unreachable } from './types.ts';
import { askVersions, versionsCheck } from './versions.ts';
import { listenAddress } from './webhook-receiver.ts';

/** The fast-check seed when none is given: fixed, so that two runs generate the same cases. */
export const defaultSeed = 20261122;
export const defaultRuns = 8;

export const checkNames = (): string[] => checks.map((c) => c.name);

/** Supplies each user's token as the run's requests need it: logged in once per user, on first use. */
export function sessions(
  http: Http,
  options: Pick<ConformanceOptions, 'username' | 'password' | 'username2' | 'password2'>,
) {
  const logins = new Map<string, Promise<string>>();
  return (user: 'user' | 'user2', check: string): Promise<string> => {
    const [username, password] =
      user === 'user' ? [options.username, options.password] : [options.username2, options.password2];
    if (username === undefined || password === undefined)
      return Promise.reject(new CheckAbort('no credentials for a second user (--second-user name:password)'));
    if (!logins.has(user)) {
      logins.set(
        user,
        (async () => {
          const reply = await http.send(check, {
            method: 'POST',
            path: '/login',
            auth: 'none',
            json: { username, password },
          });
          if (reply.status !== 200)
            throw new CheckAbort(
              `logging in as ${username}: expected 200 with an access_token, got ${answered(reply)}`,
              reply.exchange,
            );
          if (typeof reply.json?.access_token !== 'string')
            throw new CheckAbort(
              `logging in as ${username}: the 200's access_token is ${shown(reply.json?.access_token)}, expected a token`,
              reply.exchange,
            );
          return reply.json.access_token as string;
        })(),
      );
    }
    return logins.get(user)!;
  };
}

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
  const where = answeredBefore
    ? `stopped answering (${stop.code}) during ${stop.check}`
    : `is not answering (${stop.code} on ${stop.request})`;
  const message = `target ${baseUrl} ${where}; ${notRun} check${notRun === 1 ? '' : 's'} not run`;
  return { code: stop.code, check: stop.check, request: stop.request, answeredBefore, notRun, message };
}

/** What a connection to a deployment is made of (a run's, or a replay's: har/replay.ts). */
export type Connection = Pick<
  ConformanceOptions,
  'baseUrl' | 'username' | 'password' | 'username2' | 'password2' | 'contractPath' | 'rateLimit' | 'onWait'
>;

/**
 * The Http a run or a replay sends through: the contract, its own pace (rateLimit), the waits for the deployment's
 * rate limits, and the users' sessions.
 */
export function connect(options: Connection): Http {
  const perSecond = rateOf(options);
  const http = new Http(options.baseUrl, new Contract(options.contractPath), {
    ...(perSecond ? { pace: pacer(perSecond) } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
  });
  http.tokenOf = sessions(http, options);
  return http;
}

export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = Date.now();
  const profile = options.profile ?? 'full';
  const seed = options.seed ?? defaultSeed;
  const runs = options.runs ?? defaultRuns;
  const unknown = (options.only ?? []).filter((name) => !checkNames().includes(name));
  if (unknown.length)
    throw new Error(
      `unknown check${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the checks are ${checkNames().join(', ')}`,
    );
  if (options.webhookListen !== undefined && !listenAddress(options.webhookListen))
    throw new Error(
      `webhookListen takes host:port, an address the deployment can reach; got "${options.webhookListen}"`,
    );
  const http = connect(options);
  const fixtures = new Fixtures();
  const versions = await askVersions(http);
  const run = {
    options,
    profile,
    seed,
    runs,
    runId: `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`,
    versions,
  };
  let stop: TargetUnreachable | undefined = http.unreachable;
  if (!stop) options.onVersions?.(versions);
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (options.only?.length && !options.only.includes(check.name)) continue;
    const base = { name: check.name, description: check.description, operations: check.operations };
    const reason = check.skip?.({ profile, options });
    let result: CheckResult;
    if (reason) {
      result = { ...base, status: 'skipped', reason, failures: [], notes: [], requests: 0, ms: 0 };
    } else if (stop) {
      result = {
        ...base,
        status: 'error',
        reason:
          stop.check === versionsCheck
            ? `not run: the deployment did not answer: no connection (${stop.code}) for ${stop.request}`
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
      // Set even when the check caught the error itself: the deployment is gone either way.
      stop = http.unreachable;
      const waited = http.waited.get(check.name);
      if (waited) ctx.note(waitedNote(waited));
      const status = stop ? 'error' : ctx.failures.length ? 'failed' : skipped !== undefined ? 'skipped' : 'passed';
      const interrupted =
        stop &&
        `the deployment ${http.answered ? 'stopped answering' : 'did not answer'}: no connection (${stop.code}) for ${stop.request}`;
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
  }
  if (!stop) await fixtures.cleanUp();
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
      users: { user: options.username, ...(options.username2 !== undefined ? { user2: options.username2 } : {}) },
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
