// The stateful sandbox's event streams over HTTP (issue 31 §5): a job's events in order from its PENDING to an
// `end` that is what GET /job/{job_id} answers, resumed with Last-Event-ID or last_event_id (none missed, none
// twice), a cancel that ends the stream, the user's GET /events numbered across jobs, the cap on streams, the
// keep-alive, the progress history in GET and not in listings; through the validation proxy, a stream that is
// passed on as it comes.
import { progressEveryMs } from '@jes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Proxy, type Sandbox, startProxy, startSandbox } from '../src/server.ts';
import { type ReadStream, readStream } from './support/event-streams.ts';

type Auth = { authorization: string };

async function login(base: string, username: string): Promise<Auth> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'any' }),
  });
  return { authorization: `Bearer ${(await res.json()).access_token}` };
}

/** A 12-node graph: solved by enumeration, its better values found over the run. */
const graph = {
  num_nodes: 12,
  adj_matrix: Array.from({ length: 12 }, (_, i) =>
    Array.from({ length: 12 }, (_, j) => (i === j ? 0 : ((i * 7 + j * 7 + i * j) % 11) - 3)),
  ),
};

async function start(base: string, auth: Auth, query: string): Promise<string> {
  const res = await fetch(`${base}/problem/maxcut?${query}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(graph),
  });
  expect(res.status).toBe(200);
  return (await res.json()).job;
}

const stream = (base: string, path: string, auth: Auth, headers: Record<string, string> = {}) =>
  fetch(base + path, { headers: { ...auth, ...headers } });

const getJob = async (base: string, id: string, auth: Auth) =>
  (await (await fetch(`${base}/job/${id}`, { headers: auth })).json()) as { job: Record<string, any> };

const statuses = (read: ReadStream, type: string) =>
  read.events.filter((e) => e.event === type).map((e) => e.data.status);

let fast: Sandbox;
let slow: Sandbox;
beforeAll(async () => {
  // fast: a 600 s time limit runs 0.6 s; slow: at a deployment's speed, a job runs until it is cancelled.
  [fast, slow] = await Promise.all([
    startSandbox({ seed: 3, speed: 1000, limits: { maxStreamsPerUser: 2 } }),
    startSandbox({ seed: 4, speed: 1, keepAliveMs: 60 }),
  ]);
});
afterAll(() => Promise.all([fast?.close(), slow?.close()]));

describe("a job's stream", () => {
  it('sends its events in order, from PENDING to an `end` that is what GET answers, then closes', async () => {
    const auth = await login(fast.url, 'order');
    const id = await start(fast.url, auth, 'solver=exact&solver=annealing&time_limit_seconds=600');
    const res = await stream(fast.url, `/job/${id}/events`, auth);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const read = await readStream(res);
    expect(read.ended).toBe(true);
    expect(read.retry).toBe(1000);
    expect(read.events.map((e) => e.id)).toEqual(read.events.map((_, i) => String(i + 1)));
    expect(statuses(read, 'status')).toEqual(['PENDING', 'RUNNING']);
    const end = read.events.at(-1)!;
    expect(end.event).toBe('end');
    expect(end.data).toEqual(await getJob(fast.url, id, auth));
    expect(end.data.job[id].status).toBe('FINISHED');
    for (const solver of ['exact', 'annealing']) {
      const of = (type: string) => read.events.filter((e) => e.event === type && e.data.solver === solver);
      expect(of('execution').map((e) => e.data.status)).toEqual(['RUNNING', 'SUCCESS']);
      const progress = of('progress').map((e) => e.data);
      expect(progress.length).toBeGreaterThan(0);
      // Better each time (a cut: larger), and at most one per progressEveryMs of the run.
      const runMs = solver === 'annealing' ? 600 : undefined;
      for (const [i, p] of progress.entries()) {
        if (i === 0) continue;
        expect(p.best_value).toBeGreaterThan(progress[i - 1]!.best_value);
        if (runMs) expect(p.progress - progress[i - 1]!.progress).toBeGreaterThanOrEqual(progressEveryMs / runMs);
      }
      // Each progress event comes after its execution's RUNNING and before its end.
      const index = (e: object) => read.events.indexOf(e as never);
      const [running, ended] = of('execution').map(index);
      for (const p of of('progress')) {
        expect(index(p)).toBeGreaterThan(running!);
        expect(index(p)).toBeLessThan(ended!);
      }
      // The history shown at the end holds every value a progress event sent.
      const history = end.data.job[id].executions[solver].progress_history as { best_value: number }[];
      expect(history.map((h) => h.best_value)).toEqual(expect.arrayContaining(progress.map((p) => p.best_value)));
      expect(history.at(-1)!.best_value).toBe(end.data.job[id].executions[solver].best_value);
    }
  });

  it('resumes after Last-Event-ID (or last_event_id; the header wins): none missed, none twice', async () => {
    const auth = await login(fast.url, 'resume');
    const id = await start(fast.url, auth, 'solver=exact&solver=annealing');
    const whole = await readStream(await stream(fast.url, `/job/${id}/events`, auth));
    const tail = (after: number) => whole.events.filter((e) => Number(e.id) > after);
    for (const after of [1, 3, whole.events.length - 1]) {
      const byHeader = await readStream(
        await stream(fast.url, `/job/${id}/events?last_event_id=1`, auth, { 'last-event-id': String(after) }),
      );
      expect(byHeader.events).toEqual(tail(after));
      const byQuery = await readStream(await stream(fast.url, `/job/${id}/events?last_event_id=${after}`, auth));
      expect(byQuery.events).toEqual(tail(after));
    }
    // Resumed after its end: nothing more, and the stream closes.
    const after = await readStream(
      await stream(fast.url, `/job/${id}/events`, auth, { 'last-event-id': whole.events.at(-1)!.id! }),
    );
    expect([after.events, after.ended]).toEqual([[], true]);
  });

  it('ends with CANCELLED, what GET answers, when the job is cancelled while it runs', async () => {
    const auth = await login(slow.url, 'cancel');
    const id = await start(slow.url, auth, 'solver=annealing&time_limit_seconds=3600');
    const res = await stream(slow.url, `/job/${id}/events`, auth);
    const running = readStream(res, (read) => statuses(read, 'status').includes('RUNNING'));
    // The stream is live: what it read so far leaves it open.
    expect((await running).ended).toBe(false);
    const cancelled = await fetch(`${slow.url}/job/${id}/cancel`, { method: 'POST', headers: auth });
    expect(cancelled.status).toBe(202);
    const rest = await readStream(
      await stream(slow.url, `/job/${id}/events`, auth, { 'last-event-id': (await running).events.at(-1)!.id! }),
    );
    expect(rest.ended).toBe(true);
    const end = rest.events.at(-1)!;
    expect([end.event, end.data]).toEqual(['end', await getJob(slow.url, id, auth)]);
    expect(end.data.job[id].status).toBe('CANCELLED');
    expect(rest.events.filter((e) => e.event === 'execution').map((e) => e.data.status)).toEqual(['CANCELLED']);
  });

  it('is a 404 for a job of another user', async () => {
    const owner = await login(fast.url, 'owner');
    const id = await start(fast.url, owner, 'solver=exact');
    const res = await stream(fast.url, `/job/${id}/events`, await login(fast.url, 'stranger'));
    expect([res.status, (await res.json()).code]).toEqual([404, 'job_not_found']);
  });

  it('sends a keep-alive comment while nothing happens', async () => {
    const auth = await login(slow.url, 'quiet');
    const id = await start(slow.url, auth, 'solver=annealing&time_limit_seconds=3600');
    const read = await readStream(await stream(slow.url, `/job/${id}/events`, auth), (r) => r.comments.length >= 2);
    expect(read.comments.slice(0, 2)).toEqual(['keep-alive', 'keep-alive']);
    await fetch(`${slow.url}/job/${id}/cancel`, { method: 'POST', headers: auth });
  });
});

describe('GET /events', () => {
  it("numbers the status changes of all the user's jobs from the moment it opens, and resumes", async () => {
    const auth = await login(fast.url, 'all');
    const done = (read: ReadStream) => statuses(read, 'status').filter((s) => s === 'FINISHED').length === 2;
    const opened = stream(fast.url, '/events', auth);
    const res = await opened;
    const reading = readStream(res, done);
    const ids = [await start(fast.url, auth, 'solver=exact'), await start(fast.url, auth, 'solver=annealing')];
    const read = await reading;
    expect(read.events.every((e) => e.event === 'status')).toBe(true);
    const numbers = read.events.map((e) => Number(e.id));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const id of ids)
      expect(read.events.filter((e) => e.data.job_id === id).map((e) => e.data.status)).toEqual([
        'PENDING',
        'RUNNING',
        'FINISHED',
      ]);
    // Resumed from its second event: the rest, the same ids.
    const again = await readStream(
      await stream(fast.url, '/events', auth, { 'last-event-id': read.events[1]!.id! }),
      (r) => r.events.length === read.events.length - 2,
    );
    expect(again.events).toEqual(read.events.slice(2));
  });

  it('leaves out the changes of a job deleted since', async () => {
    const auth = await login(fast.url, 'deleting');
    const reading = readStream(await stream(fast.url, '/events', auth), (r) =>
      statuses(r, 'status').includes('FINISHED'),
    );
    const id = await start(fast.url, auth, 'solver=exact');
    await reading;
    expect((await fetch(`${fast.url}/job/${id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const kept = await start(fast.url, auth, 'solver=exact');
    const read = await readStream(await stream(fast.url, '/events', auth, { 'last-event-id': '0' }), (r) =>
      statuses(r, 'status').includes('FINISHED'),
    );
    expect(read.events.map((e) => e.data.job_id)).toEqual([kept, kept, kept]);
    expect(read.events[0]!.id).toBe('4');
  });
});

