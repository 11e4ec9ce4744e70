// The database going away under a running server. On PostgreSQL: connections terminated by an administrator
// (as a failover or an idle-session timeout would) must not end the process, and a request that meets one
// answers 503 with Retry-After, never 500; the LISTEN connection comes back by itself, /healthz says
// `degraded` while it is down, and long polls still answer within about a second of a job's end. On both
// databases: a long poll open when the server shuts down is answered with the job as it stands.
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, serveChild } from './support/child-server.ts';
import { administeredDatabase } from './support/pg-administrator.ts';
import { pgProxy } from './support/pg-proxy.ts';
import { backends, Client, freshPostgres, randomMatrix, sixNodes, startTestServer } from './support/server.ts';

const probe = await freshPostgres();
if ('skip' in probe) console.warn(`skipping the PostgreSQL outage tests: ${probe.skip}`);
else await probe.drop();

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** The statuses of requests sent without the test Client (whose 5xx fail the file): 503 is expected here. */
async function send(
  base: string,
  token: string,
  method: string,
  path: string,
  options: { json?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number | 'no answer'; body: any; retryAfter: string | null }> {
  try {
    const res = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.json ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.json ? { body: JSON.stringify(options.json) } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : undefined,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (error) {
    return { status: 'no answer', body: String((error as Error).cause ?? error), retryAfter: null };
  }
}

const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

/** Long-polls the job until it ends; returns it and when the last answer arrived (ms since the epoch). */
async function untilEnd(client: Client, id: string): Promise<{ job: any; answeredAt: number }> {
  for (;;) {
    const reply = await client.get(`/job/${id}`, { prefer: 'wait=20' });
    const answeredAt = Date.now();
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const job = reply.body.job[id];
    if (terminal.has(job.status)) return { job, answeredAt };
  }
}

async function healthUntil(client: Client, status: string, seconds: number): Promise<any> {
  const deadline = Date.now() + seconds * 1000;
  let last: any;
  while (Date.now() < deadline) {
    last = (await client.get('/healthz')).body;
    if (last?.status === status) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`/healthz did not say ${status} within ${seconds} s; last: ${JSON.stringify(last)}`);
}

describe.skipIf('skip' in probe)('PostgreSQL connections terminated under a running server', () => {
  it('no terminated connection ends the process; requests that meet one answer 503 with Retry-After', async () => {
    const { url, admin } = await administeredDatabase(cleanups);
    const server: ChildServer = await serveChild({
      DATABASE_URL: url,
      JES_WORKERS: '2',
      JES_LEASE_SECONDS: '2',
      JES_MAX_ACTIVE_JOBS: '1000',
    });
    cleanups.push(server.stop);
    const alice = await new Client(server.url).login('alice');
    const token = alice.token!;
    const ids = [await alice.start(sixNodes)];

    const statuses = new Map<string, number>();
    const problems: string[] = [];
    const note = (what: string, reply: Awaited<ReturnType<typeof send>>) => {
      const key = `${what} ${reply.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (reply.status === 503 && !/^\d+$/.test(reply.retryAfter ?? ''))
        problems.push(`${what}: 503 without a Retry-After in seconds`);
      if (reply.status === 'no answer' || (reply.status >= 500 && reply.status !== 503))
        problems.push(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    };
    let stop = false;
    const traffic = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const id = ids[(i * 7 + n) % ids.length]!;
        const step = (i + n) % 5;
        if (step === 0) {
          const reply = await send(server.url, token, 'POST', '/problem/maxcut', {
            json: { num_nodes: 8, adj_matrix: randomMatrix(8, i * 10 + n) },
          });
          note('POST /problem/maxcut', reply);
          if (reply.status === 200) ids.push(reply.body.job);
        } else if (step === 1) note('GET /job/{id}', await send(server.url, token, 'GET', `/job/${id}`));
        else if (step === 2) note('GET /job', await send(server.url, token, 'GET', '/job?limit=5'));
        else if (step === 3)
          note(
            'GET /job/{id} wait',
            await send(server.url, token, 'GET', `/job/${id}`, { headers: { prefer: 'wait=1' } }),
          );
        else note('GET /healthz', await send(server.url, token, 'GET', '/healthz'));
      }
    };
    const running = Promise.all([0, 1, 2, 3, 4, 5].map(traffic));
    let terminated = 0;
    for (let round = 0; round < 12 && server.alive(); round++) {
      await new Promise((r) => setTimeout(r, 300));
      terminated += await admin.terminate();
    }
    stop = true;
    await running;
    console.info(`outage: ${terminated} backends terminated; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    const context = `\nstatuses: ${JSON.stringify(Object.fromEntries(statuses))}\nserver output:\n${server.output().slice(-4000)}`;
    expect(terminated, 'backends terminated').toBeGreaterThan(0);
    expect(server.alive(), `the server is still running${context}`).toBe(true);
    expect(problems, context).toEqual([]);
    // And it serves again once the connections are back.
    expect((await healthUntil(alice, 'ok', 15)).checks).toEqual({ database: 'ok', notifications: 'ok' });
    expect(server.output(), 'a transient failure is not logged as unexpected').not.toMatch(/unexpected error/);
    // (That every accepted job still ends, with a verified answer, is chaos-postgres.test.ts's to check.)
    await server.stop();
  }, 120_000);

  it('a connection ended just as it becomes ready ends no process: the request answers 503', async () => {
    // Regression (seen once in ten runs of the test above): pg-pool hands a new client over in the same parse of
    // the server's bytes that made it ready, with no error listener until the handler attaches one; a FATAL that
    // follows in that chunk (pg_terminate_backend striking a starting backend) was then an unhandled 'error'.
    const { url, admin } = await administeredDatabase(cleanups);
    const proxy = await pgProxy(url);
    cleanups.push(proxy.close);
    // A worker, whose heartbeat asks for connections outside any request, twice a second.
    const server: ChildServer = await serveChild({ DATABASE_URL: proxy.url, JES_WORKERS: '1' });
    cleanups.push(server.stop);
    const alice = await new Client(server.url).login('alice');

    proxy.killNew = true;
    await admin.terminate();
    const answers: (number | string)[] = [];
    for (let i = 0; i < 10 && server.alive(); i++) {
      answers.push((await send(server.url, alice.token!, 'GET', '/job')).status);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(proxy.killed, 'connections ended as they became ready').toBeGreaterThan(0);
    expect(server.alive(), `the server is still running\n${server.output().slice(-3000)}`).toBe(true);
    expect(new Set(answers), JSON.stringify(answers)).toEqual(new Set([503]));

    proxy.killNew = false;
    expect((await healthUntil(alice, 'ok', 15)).checks).toEqual({ database: 'ok', notifications: 'ok' });
    expect((await send(server.url, alice.token!, 'GET', '/job')).status).toBe(200);
  }, 60_000);

  it('the LISTEN connection comes back: /healthz is degraded while it is down, and long polls answer within about a second of the end', async () => {
    const { url, admin } = await administeredDatabase(cleanups);
    const running = await startTestServer({ DATABASE_URL: url, JES_WORKERS: '2' });
    cleanups.push(() => running.close());
    const alice = await new Client(running.url).login('alice');
    const matrix = randomMatrix(40, 5);
    const job = { num_nodes: 40, adj_matrix: matrix };
    expect((await alice.get('/healthz')).body.checks).toEqual({ database: 'ok', notifications: 'ok' });

    // Down: the listener's connection is terminated and cannot come back while connections are refused.
    await admin.allowConnections(false);
    expect(await admin.terminate(`query LIKE 'LISTEN%'`), 'listener backends terminated').toBe(1);
    const whileDown = await alice.start(job, '?solver=local-search&time_limit_seconds=1');
    const down = await untilEnd(alice, whileDown);
    expect(down.job.status).toBe('FINISHED');
    const lateDown = down.answeredAt - Date.parse(down.job.timestamps.ended);
    expect(lateDown, "ms between the end of the job and the long poll's answer, notifications down").toBeLessThan(1500);
    const degraded = await healthUntil(alice, 'degraded', 5);
    expect(degraded.checks).toEqual({ database: 'ok', notifications: 'down' });

    // Deleted while down (as another process would): its announcement is lost with the connection, and the ended
    // job, which this process keeps in its cache of job views, must not outlive the reconnection there.
    expect((await alice.get(`/job/${whileDown}`)).status).toBe(200);
    await admin.query('DELETE FROM executions WHERE job_id = $1', [whileDown]);
    await admin.query('DELETE FROM jobs WHERE id = $1', [whileDown]);

    // Back: the listener reconnects by itself and LISTENs again.
    await admin.allowConnections(true);
    expect((await healthUntil(alice, 'ok', 15)).checks).toEqual({ database: 'ok', notifications: 'ok' });
    expect((await alice.get(`/job/${whileDown}`)).status, 'a job deleted while notifications were down').toBe(404);
    const afterwards = await alice.start(job, '?solver=local-search&time_limit_seconds=1');
    const back = await untilEnd(alice, afterwards);
    expect(back.job.status).toBe('FINISHED');
    expect(
      back.answeredAt - Date.parse(back.job.timestamps.ended),
      'ms between the end and the answer, notifications back',
    ).toBeLessThan(1500);
  }, 120_000);
  it('a database that refuses connections answers 503 with Retry-After on every request, and 200 once it is back', async () => {
    const { url, admin } = await administeredDatabase(cleanups);
    const running = await startTestServer({ DATABASE_URL: url, JES_WORKERS: '0' });
    cleanups.push(() => running.close());
    const alice = await new Client(running.url).login('alice');
    const id = await alice.start(sixNodes);

    // Every connection gone, none to be had: each request needs a new one.
    await admin.allowConnections(false);
    await admin.terminate();
    for (const [method, path, json] of [
      ['GET', `/job/${id}`],
      ['GET', '/job'],
      ['POST', '/problem/maxcut', sixNodes],
      ['GET', '/healthz'],
    ] as const) {
      const reply = await send(running.url, alice.token!, method, path, json ? { json } : {});
      expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(503);
      expect(reply.body.code).toBe('service_unavailable');
      expect(reply.retryAfter).toMatch(/^\d+$/);
    }
    await admin.allowConnections(true);
    expect((await alice.get(`/job/${id}`)).status).toBe(200);
    expect((await healthUntil(alice, 'ok', 15)).checks).toEqual({ database: 'ok', notifications: 'ok' });
  }, 60_000);
});

describe.each(await backends())('shutdown on %s', (_name, backend) => {
  it('a long poll open at shutdown is answered with the job as it stands', async () => {
    cleanups.push(backend.drop);
    // No workers: nothing but the shutdown can end this wait.
    const running = await startTestServer({ ...(await backend.env()), JES_WORKERS: '0' });
    const alice = await new Client(running.url).login('alice');
    const id = await alice.start(sixNodes);
    const poll = alice
      .get(`/job/${id}`, { prefer: 'wait=30' })
      .catch((error: Error) => ({ status: 'no answer', body: String(error.cause ?? error) }));
    // Time for the long poll to read its job and begin to wait.
    await new Promise((r) => setTimeout(r, 300));
    await running.close();
    const reply = await poll;
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.job[id].status).toBe('PENDING');
  }, 60_000);
});
