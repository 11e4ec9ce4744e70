// Pacing on an injected clock (the clock set runs this file again at other dates: test/clock/set.ts): rates per
// second, minute and hour read and kept evenly spaced; the RateLimit and RateLimit-Policy fields read, one member
// per policy; a request held back only while the policy its kind counts against has nothing left, and sent all the
// same when the wait is declined.
import { expect, it } from 'vitest';
import { pacer, parseRate } from '../src/pace.ts';
import { parseList, type PolicyWait, RateLimits } from '../src/rate-limits.ts';

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
