// The client's event streams against a hostile Server-Sent Events server (support/sse-server.ts): it drops a
// connection mid-event, sends garbage lines and events nobody knows, ignores Last-Event-ID and resends, falls silent
// without closing, sets `retry:`, refuses an expired token. Whatever it does, the iterator resumes with the right
// Last-Event-ID and yields every event once; waitForJob and `jes watch` follow the stream, or fall back to long polls.
import { afterEach, describe, expect, it } from 'vitest';
import { createJesClient, type Job, type JobEvent, type Result, type UserEvent } from '../src/index.ts';
import { configHome, jes } from './support/cli.ts';
import { frame, open, problem, type Script, type SseServer, sseServer } from './support/sse-server.ts';

const jobId = 'K7Q2M9X4TB1R';
const eventsPath = `/job/${jobId}/events`;
const at = '2026-11-22T14:07:45.301Z';

/** The job as GET /job/{job_id} shows it, in the status given. */
function job(status: string, execution = 'PENDING', extra: Record<string, unknown> = {}) {
  return {
    status,
    executions: {
      exact: { status: execution, started_at: null, end_at: null, duration_seconds: null, timestamps: { created: at } },
    },
    problem_id: 'maxcut',
    input: { mode: 'inline', bytes: 114 },
    timestamps: { submitted: at, running: null, ended: null },
    ...extra,
  };
}

/** The job's events from the first, numbered 1…: PENDING, execution RUNNING, RUNNING, two improvements, the end. */
const story: [string, unknown][] = [
  ['status', { job_id: jobId, status: 'PENDING', at }],
  ['execution', { job_id: jobId, solver: 'exact', status: 'RUNNING', at }],
  ['status', { job_id: jobId, status: 'RUNNING', at }],
  ['progress', { job_id: jobId, solver: 'exact', seconds: 0.1, best_value: 40, progress: 0.1 }],
  ['progress', { job_id: jobId, solver: 'exact', seconds: 0.2, best_value: 53, progress: 0.2 }],
  ['execution', { job_id: jobId, solver: 'exact', status: 'SUCCESS', at }],
  ['end', { job: { [jobId]: job('FINISHED', 'SUCCESS') } }],
];
const frames = story.map(([event, data], i) => frame(i + 1, event, data));

/** Sends the story's events after `lastEventId` (as a server should). */
const after = (lastEventId: string | undefined) => frames.slice(Number(lastEventId ?? 0));

let server: SseServer | undefined;
afterEach(() => server?.close());

async function serve(routes: Record<string, Script>) {
  server = await sseServer(routes);
  return createJesClient({ baseUrl: server.url, token: 'token-1' });
}

async function collect(events: AsyncIterable<Result<JobEvent | UserEvent>>) {
  const ids: string[] = [];
  const errors: string[] = [];
  for await (const result of events) {
    if (result.error) errors.push(result.error.code);
    else ids.push(`${result.data!.id} ${result.data!.event}`);
  }
  return { ids, errors };
}

const allOnce = story.map(([event], i) => `${i + 1} ${event}`);

