// The scenarios a client must handle, on request (issue 30 §5): a latency (Prefer or --latency), a 429
// `rate_limited` and a 503 `service_unavailable` as the contract documents them (checked with the conformance
// suite's own response checks), a connection dropped without an answer, and the flags that make them happen by
// themselves (--rate-limit limits for real; --unavailable and --drop draw from a PRNG that --seed makes repeat).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { node, runChild, sandboxCli, startChild } from '../../test/support/child-server.ts';
import { Contract } from '../../conformance/src/contract/contract.ts';
import {
  contentTypeViolations,
  documentedResponse,
  headerViolations,
  schemaViolations,
} from '../../conformance/src/contract/responses.ts';
import type { Exchange } from '../../conformance/src/types.ts';
import { preferences } from '../src/conventions.ts';
import { requestLogLines } from '../src/request-log.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../src/server.ts';

const contract = new Contract();
const started: Sandbox[] = [];
let plain: string;

/** A stateless sandbox (its requests carry tokens of their own making): the scenarios come before any state. */
async function sandbox(options: SandboxOptions = {}): Promise<string> {
  const one = await startSandbox({ stateless: true, ...options });
  started.push(one);
  return one.url;
}

beforeAll(async () => {
  plain = await sandbox();
});
afterAll(() => Promise.all(started.map((s) => s.close())));

const bearer = (token = 'anything') => ({ authorization: `Bearer ${token}` });

/** What the conformance suite finds wrong with this answer, by the contract. */
async function contractViolations(method: string, url: string, res: Response): Promise<string[]> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const exchange: Exchange = {
    check: 'scenarios',
    operationId: contract.find(method, new URL(url).pathname)?.operation.operationId as string | undefined,
    request: { method, url, headers: {} },
    response: { status: res.status, headers: Object.fromEntries(res.headers), text, json, ms: 0 },
  };
  if (!documentedResponse(contract, exchange)) return [`the contract documents no ${res.status} for ${method} ${url}`];
  return [
    ...contentTypeViolations(contract, exchange),
    ...headerViolations(contract, exchange),
    ...schemaViolations(contract, exchange),
  ];
}

describe('latency', () => {
  it('Prefer: latency=300ms: the answer takes at least that long', async () => {
    const from = performance.now();
    const res = await fetch(`${plain}/job`, { headers: { ...bearer(), prefer: 'latency=300ms' } });
    expect(res.status).toBe(200);
    expect(performance.now() - from).toBeGreaterThanOrEqual(295);
  });

  it('--latency 200ms: every answer takes at least that long; a range at least its low end', async () => {
    const fixed = await sandbox({ latency: { min: 200, max: 200 } });
    const ranged = await sandbox({ latency: { min: 100, max: 150 }, seed: 7 });
    for (const base of [fixed, ranged]) {
      const from = performance.now();
      await (await fetch(`${base}/job`, { headers: bearer() })).arrayBuffer();
      expect(performance.now() - from).toBeGreaterThanOrEqual(base === fixed ? 195 : 95);
    }
  });
});

