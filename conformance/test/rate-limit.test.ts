// Rate limits: a 429 with Retry-After is waited out with a line on stderr saying what for (not a minute of
// silence), and --rate-limit paces the run's requests, evenly spaced at the rate asked.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pacer, parseRate } from '../src/pace.ts';
import { jsonAnswer, startBrokenProxy } from './support/broken-proxy.ts';
import { conformance } from './support/command.ts';
import { type Started, startSandboxTarget } from './support/targets.ts';

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
