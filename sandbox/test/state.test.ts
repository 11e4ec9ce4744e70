// The stateful sandbox over HTTP (issue 30 §1-3): answers that fit the input sent (the cut or energy recomputed with
// the contract's functions, optimal only when proven), the failures a deployment's jobs have, the caps that bound
// its memory, the reset, and a long poll that answers at once on an ended job.
import { cutValue, energy } from '@jes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../src/server.ts';

type Call = (
  method: string,
  path: string,
  init?: { json?: unknown; form?: FormData; headers?: Record<string, string> },
) => Promise<{ status: number; headers: Headers; body: any }>;

async function userOf(base: string, username: string): Promise<Call> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'any' }),
  });
  const { access_token: token } = await login.json();
  return async (method, path, init = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const body = init.json !== undefined ? JSON.stringify(init.json) : init.form;
    const res = await fetch(base + path, { method, headers, ...(body ? { body } : {}) });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
    };
  };
}

/** Waits for the job to end (long polls) and returns it. */
async function ended(call: Call, id: string): Promise<any> {
  for (;;) {
    const { body } = await call('GET', `/job/${id}`, { headers: { prefer: 'wait=30' } });
    const job = body.job[id];
    if (['FINISHED', 'ERROR', 'CANCELLED'].includes(job.status)) return job;
  }
}

/** A symmetric matrix of `n` nodes, weights in -5..9 (some zero), from a small deterministic generator. */
function graph(n: number, salt: number): { num_nodes: number; adj_matrix: number[][] } {
  let state = salt * 7919 + n;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) % 15;
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) m[i]![j] = m[j]![i] = next() - 5;
  return { num_nodes: n, adj_matrix: m };
}

function bestCut(matrix: number[][]): number {
  const n = matrix.length;
  let best = -Infinity;
  for (let code = 0; code < 2 ** n; code++) {
    const partition = Array.from({ length: n }, (_, i) => (code >> i) & 1);
    best = Math.max(best, cutValue(matrix, partition));
  }
  return best;
}

let sandbox: Sandbox;
let alice: Call;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, speed: 1000 });
  alice = await userOf(sandbox.url, 'alice');
});
afterAll(() => sandbox?.close());

