// Rate limits: a request the deployment's RateLimit headers say its quota has no room for waits for the reset
// instead of earning a 429; a 429 with Retry-After that comes all the same is waited out; each wait with a line
// on stderr saying what for (not a minute of silence); and --rate-limit paces the run's requests, evenly spaced
// at the rate asked.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../src/index.ts';
import type { RateLimitWait } from '../src/types.ts';
import { jsonAnswer, startBrokenProxy } from './support/broken-proxy.ts';
import { conformance } from './support/command.ts';
import { credentials, printed, type Started, startReference, startSandboxTarget } from './support/targets.ts';

let sandbox: Started;
beforeAll(async () => {
  sandbox = await startSandboxTarget({ stateless: true });
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

// Against the reference server with a small job quota (4 starts and uploads per 8 s): the lifecycle check goes
// through without a single 429, waiting ahead of the requests the quota has no room for. (At 4 per 3 s a loaded
// machine spread the check's starts over more than a window, and it never had to wait.)
it('waits for the reset its RateLimit headers announce instead of earning 429s', async () => {
  const server = await startReference({ JES_RATE_LIMITS: 'submit=4/8' });
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
      expect(wait).toMatchObject({ check: 'lifecycle', policy: 'submit', quota: 4, windowSeconds: 8 });
      expect(wait.seconds).toBeLessThanOrEqual(8);
    }
    expect(report.results[0]!.notes).toContainEqual(
      expect.stringMatching(/^waited \d+ s in all for the deployment's rate limits \(as its RateLimit headers said\)$/),
    );
  } finally {
    await server.stop();
  }
});