it('a user holds at most maxStreamsPerUser streams: one more is 429 too_many_streams, a closed one frees its place', async () => {
  const auth = await login(fast.url, 'capped');
  const held = [await stream(fast.url, '/events', auth), await stream(fast.url, '/events', auth)];
  expect(held.map((r) => r.status)).toEqual([200, 200]);
  const refused = await stream(fast.url, '/events', auth);
  expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '5']);
  expect(await refused.json()).toMatchObject({ code: 'too_many_streams', status: 429 });
  // Another user is not counted against this one.
  expect((await stream(fast.url, '/events', await login(fast.url, 'other'))).status).toBe(200);
  await held[0]!.body!.cancel();
  // The sandbox hears of the close when the connection's end reaches it: asked again until it has.
  let again: Response;
  do again = await stream(fast.url, '/events', auth);
  while (again.status === 429);
  expect(again.status).toBe(200);
});

describe('the progress history', () => {
  it('is in GET /job/{job_id} and not in listings, as `data` is', async () => {
    const auth = await login(fast.url, 'history');
    const id = await start(fast.url, auth, 'solver=annealing');
    await readStream(await stream(fast.url, `/job/${id}/events`, auth));
    const one = (await getJob(fast.url, id, auth)).job[id].executions.annealing;
    expect(one.progress_history.length).toBeGreaterThan(0);
    expect(one.progress_history[0].seconds).toBe(0);
    const listed = (await (await fetch(`${fast.url}/job`, { headers: auth })).json()).job[id].executions.annealing;
    expect(listed.progress_history).toBeUndefined();
    expect(listed.best_value).toBe(one.best_value);
  });
});

describe('through the validation proxy', () => {
  let proxy: Proxy;
  beforeAll(async () => {
    proxy = await startProxy({ upstream: slow.url });
  });
  afterAll(() => proxy?.close());

  it('a stream is passed on as it comes, not held for a check', async () => {
    const auth = await login(proxy.url, 'proxied');
    const id = await start(proxy.url, auth, 'solver=annealing&time_limit_seconds=3600');
    const res = await stream(proxy.url, `/job/${id}/events`, auth);
    expect([res.status, res.headers.get('content-type'), res.headers.get('sl-violations')]).toEqual([
      200,
      'text/event-stream',
      null,
    ]);
    // The job runs an hour: its RUNNING can only arrive while the deployment's stream is still open.
    const running = await readStream(res, (read) => statuses(read, 'status').includes('RUNNING'));
    expect(running.ended).toBe(false);
    await fetch(`${proxy.url}/job/${id}/cancel`, { method: 'POST', headers: auth });
  });
});
