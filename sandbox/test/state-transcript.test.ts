// Issue 30 §4: one seed, one transcript. Two stateful sandboxes started with the same --seed and sent the same
// requests (log in, start jobs inline and from a data file, wait for each with Prefer: wait until it ends, read the
// outputs and the inputs, list, cancel) answer alike; a third with another seed does not. What is masked, and why:
// the wall clock's instants (`started_at`, `end_at`, `created_at`, `timestamps`, `cancel_requested_at`) and the
// durations measured between them (`duration_seconds`), since two runs never start at the same instant and the
// sandbox's instants are the wall clock's (they agree with the Date header, as a deployment's do); the token's
// `iat` and `exp` claims, instants too; and `request_id`, a random UUID per request, as a deployment's, to find a
// request in the logs, not to name a resource. Everything else (job ids, tokens, timings' order, answers) is the seed's.
// Each sandbox reads a clock the test moves (frozen while the jobs are started and one is cancelled, then a minute on):
// on the wall clock a loaded machine let a job leave PENDING before its cancel came in one sandbox and not in the other.
import { sixNodes } from '../../test/support/six-nodes.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../src/server.ts';

const instants = new Set([
  'started_at',
  'end_at',
  'created_at',
  'timestamps',
  'cancel_requested_at',
  'duration_seconds',
]);

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (instants.has(key) || key === 'request_id') return [key, inner === null || inner === '' ? inner : '(masked)'];
      if (key === 'access_token' && typeof inner === 'string') {
        const [header, claims, signature] = inner.split('.');
        const read = JSON.parse(Buffer.from(claims!, 'base64url').toString());
        return [key, [header, { ...read, iat: '(masked)', exp: '(masked)' }, signature]];
      }
      return [key, masked(inner)];
    }),
  );
}

/** A path graph of `n` nodes with weights 1..n-1: too large to enumerate past 20, so its answer is the seed's. */
const path = (n: number) => ({
  num_nodes: n,
  adj_matrix: Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (Math.abs(i - j) === 1 ? Math.min(i, j) + 1 : 0)),
  ),
});

/** A clock that stands still until moved. */
function stillClock() {
  let at = Date.now();
  return { now: () => at, move: (ms: number) => void (at += ms) };
}

async function transcript(base: string, clock: ReturnType<typeof stillClock>): Promise<unknown[]> {
  const lines: unknown[] = [];
  let token = '';
  const send = async (
    method: string,
    target: string,
    init: { json?: unknown; form?: FormData; prefer?: string } = {},
  ) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (init.prefer) headers.prefer = init.prefer;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + target, {
      method,
      headers,
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : init.form ? { body: init.form } : {}),
    });
    const text = await res.text();
    const body = res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text;
    return { status: res.status, body };
  };
  const record = async (...args: Parameters<typeof send>) => {
    const answer = await send(...args);
    lines.push([args[0], args[1], answer.status, masked(answer.body)]);
    return answer.body as any;
  };
  /** Long polls until the job has ended; only the ended job is recorded (the states on the way are the clock's). */
  const ended = async (id: string) => {
    for (;;) {
      const { body } = await send('GET', `/job/${id}`, { prefer: 'wait=10' });
      if (['FINISHED', 'ERROR', 'CANCELLED'].includes(body.job[id].status)) {
        lines.push(['GET', `/job/${id} (ended)`, 200, masked(body)]);
        return;
      }
    }
  };

  token = (await record('POST', '/login', { json: { username: 'alice', password: 'any' } })).access_token;
  const jobs = [
    (await record('POST', '/problem/maxcut?solver=exact&solver=local-search&time_limit_seconds=1', { json: sixNodes }))
      .job,
    (await record('POST', '/problem/maxcut?solver=annealing&time_limit_seconds=1', { json: path(40) })).job,
    (
      await record('POST', '/problem/qubo', {
        json: {
          num_variables: 2,
          q_matrix: [
            [-1, 2],
            [0, -1],
          ],
        },
      })
    ).job,
  ];
  const form = new FormData();
  form.set('problem_id', 'maxcut');
  form.set('name', 'triangle.txt');
  form.set('file', new Blob(['3 3\n1 2 1\n2 3 2\n1 3 3\n']), 'triangle.txt');
  const file = (await record('POST', '/data_file', { form })).data_file_identifier;
  jobs.push(
    (await record('POST', '/problem/maxcut', { json: { data_file_identifier: file, solvers: [{ name: 'exact' }] } }))
      .job,
  );
  const cancelled = (
    await record('POST', '/problem/maxcut?solver=annealing&time_limit_seconds=600', { json: sixNodes })
  ).job;
  await record('POST', `/job/${cancelled}/cancel`);
  jobs.push(cancelled);
  // Past every other job's end (a second's limit, a PENDING of 1.5 s at most), well within a token's life.
  clock.move(60_000);
  for (const id of jobs) await ended(id);
  for (const id of jobs) await record('GET', `/job/${id}/output`);
  await record('GET', `/job/${jobs[3]}/input`);
  await record('GET', '/job?limit=2');
  await record('GET', `/job?limit=2&starting_after=${jobs[3]}`);
  await record('GET', '/job?status=CANCELLED');
  await record('GET', '/data_file');
  await record('DELETE', `/job/${jobs[0]}`);
  await record('GET', `/job/${jobs[0]}`);
  return lines;
}

const clocks = [stillClock(), stillClock(), stillClock()];
let sandboxes: Sandbox[];
beforeAll(async () => {
  // At a deployment's speed: a job is PENDING for half a second at least, so the cancel above, at the same instant,
  // finds it PENDING.
  sandboxes = await Promise.all([42, 42, 43].map((seed, i) => startSandbox({ seed, speed: 1, now: clocks[i]!.now })));
});
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

it('answers the same requests alike under one seed, and otherwise under another', async () => {
  const [first, again, other] = await Promise.all(sandboxes.map((s, i) => transcript(s.url, clocks[i]!)));
  expect(again).toEqual(first);
  expect(JSON.stringify(first)).toContain('"status":"CANCELLED"');
  expect(JSON.stringify(first)).toContain('"cut_value":53');
  expect(other).not.toEqual(first);
}, 60_000);