describe('rate limiting', () => {
  it('Prefer: scenario=rate-limited answers the documented 429 with Retry-After and the RateLimit headers', async () => {
    const url = `${plain}/problem/maxcut`;
    const res = await fetch(url, { headers: { ...bearer(), prefer: 'scenario=rate-limited' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=1200;w=60');
    expect(res.headers.get('ratelimit')).toBe('"default";r=0;t=1');
    expect(await contractViolations('GET', url, res.clone())).toEqual([]);
    expect(await res.json()).toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('--rate-limit 3/10s: three requests per client, then 429 until the window ends; another client is not held', async () => {
    const base = await sandbox({ rateLimit: { limit: 3, windowSeconds: 10 } });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/job`, { headers: bearer('first') });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=3;w=10');
      remaining.push(res.headers.get('ratelimit'));
      await res.arrayBuffer();
    }
    expect(remaining.map((r) => /r=(\d+)/.exec(r!)?.[1])).toEqual(['2', '1', '0']);
    const url = `${base}/job`;
    const refused = await fetch(url, { headers: bearer('first') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await contractViolations('GET', url, refused)).toEqual([]);
    expect((await fetch(url, { headers: bearer('second') })).status).toBe(200);
    // GET /healthz documents no 429: it is not counted.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('an operation that documents no 429 refuses Prefer: scenario=rate-limited, pointing at Prefer', async () => {
    const res = await fetch(`${plain}/healthz`, { headers: { prefer: 'scenario=rate-limited' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_request', errors: [{ pointer: '/header/prefer' }] });
  });
});

describe('503 service_unavailable', () => {
  it('Prefer: scenario=service-unavailable answers the documented 503 with Retry-After', async () => {
    const url = `${plain}/job/K7Q2M9X4TB1R`;
    const res = await fetch(url, { headers: { ...bearer(), prefer: 'scenario=service-unavailable' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await contractViolations('GET', url, res.clone())).toEqual([]);
    expect(await res.json()).toMatchObject({ code: 'service_unavailable' });
  });

  it('--unavailable 0.5 with a seed answers 503 to the same requests run after run', async () => {
    const statuses = async (base: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${base}/job`, { headers: bearer() });
        await res.arrayBuffer();
        seen.push(res.status);
      }
      return seen;
    };
    const first = await statuses(await sandbox({ unavailable: 0.5, seed: 42 }));
    const again = await statuses(await sandbox({ unavailable: 0.5, seed: 42 }));
    expect(again).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 503]));
  });
});

describe('a dropped connection', () => {
  it('Prefer: scenario=dropped-connection: the socket closes without an answer, a network error to fetch', async () => {
    const sent = fetch(`${plain}/job`, { headers: { ...bearer(), prefer: 'scenario=dropped-connection' } });
    await expect(sent).rejects.toThrow(TypeError);
    // The sandbox goes on answering.
    expect((await fetch(`${plain}/job`, { headers: bearer() })).status).toBe(200);
  });

  it('is logged as such', () => {
    expect(requestLogLines(new Date(0), 'GET', '/job', 0, { dropped: true })).toBe(
      '1970-01-01T00:00:00.000Z GET /job\n  ✖ connection dropped without an answer (scenario)',
    );
  });

  it('--drop 1: every request', async () => {
    const base = await sandbox({ drop: 1 });
    await expect(fetch(`${base}/job`, { headers: bearer() })).rejects.toThrow(TypeError);
  });
});

describe('the Prefer vocabulary', () => {
  it('is read once into one object, solver-error included (for a stateful sandbox)', () => {
    expect(preferences('code=404, example=pending; latency=100-400ms, scenario=solver-error')).toEqual({
      code: 404,
      exampleKey: 'pending',
      latency: { min: 100, max: 400 },
      scenario: 'solver-error',
      unreadable: [],
    });
  });

  it.each(['scenario=flood', 'latency=soon'])('refuses %s, pointing at Prefer', async (prefer) => {
    const res = await fetch(`${plain}/job`, { headers: { ...bearer(), prefer } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ pointer: '/header/prefer' }] });
  });
});

describe('the flags of jes-sandbox', () => {
  it('--rate-limit 1/min --latency 50ms --seed 3: the command passes them on', async () => {
    const sandbox = await startChild(
      node(sandboxCli, '-p', '0', '--stateless', '--rate-limit', '1/min', '--latency', '50ms', '--seed', '3'),
    );
    try {
      const url = sandbox.url;
      const first = await fetch(`${url}/job`, { headers: bearer() });
      expect(first.headers.get('ratelimit-policy')).toBe('"default";q=1;w=60');
      expect((await fetch(`${url}/job`, { headers: bearer() })).status).toBe(429);
    } finally {
      await sandbox.stop();
    }
  });

  it.each([
    [['--rate-limit', '3'], 'expected a rate such as 10/s'],
    [['--latency', 'soon'], 'expected a duration such as 200ms'],
    [['--drop', '2'], 'expected a fraction such as 0.05'],
    [['--proxy', 'ftp://x'], 'expected the http or https URL'],
    [['--proxy', 'http://x', '--drop', '1%'], "are the mock's"],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const run = await runChild(node(sandboxCli, ...args));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
