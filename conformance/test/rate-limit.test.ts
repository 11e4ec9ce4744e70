// Rate limits: a request the deployment's RateLimit headers say its quota has no room for waits for the reset
// instead of earning a 429; a 429 with Retry-After that comes all the same is waited out; each wait with a line
// on stderr saying what for (not a minute of silence); and --rate-limit paces the run's requests, evenly spaced
// at the rate asked.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../src/index.ts';
import { pacer, parseRate } from '../src/pace.ts';
import { parseList, type PolicyWait, RateLimits } from '../src/rate-limits.ts';
import type { RateLimitWait } from '../src/types.ts';
import { jsonAnswer, startBrokenProxy } from './support/broken-proxy.ts';
import { conformance } from './support/command.ts';
import { credentials, printed, type Started, startReference, startSandboxTarget } from './support/targets.ts';

let sandbox: Started;
beforeAll(async () => {
  sandbox = await startSandboxTarget();
});
afterAll(() => sandbox?.stop());

it('says what it waits for when the deployment answers 429, then carries on', async () => {
  let refused = 0;
  const proxy = await startBrokenProxy(sandbox.url, {
    request: (r) => {
      if (r.method !== 'POST' || !r.url.startsWith('/problem/maxcut') || refused++) return r;
      return jsonAnswer(
        429,
        {
          type: 'urn:jes:problem:rate_limited',
          title: 'Too many requests',
          status: 429,
          code: 'rate_limited',
          detail: 'slow down',
        },
        { 'retry-after': '1' },
      );
    },
  });
  try {
    const run = await conformance(['--base-url', proxy.url, '--profile', 'sandbox', '--only', 'lifecycle']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toBe('waiting 1 s for the rate limit (429 on POST /problem/maxcut, Retry-After 1)\n');
    expect(run.stdout).toMatch(/^passed +lifecycle \[/m);
    expect(run.stdout).toMatch(/^ +· waited 1 s in all for the deployment's rate limits \(429 with Retry-After\)$/m);
  } finally {
    await proxy.close();
  }
});

it('paces itself with --rate-limit, and says so in its heading', async () => {
  const run = await conformance([
    '--base-url',
    sandbox.url,
    '--profile',
    'sandbox',
    '--only',
    'missing_auth',
    '--rate-limit',
    '50/s',
  ]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout.split('\n')[0]).toBe(
    `jes-conformance: ${sandbox.url} (profile sandbox; fast-check seed 20261122, 8 cases per target; at most 50 requests/s)`,
  );
  for (const bad of ['10', '10/d', '0/s', 'fast']) {
    const refused = await conformance(['--rate-limit', bad, '--profile', 'sandbox']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /option '--rate-limit <n\/s>' argument '.*' is invalid\. expected requests per second, minute or hour: 10\/s, 600\/m, 3600\/h/,
    );
  }
});

it('reads rates per second, minute and hour', () => {
  expect([
    parseRate('10/s'),
    parseRate('600/m'),
    parseRate('3600/h'),
    parseRate('2.5/s'),
    parseRate(' 30 / m '),
  ]).toEqual([10, 10, 1, 2.5, 0.5]);
  expect([parseRate('10'), parseRate('10/d'), parseRate('0/s'), parseRate('-1/s')]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

// The spacing on a clock of its own (no real time passes): requests asked for at once start 100 ms apart at
// 10/s; one asked for after a pause starts at once, and the next 100 ms after it.
it('spaces requests evenly at the rate asked', async () => {
  let now = 0;
  const starts: number[] = [];
  const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
  const pace = pacer(10, clock);
  const request = async () => {
    await pace();
    starts.push(now);
  };
  for (let i = 0; i < 4; i++) await request();
  now += 1000;
  await request();
  await request();
  expect(starts).toEqual([0, 100, 200, 300, 1300, 1400]);
});

// The RateLimit fields as the reference server writes them (express-rate-limit's draft 8) and as the contract's
// examples do (no spaces), several policies in one field as a login's answer has them.
it('reads the RateLimit and RateLimit-Policy fields, one member per policy', () => {
  expect(parseList('"login_address"; r=29; t=60, "login"; r=8; t=60')).toEqual([
    { name: 'login_address', params: { r: 29, t: 60 } },
    { name: 'login', params: { r: 8, t: 60 } },
  ]);
  expect(parseList('"default";q=1200;w=60, "submit"; q=60; w=60; pk=:MmE5NzUx=:')).toEqual([
    { name: 'default', params: { q: 1200, w: 60 } },
    { name: 'submit', params: { q: 60, w: 60, pk: ':MmE5NzUx=:' } },
  ]);
  expect(parseList('"a, b"; r=1; t=2')).toEqual([{ name: 'a, b', params: { r: 1, t: 2 } }]);
  expect(parseList(undefined)).toEqual([]);
  expect(parseList('limit=10, remaining=9, reset=60')).toEqual([
    { name: 'limit=10', params: {} },
    { name: 'remaining=9', params: {} },
    { name: 'reset=60', params: {} },
  ]);
});

// The bookkeeping on a clock of its own: a kind of request waits only when the policy its last answer named
// has nothing left (counting requests still in flight), until the reset that answer gave, and per partition.
it('holds a request back only while the policy its kind counts against has nothing left', async () => {
  let now = 0;
  const limits = new RateLimits(() => now);
  const waits: [string, number][] = [];
  const wait = async (until: PolicyWait) => {
    waits.push([until.policy, until.ms]);
    now += until.ms;
    return true;
  };
  const headers = (r: number, t: number, pk = 'alice') => ({
    ratelimit: `"submit"; r=${r}; t=${t}`,
    'ratelimit-policy': `"submit"; q=2; w=10; pk=:${pk}:`,
  });
  const send = async (kind: string, answer?: Record<string, string>) =>
    limits.answered(kind, await limits.reserve(kind, wait), answer);

  await send('POST startJob user', headers(1, 10));
  await send('POST startJob user', headers(0, 10));
  expect(waits).toEqual([]);
  // Nothing left: the next one waits for the reset (10 s after the last answer), then goes.
  now = 1000;
  await send('POST startJob user', headers(1, 10));
  expect(waits).toEqual([['submit', 9000]]);
  // One left and one in flight: a second one at once waits for the reset the first one's answer gives.
  const first = await limits.reserve('POST startJob user', wait);
  let release = () => {};
  const second = limits.reserve('POST startJob user', async (until) => {
    limits.answered('POST startJob user', first, headers(0, 10));
    await new Promise<void>((resolve) => (release = resolve));
    return wait(until);
  });
  await Promise.resolve();
  release();
  limits.answered('POST startJob user', await second, headers(1, 10));
  expect(waits).toEqual([
    ['submit', 9000],
    ['submit', 10_000],
  ]);
  // An answer that comes after the reset, to a request of the window before, does not count against the new one.
  const late = await limits.reserve('POST startJob user', wait);
  await send('POST startJob user', headers(1, 10));
  limits.answered('POST startJob user', late, headers(0, 1));
  expect(waits).toEqual([
    ['submit', 9000],
    ['submit', 10_000],
    ['submit', 10_000],
  ]);
  await send('POST startJob user', headers(0, 10));
  expect(waits).toHaveLength(3);
  // Another kind knows nothing until its own answer names the policy; another user's partition is another quota.
  await send('POST uploadDataFile user', headers(0, 10));
  await send('POST startJob user2', headers(1, 10, 'bob'));
  await send('POST startJob user2', headers(0, 10, 'bob'));
  expect(waits).toHaveLength(3);
  // An answer without the fields (rate limits off, or a 401 before them) leaves what is known as it was.
  await send('POST startJob user');
  expect(waits).toHaveLength(4);
  await send('POST uploadDataFile user');
  expect(waits).toHaveLength(4);
});

// Asked not to wait (a reset too far off), the request goes at once.
it('sends a request all the same when the wait is declined', async () => {
  const limits = new RateLimits(() => 0);
  limits.answered('GET getJob user', { keys: [], at: 0 }, { ratelimit: '"default";r=0;t=600' });
  let asked = 0;
  await limits.reserve('GET getJob user', async () => (asked++, false));
  expect(asked).toBe(1);
});

// Against the reference server with a small job quota (4 starts and uploads per 3 s): the lifecycle check goes
// through without a single 429, waiting ahead of the requests the quota has no room for.
it('waits for the reset its RateLimit headers announce instead of earning 429s', async () => {
  const server = await startReference({ JES_RATE_LIMITS: 'submit=4/3' });
  try {
    const waits: RateLimitWait[] = [];
    const report = await runConformance({
      baseUrl: server.url,
      ...credentials,
      only: ['lifecycle'],
      onWait: (wait) => waits.push(wait),
    });
    expect(report.failed, printed(report)).toBe(0);
    const refused = report.coverage.operations.filter((op) => op.seen.includes(429)).map((op) => op.operationId);
    expect(refused, printed(report)).toEqual([]);
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) {
      expect(wait).toMatchObject({ check: 'lifecycle', policy: 'submit', quota: 4, windowSeconds: 3 });
      expect(wait.seconds).toBeLessThanOrEqual(3);
    }
    expect(report.results[0]!.notes).toContainEqual(
      expect.stringMatching(/^waited \d+ s in all for the deployment's rate limits \(as its RateLimit headers said\)$/),
    );
  } finally {
    await server.stop();
  }
});