describe('answers', () => {
  it.each([1, 2, 5, 9, 12, 25, 60])(
    'a graph of %i nodes: its cut recomputed, optimal only when enumerated',
    async (n) => {
      const input = graph(n, n);
      const { body } = await alice('POST', '/problem/maxcut?solver=local-search&solver=annealing', { json: input });
      await ended(alice, body.job);
      const { body: output } = await alice('GET', `/job/${body.job}/output`);
      for (const answer of Object.values<any>(output.outputs)) {
        expect(answer.partition).toHaveLength(n);
        expect(answer.cut_value).toBe(cutValue(input.adj_matrix, answer.partition));
        expect(answer.optimal).toBe(n <= 20);
        if (n <= 12) expect(answer.cut_value).toBe(bestCut(input.adj_matrix));
      }
    },
  );

  it.each([3, 8, 30])('a QUBO of %i variables: its energy recomputed from the assignment', async (n) => {
    const { adj_matrix: q } = graph(n, 2 * n);
    for (let i = 0; i < n; i++) q[i]![i] = (i % 3) - 1;
    const { body } = await alice('POST', '/problem/qubo?solver=annealing', { json: { num_variables: n, q_matrix: q } });
    await ended(alice, body.job);
    const answer = (await alice('GET', `/job/${body.job}/output`)).body.outputs.annealing;
    expect(answer.assignment).toHaveLength(n);
    const input = { n, q };
    let expected = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) if (answer.assignment[i] && answer.assignment[j]) expected += input.q[i]![j]!;
    expect(answer.energy).toBeCloseTo(expected, 9);
    expect(answer.energy).toBe(energy(q, answer.assignment));
    expect(answer.optimal).toBe(n <= 20);
  });

  it("a solver's seed param repeats its answer on the same input (the contract's SolverChoice.params.seed)", async () => {
    const form = new FormData();
    form.set('problem_id', 'maxcut');
    form.set('name', 'path.txt');
    const edges = Array.from({ length: 39 }, (_, i) => `${i + 1} ${i + 2} ${i + 1}`);
    form.set('file', new Blob([`40 39\n${edges.join('\n')}\n`]), 'path.txt');
    const id = (await alice('POST', '/data_file', { form })).body.data_file_identifier;
    const run = async (seed: number) => {
      const solvers = [{ name: 'annealing', params: { seed } }];
      const { body } = await alice('POST', '/problem/maxcut', { json: { data_file_identifier: id, solvers } });
      await ended(alice, body.job);
      return (await alice('GET', `/job/${body.job}/output`)).body.outputs.annealing.partition;
    };
    const [first, again, other] = [await run(7), await run(7), await run(8)];
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('the exact solver past its max_nodes fails as a deployment fails it (solver_limit_exceeded)', async () => {
    const { body } = await alice('POST', '/problem/maxcut?solver=exact', { json: graph(33, 1) });
    const job = await ended(alice, body.job);
    expect(job.status).toBe('ERROR');
    expect(job.executions.exact.error).toMatchObject({ code: 'solver_limit_exceeded' });
    expect(job.error).toMatchObject({ code: 'solver_failed' });
  });

  it('Prefer: scenario=solver-error ends every execution in ERROR (solver_failed), after it ran', async () => {
    const { status, body } = await alice('POST', '/problem/maxcut?solver=exact&solver=local-search', {
      json: graph(6, 2),
      headers: { prefer: 'scenario=solver-error' },
    });
    expect(status).toBe(200);
    const job = await ended(alice, body.job);
    expect(job.status).toBe('ERROR');
    for (const solver of ['exact', 'local-search']) {
      expect(job.executions[solver]).toMatchObject({ status: 'ERROR', error: { code: 'solver_failed' } });
      expect(job.executions[solver].started_at).toEqual(expect.any(String));
    }
    // The same input without it succeeds.
    const plain = await alice('POST', '/problem/maxcut?solver=exact', { json: graph(6, 2) });
    expect((await ended(alice, plain.body.job)).status).toBe('FINISHED');
  });

  it('an inline matrix that is not symmetric is 422 invalid_input with the pointers a deployment gives', async () => {
    const answer = await alice('POST', '/problem/maxcut', {
      json: {
        num_nodes: 2,
        adj_matrix: [
          [0, 1],
          [2, 0],
        ],
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'invalid_input', errors: [{ pointer: '/adj_matrix/0/1' }] });
  });
});

describe('data files', () => {
  const upload = (call: Call, text: string) => {
    const form = new FormData();
    form.set('problem_id', 'maxcut');
    form.set('name', 'g.txt');
    form.set('file', new Blob([text]), 'g.txt');
    return call('POST', '/data_file', { form });
  };

  // At a deployment's speed: a file's validation takes half a second at least, time to start a job from it.
  let slow: Sandbox;
  beforeAll(async () => {
    slow = await startSandbox({ seed: 2, speed: 1 });
  });
  afterAll(() => slow?.close());

  it('an INVALID file fails the job started while it was validated, and refuses jobs once it is known', async () => {
    const alice = await userOf(slow.url, 'alice');
    const bad = await upload(alice, '2 1\n1 3 1\n');
    expect(bad.status).toBe(201);
    const id = bad.body.data_file_identifier;
    const { body } = await alice('POST', '/problem/maxcut', { json: { data_file_identifier: id } });
    const job = await ended(alice, body.job);
    expect(job.status).toBe('ERROR');
    expect(job.error).toMatchObject({ code: 'data_file_invalid', errors: [{ pointer: '/line/2' }] });
    const file = (await alice('GET', `/data_file/${id}`)).body.data_file[id];
    expect(file).toMatchObject({ status: 'INVALID', error: { code: 'data_file_invalid' } });
    const refused = await alice('POST', '/problem/maxcut', { json: { data_file_identifier: id } });
    expect([refused.status, refused.body.code]).toEqual([422, 'data_file_invalid']);
  });
});

describe('a long poll', () => {
  it('on an ended job answers at once (regression: it waited the whole wait)', async () => {
    const { body } = await alice('POST', '/problem/maxcut', { json: graph(3, 3) });
    await ended(alice, body.job);
    const asked = performance.now();
    const polled = await alice('GET', `/job/${body.job}`, { headers: { prefer: 'wait=5' } });
    expect(performance.now() - asked).toBeLessThan(2000);
    expect(polled.headers.get('preference-applied')).toBe('wait=5');
  });
});

describe('bounds and reset', () => {
  let small: Sandbox;
  beforeAll(async () => {
    small = await startSandbox({
      seed: 1,
      speed: 1000,
      limits: { maxUsers: 2, maxJobsPerUser: 3, maxActiveJobsPerUser: 2, maxBytesPerUser: 40_000, maxWaitsPerUser: 1 },
    });
  });
  afterAll(() => small?.close());

  it('refuses a job past the active cap (429), and forgets the oldest ended jobs past the cap on jobs', async () => {
    const bob = await userOf(small.url, 'bob');
    const long = async () =>
      (await bob('POST', '/problem/maxcut?solver=annealing&time_limit_seconds=3600', { json: graph(3, 1) })).body.job;
    const first = await long();
    await long();
    const third = await bob('POST', '/problem/maxcut', { json: graph(3, 1) });
    expect([third.status, third.body.code, third.headers.get('retry-after')]).toEqual([
      429,
      'too_many_active_jobs',
      '5',
    ]);
    // A poll past the cap on long polls is answered at once, without Preference-Applied.
    const [held, extra] = await Promise.all([
      bob('GET', `/job/${first}`, { headers: { prefer: 'wait=1' } }),
      new Promise((r) => setTimeout(r, 100)).then(() => bob('GET', `/job/${first}`, { headers: { prefer: 'wait=1' } })),
    ]);
    expect(held.headers.get('preference-applied')).toBe('wait=1');
    expect(extra.headers.get('preference-applied')).toBeNull();
    const jobs = (await bob('GET', '/job')).body.ids as string[];
    for (const id of jobs) await bob('POST', `/job/${id}/cancel`);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await bob('POST', '/problem/maxcut', { json: graph(3, i) })).body.job);
    const listed = (await bob('GET', '/job')).body.ids;
    expect(listed).toEqual(ids.reverse());
    expect((await bob('GET', `/job/${first}`)).status).toBe(404);
  });

  it('refuses an upload past the bytes per user (413 storage_quota_exceeded)', async () => {
    const carol = await userOf(small.url, 'carol');
    const form = new FormData();
    form.set('problem_id', 'maxcut');
    form.set('name', 'big.txt');
    form.set('file', new Blob([`2 1\n1 2 1\n${'\n'.repeat(50_000)}`]), 'big.txt');
    const answer = await carol('POST', '/data_file', { form });
    expect([answer.status, answer.body.code, answer.body.max_bytes]).toEqual([413, 'storage_quota_exceeded', 40_000]);
  });

  it('forgets the user seen least recently past the cap on users: its token no longer works', async () => {
    const dave = await userOf(small.url, 'dave');
    expect((await dave('GET', '/job')).status).toBe(200);
    await userOf(small.url, 'erin');
    await userOf(small.url, 'frank');
    const gone = await dave('GET', '/job');
    expect([gone.status, gone.body.code]).toEqual([401, 'invalid_token']);
  });

  it('POST /sandbox/reset forgets everything; another method is 405; stateless, the path does not exist', async () => {
    const grace = await userOf(small.url, 'grace');
    expect((await fetch(`${small.url}/sandbox/reset`)).status).toBe(405);
    expect((await fetch(`${small.url}/sandbox/reset`, { method: 'POST' })).status).toBe(204);
    expect((await grace('GET', '/job')).status).toBe(401);
    const stateless = await startSandbox({ stateless: true });
    try {
      const res = await fetch(`${stateless.url}/sandbox/reset`, { method: 'POST' });
      expect([res.status, (await res.json()).code]).toEqual([404, 'not_found']);
    } finally {
      await stateless.close();
    }
  });
});