describe('jobEvents against a hostile server', () => {
  it('resumes a connection dropped in the middle of an event from the last whole one, and yields each event once', async () => {
    const jes = await serve({
      [eventsPath]: (request, response, n) => {
        open(response);
        if (n === 0) {
          // Destroyed once the bytes are out: the client reads them, then the connection is gone.
          return void response.write(frames.slice(0, 3).join('') + frames[3]!.slice(0, 20), () =>
            response.socket!.destroy(),
          );
        }
        if (n === 1) {
          // Half a line, then gone: the partial event must not be yielded.
          return void response.write(after(request.headers['last-event-id'] as string)[0]!.slice(0, 9), () =>
            response.socket!.destroy(),
          );
        }
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    expect(await collect(jes.jobEvents(jobId))).toEqual({ ids: allOnce, errors: [] });
    expect(server!.seen.map((s) => s.lastEventId)).toEqual([undefined, '3', '3']);
    expect(server!.seen.every((s) => s.authorization === 'Bearer token-1')).toBe(true);
  });

  it('ignores garbage lines, comments, events it does not know and data that is not JSON, and resumes after the last id it read', async () => {
    const jes = await serve({
      [eventsPath]: (request, response, n) => {
        open(response);
        if (n === 0) {
          response.write(
            'garbage without a colon\n: a comment\nfoo: bar\nretry: soon\n\n' +
              frames[0] +
              'data: an event without id or name\n\n' +
              'id: 2\nevent: fireworks\ndata: {"bang":true}\n\n' +
              frames[1]!.replace('id: 2', 'id: 3').replace('data: {', 'data: {{') +
              ': keep-alive\n\n',
          );
          return void response.end();
        }
        expect(request.headers['last-event-id']).toBe('3');
        response.end(
          frames
            .slice(1)
            .map((f, i) => f.replace(/^id: \d+/, `id: ${i + 4}`))
            .join(''),
        );
      },
    });
    const { ids } = await collect(jes.jobEvents(jobId));
    expect(ids).toEqual(['1 status', ...story.slice(1).map(([event], i) => `${i + 4} ${event}`)]);
  });

  it('yields an event resent by a server that ignores Last-Event-ID only once', async () => {
    const jes = await serve({
      [eventsPath]: (_, response, n) => {
        open(response);
        if (n < 2) {
          response.write(frames.slice(0, 2 + n * 2).join(''));
          return void response.end();
        }
        response.end(frames.join(''));
      },
    });
    expect(await collect(jes.jobEvents(jobId))).toEqual({ ids: allOnce, errors: [] });
    expect(server!.seen.map((s) => s.lastEventId)).toEqual([undefined, '2', '4']);
  });

  it('takes a connection silent for longer than idleMs (no event, no keep-alive) as dropped', async () => {
    const jes = await serve({
      [eventsPath]: (request, response, n) => {
        open(response);
        // The first connection sends two events, then nothing, and never closes.
        if (n === 0) return void response.write(frames.slice(0, 2).join(''));
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    const reasons: string[] = [];
    const events = jes.jobEvents(jobId, { reconnect: { idleMs: 200, onReconnect: (_, __, why) => reasons.push(why) } });
    expect(await collect(events)).toEqual({ ids: allOnce, errors: [] });
    expect(reasons).toEqual(['no event or keep-alive for 0.2 s, or a line too long']);
    await server!.seen[0]!.closed;
  });

  it('takes retry: 0 as 10 ms, doubled: never a busy loop of reconnections', async () => {
    const jes = await serve({
      [eventsPath]: (request, response, n) => {
        open(response, 0);
        if (n < 3) return void response.end();
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    const delays: number[] = [];
    const events = jes.jobEvents(jobId, { reconnect: { onReconnect: (_, ms) => delays.push(ms) } });
    expect(await collect(events)).toEqual({ ids: allOnce, errors: [] });
    // 10, 20, 40 ms, each jittered down to half at most.
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(5);
    expect(delays[1]).toBeGreaterThanOrEqual(10);
    expect(delays[2]).toBeGreaterThanOrEqual(20);
  });

  it("waits the server's retry: before reconnecting, doubling it after each empty connection up to maxDelayMs", async () => {
    const jes = await serve({
      [eventsPath]: (request, response, n) => {
        open(response, 40);
        if (n < 4) return void response.end();
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    const delays: number[] = [];
    const events = jes.jobEvents(jobId, { reconnect: { maxDelayMs: 100, onReconnect: (_, ms) => delays.push(ms) } });
    // The first connection is the first failure: its events (none) would have reset the count.
    expect(await collect(events)).toEqual({ ids: allOnce, errors: [] });
    const [first, second, third, fourth] = delays;
    expect(first).toBeGreaterThanOrEqual(20);
    expect(first).toBeLessThanOrEqual(40);
    expect(second).toBeGreaterThanOrEqual(40);
    expect(second).toBeLessThanOrEqual(80);
    expect(third).toBeGreaterThanOrEqual(50);
    expect(third).toBeLessThanOrEqual(100);
    expect(fourth).toBeLessThanOrEqual(100);
  });

  it('logs in again when a reconnection is refused with invalid_token, as every call does, and resumes', async () => {
    let logins = 0;
    server = await sseServer({
      '/login': (_, response) => {
        logins += 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ access_token: `token-${logins}`, token_type: 'Bearer', expires_in: 3600 }));
      },
      [eventsPath]: (request, response, n) => {
        // The first token expires with the first connection.
        if (n > 0 && request.headers.authorization === 'Bearer token-1')
          return problem(response, 401, 'invalid_token', 'The token has expired.');
        open(response);
        if (n === 0) return void response.end(frames.slice(0, 4).join(''));
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    const jes = createJesClient({ baseUrl: server.url, username: 'alice', password: 'pw' });
    expect(await collect(jes.jobEvents(jobId))).toEqual({ ids: allOnce, errors: [] });
    const streams = server.seen.filter((s) => s.path === eventsPath);
    expect(streams.map((s) => [s.authorization, s.lastEventId])).toEqual([
      ['Bearer token-1', undefined],
      ['Bearer token-1', '4'],
      ['Bearer token-2', '4'],
    ]);
  });

  it('yields a problem and stops: a job that does not exist, a refusal without credentials to log in with', async () => {
    const jes = await serve({
      [eventsPath]: (_, response) => problem(response, 404, 'job_not_found', `No job ${jobId} exists for this user.`),
      '/events': (_, response) => problem(response, 401, 'invalid_token', 'The token has expired.'),
    });
    expect(await collect(jes.jobEvents(jobId))).toEqual({ ids: [], errors: ['job_not_found'] });
    expect(await collect(jes.events())).toEqual({ ids: [], errors: ['invalid_token'] });
  });

  it('yields not_an_event_stream for a 200 that is not text/event-stream, or one that holds no Server-Sent Events', async () => {
    const jes = await serve({
      [eventsPath]: (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"events": []}');
      },
      // A mock of the contract (Prism) answers the example's JSON array as text/event-stream.
      '/events': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(JSON.stringify(story.map(([event, data], i) => ({ id: String(i + 1), event, data }))));
      },
    });
    expect(await collect(jes.jobEvents(jobId))).toEqual({ ids: [], errors: ['not_an_event_stream'] });
    expect(await collect(jes.events())).toEqual({ ids: [], errors: ['not_an_event_stream'] });
    expect(server!.seen).toHaveLength(2);
  });

  it('gives up after `tries` drops in a row without an event, throwing the last network error as fetch does', async () => {
    const jes = await serve({
      [eventsPath]: (_, response, n) => {
        open(response);
        if (n === 0) return void response.end(frames[0]);
        response.socket!.destroy();
      },
    });
    const ids: string[] = [];
    const reading = (async () => {
      for await (const result of jes.jobEvents(jobId, { reconnect: { tries: 3 } })) ids.push(result.data!.id);
    })();
    await expect(reading).rejects.toBeInstanceOf(TypeError);
    // The clean end after event 1 is the first drop; two reconnections fail.
    expect(ids).toEqual(['1']);
    expect(server!.seen).toHaveLength(3);
  });

  it('rejects at once when nothing answers the first connection (nothing to resume)', async () => {
    const jes = createJesClient({ baseUrl: 'http://127.0.0.1:9', token: 'token-1' });
    await expect(collect(jes.jobEvents(jobId))).rejects.toThrow('fetch failed');
  });
});

describe('events (all your jobs) against a hostile server', () => {
  it('never ends by itself: resumes each close; leaving the loop closes the connection', async () => {
    const jes = await serve({
      '/events': (request, response, n) => {
        open(response);
        const from = Number(request.headers['last-event-id'] ?? 16);
        response.write(frame(from + 1, 'status', { job_id: jobId, status: 'RUNNING', at }));
        response.write(frame(from + 2, 'progress', { job_id: jobId }));
        if (n === 0) response.end();
      },
    });
    const ids: string[] = [];
    for await (const result of jes.events({ lastEventId: '16' })) {
      ids.push(`${result.data!.id} ${result.data!.data.status}`);
      if (ids.length === 2) break;
    }
    // The progress event is not one of the user stream's: skipped, but its id is resumed after.
    expect(ids).toEqual(['17 RUNNING', '19 RUNNING']);
    expect(server!.seen.map((s) => s.lastEventId)).toEqual(['16', '18']);
    await server!.seen[1]!.closed;
  });

  it('stops when its signal aborts, rejecting with its reason', async () => {
    const jes = await serve({ '/events': (_, response) => open(response) });
    const controller = new AbortController();
    const reading = collect(jes.events({ signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('enough'));
    await expect(reading).rejects.toThrow('enough');
    await server!.seen[0]!.closed;
  });
});

describe('waitForJob', () => {
  const envelope = (status: string, execution?: string) => JSON.stringify({ job: { [jobId]: job(status, execution) } });
  const getJob: Script = (_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(envelope('PENDING'));
  };

  it("follows the job's stream: the job moved on by each event, then the end's job", async () => {
    const jes = await serve({
      [`/job/${jobId}`]: getJob,
      [eventsPath]: (request, response, n) => {
        open(response);
        if (n === 0) return void response.end(frames.slice(0, 4).join(''));
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    const seen: string[] = [];
    const onProgress = (j: Job) =>
      seen.push(`${j.status} ${j.executions.exact!.status} ${j.executions.exact!.best_value}`);
    const ended = await jes.waitForJob(jobId, { onProgress });
    expect(ended.data?.status).toBe('FINISHED');
    expect(ended.data?.id).toBe(jobId);
    expect(seen).toEqual([
      'PENDING PENDING undefined',
      'PENDING RUNNING undefined',
      'RUNNING RUNNING undefined',
      'RUNNING RUNNING 40',
      'RUNNING RUNNING 53',
      'RUNNING SUCCESS 53',
      'FINISHED SUCCESS undefined',
    ]);
    expect(server!.seen.map((s) => s.path)).toEqual([`/job/${jobId}`, eventsPath, eventsPath]);
  });

  it('falls back to long polls where the service has no stream (404 not_found), or it keeps dropping', async () => {
    let polls = 0;
    const longPoll: Script = (request, response) => {
      polls += 1;
      response.writeHead(200, { 'content-type': 'application/json', 'preference-applied': 'wait=30' });
      response.end(envelope(polls < 3 ? 'RUNNING' : 'FINISHED', polls < 3 ? 'RUNNING' : 'SUCCESS'));
      expect(polls === 1 || request.headers.prefer === 'wait=30').toBe(true);
    };
    const none = await serve({ [`/job/${jobId}`]: longPoll });
    expect((await none.waitForJob(jobId)).data?.status).toBe('FINISHED');
    expect(server!.seen.map((s) => s.path)).toEqual([`/job/${jobId}`, eventsPath, `/job/${jobId}`, `/job/${jobId}`]);
    await server!.close();

    polls = 0;
    const dropping = await serve({
      [`/job/${jobId}`]: longPoll,
      [eventsPath]: (_, response, n) => {
        open(response);
        if (n === 0) return void response.end(frames[0]);
        response.socket!.destroy();
      },
    });
    expect((await dropping.waitForJob(jobId)).data?.status).toBe('FINISHED');
    expect(server!.seen.filter((s) => s.path === eventsPath)).toHaveLength(3);
  });

  it('long-polls only with stream: false', async () => {
    let polls = 0;
    const jes = await serve({
      [`/job/${jobId}`]: (_, response) => {
        polls += 1;
        response.writeHead(200, { 'content-type': 'application/json', 'preference-applied': 'wait=30' });
        response.end(envelope(polls < 2 ? 'RUNNING' : 'CANCELLED'));
      },
    });
    expect((await jes.waitForJob(jobId, { stream: false })).data?.status).toBe('CANCELLED');
    expect(server!.seen.map((s) => s.path)).toEqual([`/job/${jobId}`, `/job/${jobId}`]);
  });
});

describe('jes watch against a hostile server', () => {
  const envelope = (status: string, execution?: string) => JSON.stringify({ job: { [jobId]: job(status, execution) } });
  const answer =
    (status: string, execution?: string): Script =>
    (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'preference-applied': 'wait=1' });
      response.end(envelope(status, execution));
    };
  const env = () => ({ JES_BASE_URL: server!.url, JES_TOKEN: 'token-1', XDG_CONFIG_HOME: configHome() });

  it('prints each event once across a dropped connection, then the job', async () => {
    await serve({
      [`/job/${jobId}`]: answer('PENDING'),
      [eventsPath]: (request, response, n) => {
        open(response);
        if (n === 0)
          return void response.write(frames.slice(0, 4).join('') + frames[4]!.slice(0, 30), () =>
            response.socket!.destroy(),
          );
        response.end(after(request.headers['last-event-id'] as string).join(''));
      },
    });
    const run = await jes(['watch', jobId], env());
    expect(run.code).toBe(0);
    const [lines, view] = run.stdout.split('\n\n');
    expect(lines!.split('\n').map((line) => line.split(/ {2,}/).slice(1).join(' '))).toEqual([
      'status PENDING',
      'execution exact RUNNING',
      'status RUNNING',
      'progress exact best cut 40 found at 0.100 s, 10% of the time limit used',
      'progress exact best cut 53 found at 0.200 s, 20% of the time limit used',
      'execution exact SUCCESS',
    ]);
    expect(view).toMatch(new RegExp(`^Job +${jobId}\\nStatus +FINISHED\\n`));
    expect(run.stderr).toMatch(/^jes: the stream dropped \([^)]+\); resuming in \d+\.\d s\n$/);
  });

  it('waits with long polls on a service without the stream (404 not_found), saying so', async () => {
    let polls = 0;
    await serve({
      [`/job/${jobId}`]: (request, response) => {
        polls += 1;
        answer(polls < 3 ? 'RUNNING' : 'ERROR', polls < 3 ? 'RUNNING' : 'ERROR')(request, response, polls);
      },
    });
    const run = await jes(['watch', jobId], env());
    expect(run.code).toBe(1);
    // Then jes wait's progress lines (plain ones, stderr not being a terminal).
    expect(run.stderr).toMatch(
      /^jes: this service has no event stream; waiting with long polls\n(K7Q2M9X4TB1R [^\n]+\n)+$/,
    );
    expect(run.stdout).toMatch(/Status +ERROR/);
    // The stream was asked for once, not again by the wait.
    expect(server!.seen.filter((s) => s.path === eventsPath)).toHaveLength(1);
  });
});
