// The checks can fail: against a proxy that breaks one behaviour of the real reference server, the suite
// fails the check that behaviour breaks (and the same proxy breaking nothing passes them all, every check run: the
// tests' one whole run against the reference server on PGlite from its sources; test/packages/ sends the same run
// straight to the installed server, on Node 24 and 22). The same proxy stands in front of the stateful sandbox too,
// every breakage: each acts on the wire (a request or an answer changed, or answered by the proxy), and the sandbox
// keeps every behaviour the checks look at, tokens that name their user included. The two targets run side by side;
// each one's time is printed (the sandbox's half adds about a third to the file's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNames, type ConformanceOptions, type Failure, type Report, runConformance } from '../src/index.ts';
import { type Breakage, startBrokenProxy } from './support/broken-proxy.ts';
import { apiKey, type BrokenBehaviour, brokenBehaviours, shiftHours, teamChecks } from './support/breakages.ts';
import {
  credentials,
  printed,
  type Started,
  startReference,
  startSandboxTarget,
  webhookHosts,
  webhookListen,
} from './support/targets.ts';

// The UTC+2 fault moves the instant, so it reads 7200 s off at any time of day (wrapping the hour alone
// failed the test from 22:00 to 24:00 UTC); its boundaries, whatever the clock says now.
it('shifts a timestamp by whole hours across midnight, a month, a leap day and a year', () => {
  expect(shiftHours('11/23/2026, 14:03:07', 2)).toBe('11/23/2026, 16:03:07');
  expect(shiftHours('11/23/2026, 23:30:00', 2)).toBe('11/24/2026, 01:30:00');
  expect(shiftHours('11/30/2026, 22:00:00', 2)).toBe('12/01/2026, 00:00:00');
  expect(shiftHours('02/28/2028, 23:59:59', 2)).toBe('02/29/2028, 01:59:59');
  expect(shiftHours('12/31/2026, 23:59:50', 2)).toBe('01/01/2027, 01:59:50');
  expect(shiftHours('01/01/2027, 01:00:00', -2)).toBe('12/31/2026, 23:00:00');
});

/** What the proxy stands in front of: the reference server, and the stateful sandbox (alice and bob log in there too). */
const targets = [
  { target: 'the reference server', start: () => startReference(webhookHosts) },
  { target: 'the stateful sandbox', start: () => startSandboxTarget({ seed: 1 }) },
];

