// GET /job/{job_id}/events and GET /events on the embedded server, over HTTP: a finished job's events in order,
// resumed after Last-Event-ID (header and query) with exactly the rest, the `end` event equal to GET /job/{id}, the
// user stream across jobs, and the cap on streams.
import { describe, expect, it } from 'vitest';
import { randomMatrix, sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';
import { openStream, type StreamEvent } from './support/event-stream.ts';

const jes = sharedServer({ JES_MAX_STREAMS_PER_USER: '3' }, { users: ['alice', 'bob'] });
const stream = (path: string, headers: Record<string, string> = {}, token = jes.alice.token) =>
  openStream(jes.url, path, token, headers);

describe('a finished job', () => {
  it('streams its events in order, ending with `end`, which is what GET /job/{id} answers', async () => {
    const id = await jes.alice.start(sixNodes, '?solver=exact');
    await jes.alice.waitFor(id);
    const s = await stream(`/job/${id}/events`);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await s.rest();
    expect(s.retry).toBe('1000');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
    expect(events[0]).toMatchObject({ event: 'status', data: { job_id: id, status: 'PENDING' } });
    expect(events.filter((e) => e.event === 'status').map((e) => e.data.status)).toEqual(['PENDING', 'RUNNING']);
    expect(events.filter((e) => e.event === 'execution').map((e) => e.data.status)).toEqual(['RUNNING', 'SUCCESS']);
    const end = events.at(-1)!;
    expect(end.event).toBe('end');
    expect(end.data).toEqual((await jes.alice.get(`/job/${id}`)).body);
    expect(end.data.job[id].links.events).toBe(`/job/${id}/events`);
  });

  it('resumes after Last-Event-ID, header or query, with exactly the events after it', async () => {
    const id = await jes.alice.start(sixNodes, '?solver=exact');
    await jes.alice.waitFor(id);
    const all = await (await stream(`/job/${id}/events`)).rest();
    for (let k = 0; k < all.length; k++) {
      const byHeader = await (await stream(`/job/${id}/events`, { 'last-event-id': all[k]!.id })).rest();
      expect(byHeader).toEqual(all.slice(k + 1));
      const byQuery = await (await stream(`/job/${id}/events?last_event_id=${all[k]!.id}`)).rest();
      expect(byQuery).toEqual(all.slice(k + 1));
    }
    // The header wins over the query.
    const both = await (await stream(`/job/${id}/events?last_event_id=0`, { 'last-event-id': all[1]!.id })).rest();
    expect(both).toEqual(all.slice(2));
  });

  it("answers 404 for another user's job and 400 for a malformed Last-Event-ID", async () => {
    const id = await jes.alice.start(sixNodes, '?solver=exact');
    expect((await stream(`/job/${id}/events`, {}, jes.bob.token)).status).toBe(404);
    expect((await stream(`/job/${id}/events`, { 'last-event-id': 'x1' })).status).toBe(400);
    const open = await stream(`/job/${id}/events`);
    expect(open.status).toBe(200);
    await jes.alice.waitFor(id);
    expect((await open.rest()).at(-1)!.event).toBe('end');
  });
});

describe('a cancelled job', () => {
  it("ends with its executions' CANCELLED and the job's, the `end` carrying it", async () => {
    // Sixty nodes: annealing enumerates a graph of six (reduced.ts) and would end before the cancel.
    const graph = { num_nodes: 60, adj_matrix: randomMatrix(60, 5) };
    const id = await jes.alice.start(graph, '?solver=local-search&solver=annealing&time_limit_seconds=60');
    const s = await stream(`/job/${id}/events`);
    const seen: StreamEvent[] = [];
    while (!seen.some((e) => e.event === 'status' && e.data.status === 'RUNNING')) seen.push((await s.next())!);
    expect((await jes.alice.post(`/job/${id}/cancel`)).status).toBe(202);
    seen.push(...(await s.rest()));
    const end = seen.at(-1)!;
    expect(end.event).toBe('end');
    expect(end.data.job[id].status).toBe('CANCELLED');
    const executions = seen.filter((e) => e.event === 'execution');
    for (const solver of ['local-search', 'annealing'])
      expect(executions.filter((e) => e.data.solver === solver).at(-1)!.data.status).toBe('CANCELLED');
  });
});

describe('GET /events', () => {
  it("streams the status changes of the caller's jobs from the moment it opens, and resumes after Last-Event-ID", async () => {
    const s = await stream('/events', {}, jes.bob.token);
    expect(s.status).toBe(200);
    const a = await jes.bob.start(sixNodes, '?solver=exact');
    const b = await jes.bob.start(sixNodes, '?solver=exact');
    await jes.bob.waitFor(a);
    await jes.bob.waitFor(b);
    const seen: StreamEvent[] = [];
    while (seen.filter((e) => ['FINISHED', 'ERROR'].includes(e.data.status)).length < 2) seen.push((await s.next())!);
    s.close();
    for (const id of [a, b])
      expect(seen.filter((e) => e.data.job_id === id).map((e) => e.data.status)).toEqual([
        'PENDING',
        'RUNNING',
        'FINISHED',
      ]);
    expect(seen.every((e) => e.event === 'status')).toBe(true);
    const ids = seen.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    // Resumed after the second event: the rest, then nothing until something changes.
    const resumed = await stream('/events', { 'last-event-id': seen[1]!.id }, jes.bob.token);
    const rest = [];
    for (let i = 2; i < seen.length; i++) rest.push(await resumed.next());
    resumed.close();
    expect(rest).toEqual(seen.slice(2));
  });

  it('leaves out the events of a job deleted since', async () => {
    const s = await stream('/events', {}, jes.bob.token);
    const kept = await jes.bob.start(sixNodes, '?solver=exact');
    const gone = await jes.bob.start(sixNodes, '?solver=exact');
    await jes.bob.waitFor(kept);
    await jes.bob.waitFor(gone);
    const first = (await s.next())!;
    s.close();
    expect((await jes.bob.request('DELETE', `/job/${gone}`)).status).toBe(204);
    const before = String(Number(first.id) - 1);
    const resumed = await stream('/events', { 'last-event-id': before }, jes.bob.token);
    const seen: StreamEvent[] = [];
    while (!seen.some((e) => e.data.job_id === kept && e.data.status === 'FINISHED'))
      seen.push((await resumed.next())!);
    resumed.close();
    expect(seen.filter((e) => e.data.job_id === kept).map((e) => e.data.status)).toEqual([
      'PENDING',
      'RUNNING',
      'FINISHED',
    ]);
    expect(seen.some((e) => e.data.job_id === gone)).toBe(false);
  });

  it('refuses a stream past JES_MAX_STREAMS_PER_USER with 429 too_many_streams, and frees the slot on close', async () => {
    const open = await Promise.all([1, 2, 3].map(() => stream('/events')));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await stream('/events');
    expect(refused.status).toBe(429);
    expect(refused.problem.code).toBe('too_many_streams');
    expect(refused.headers.get('retry-after')).not.toBeNull();
    open[0]!.close();
    // The server notices the close when the socket does: try until the slot is free.
    let again = await stream('/events');
    for (let i = 0; again.status === 429 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await stream('/events');
    }
    expect(again.status).toBe(200);
    for (const s of [...open, again]) s.close();
  });
});