describe.concurrent.each(targets)('in front of $target, a deployment that', ({ target, start }) => {
  let server: Started;
  let started: number;
  beforeAll(async () => {
    started = performance.now();
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
    console.log(`the broken proxy in front of ${target}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  async function runThrough(breakage: Breakage, options: Partial<ConformanceOptions> = {}): Promise<Report> {
    const proxy = await startBrokenProxy(server.url, breakage);
    try {
      return await runConformance({ baseUrl: proxy.url, ...credentials, runs: 4, ...options });
    } finally {
      await proxy.close();
    }
  }

  // A whole run, beside the four dozen runs of one check each: on a busy 2-core machine it has taken more than the
  // default 60 s (39 s on a quiet one), so it gets three times that, and a minute for the webhook checks (their retry
  // is due 5 s after the first attempt) and the streams' followed job: 180 s ran out at a load average of 17. Its four
  // generated cases per target are the first four of the default eight (one seed), which test/packages/ sends.
  it("breaks nothing (the proxy alone) passes every check, and a team's own", { timeout: 240_000 }, async () => {
    const report = await runThrough({}, { ...webhookListen, checks: teamChecks });
    console.log(printed(report));
    // Every check, the team's too, ran and passed: none failed or was skipped.
    const notPassed = report.results.filter((r) => r.status !== 'passed').map((r) => [r.name, r.status]);
    expect(notPassed, printed(report)).toEqual([]);
    expect(report.results.map((r) => r.name).sort()).toEqual(
      [...checkNames(), ...teamChecks.map((c) => c.name)].sort(),
    );
  });

  /** Each breakage's run of its check, once (the shrinking test reads one of them too). */
  const runs = new Map<string, Promise<Report>>();
  const runOf = ({ what, check, breakage, options }: BrokenBehaviour) => {
    if (!runs.has(what)) runs.set(what, runThrough(breakage, { only: [check], ...options }));
    return runs.get(what)!;
  };

  it.each(brokenBehaviours)('$what fails $check', async (broken) => {
    const { check, message } = broken;
    const report = await runOf(broken);
    const result = report.results.find((r) => r.name === check)!;
    expect(result.status, printed(report)).toBe('failed');
    expect(result.failures.map((f) => f.message).join('\n'), printed(report)).toMatch(message);
    expect(
      result.failures.some((f) => f.exchange),
      'a failure carries the request that broke it',
    ).toBe(true);
  });

  // The same run given the gateway's key (-H) passes: every request carries it.
  it('sits behind a gateway that wants an X-Api-Key header passes ignored_auth when the run sends it', async () => {
    const { breakage } = brokenBehaviours.find(
      (b) => b.what === 'sits behind a gateway that wants an X-Api-Key header',
    )!;
    const report = await runThrough(breakage, { only: ['ignored_auth'], headers: apiKey });
    expect(report.results[0]!.status, printed(report)).toBe('passed');
  });

  // Item 7 of issue 32: a generated case that fails is shrunk (smaller than as found), the failure carries the
  // shrunk case's request, and --replay-path as the failure gives it sends exactly that case again, alone.
  it('shrinks a failing generated case, and its replay path sends exactly the shrunk case again', async () => {
    const broken = brokenBehaviours.find((b) => b.what === 'refuses a status filter')!;
    const report = await runOf(broken);
    const found = report.results[0]!.failures.find((f) => f.generated)!;
    expect(found, printed(report)).toBeDefined();
    const generated = found.generated!;
    expect(generated.sizeAfter, found.message).toBeLessThan(generated.sizeBefore);
    expect(generated.shrinks).toBeGreaterThan(0);
    const query = (f: Failure) => Object.fromEntries(new URL(f.exchange!.request.url).searchParams);
    expect(query(found)).toEqual(JSON.parse(generated.value));
    const replayPath = / --replay-path (\S+)\)$/.exec(found.message)?.[1];
    expect(replayPath).toBe(generated.replayPath);
    const replay = await runThrough(broken.breakage, {
      only: [broken.check],
      seed: report.seed,
      runs: report.runs,
      replayPath: replayPath!,
    });
    const [again, ...more] = replay.results[0]!.failures;
    expect([again?.generated?.replayed, more], printed(replay)).toEqual([true, []]);
    expect(again!.exchange!.request.method).toBe('GET');
    expect(query(again!)).toEqual(query(found));
    expect(again!.message.split(' replayed: ')[1]).toBe(found.message.split(/: (.*) \(shrunk /)[1]);
  });

  // A fault in one use case's answers fails its semantics check alone: the other use case's stays green.
  it.each([
    ['a wrong QUBO energy', 'qubo_semantics', 'maxcut_semantics'],
    ['a falsely optimal QUBO answer', 'qubo_semantics', 'maxcut_semantics'],
    ['adds 1 to every cut', 'maxcut_semantics', 'qubo_semantics'],
  ])('%s fails %s and leaves %s passing', async (what, broken, green) => {
    const breakage = brokenBehaviours.find((b) => b.what === what)!.breakage;
    const report = await runThrough(breakage, { only: [broken, green] });
    const status = (name: string) => report.results.find((r) => r.name === name)?.status;
    expect([status(broken), status(green)], printed(report)).toEqual(['failed', 'passed']);
  });
});

it("breaks every check at least once above, and a team's own", () => {
  const broken = new Set(brokenBehaviours.map((b) => b.check));
  const names = [...checkNames(), ...teamChecks.map((c) => c.name)];
  expect(names.filter((name) => !broken.has(name))).toEqual([]);
});
