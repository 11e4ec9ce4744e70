// GET /readyz in a real jes-server process: 200 when ready; after SIGTERM with JES_DRAIN_SECONDS, 503 at once (with
// Connection: close) while requests are still served and a job still runs to its end, then the process exits 0 once
// the drain is over; a worker process beside it drains as long, claiming all the while (the job started during the
// drain is its). On PostgreSQL: 503 while the database does not answer (a stalled network: within the check's 2 s,
// with one statement however many probes come; connections refused), 200 once it is back; and SIGINT stops at once
// whatever JES_DRAIN_SECONDS says.
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { node, serverCli, startChild } from '../../test/support/child-server.ts';
import { type ChildServer, serveChild } from './support/child-server.ts';
import { administeredDatabase } from './support/pg-administrator.ts';
import { stallingProxy } from './support/pg-proxy.ts';
import { Client, freshPostgres, sixNodes, testEnv } from './support/server.ts';

// The drain on PostgreSQL when there is one (it starts in a fraction of the embedded database's time), else embedded.
const probe = await freshPostgres();
if ('skip' in probe) console.warn(`the drain runs on the embedded database, the outages not at all: ${probe.skip}`);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  ms: number;
}

/** GET `path` with node:http (fetch hides `Connection`), on a connection of its own. */
function get(base: string, path: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(base + path, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: text ? JSON.parse(text) : undefined,
          ms: performance.now() - started,
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** Asks /readyz until it answers `status` (within `seconds`); returns that answer. */
async function readyzUntil(base: string, status: number, seconds = 10): Promise<Answer> {
  const deadline = Date.now() + seconds * 1000;
  let last: Answer | undefined;
  while (Date.now() < deadline) {
    last = await get(base, '/readyz');
    if (last.status === status) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/readyz did not answer ${status} within ${seconds} s; last: ${JSON.stringify(last)}`);
}

/** Resolves with how the child ended, once it has. */
function exit(child: ChildServer): Promise<string> {
  if (!child.alive()) return Promise.resolve(child.exited()!);
  return new Promise((resolve) => child.child.once('exit', () => resolve(child.exited()!)));
}

function expectNotReady(answer: Answer, detail: RegExp): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer.headers['retry-after']).toBe('5');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.body).toMatchObject({ status: 503, code: 'service_unavailable', instance: '/readyz' });
  expect(answer.body.detail).toMatch(detail);
}

/** A `jes-server worker` with the test users and `env`, once it runs. */
const startWorker = (env: Record<string, string>) =>
  startChild(node(serverCli, 'worker'), { env: testEnv({ LOG_LEVEL: 'warn', ...env }), ready: /worker running/ });

describe('readiness and draining', () => {
  it('ready; on SIGTERM not ready at once, still serving (and a worker claiming) for JES_DRAIN_SECONDS, then exit 0', async () => {
    // On PostgreSQL the API runs no solver: a worker process beside it, draining as long, solves the job.
    if (!('skip' in probe)) cleanups.push(probe.drop);
    const database = 'skip' in probe ? {} : { DATABASE_URL: probe.url };
    // 8 s: what is done while it drains (a log-in, a job from start to end on a new solver thread) took 5.7 s of a
    // 5 s drain on a loaded machine (a full run).
    const drain = { JES_DRAIN_SECONDS: '8' };
    const [server, worker] = await Promise.all([
      serveChild({ ...database, ...drain, JES_WORKERS: 'skip' in probe ? '1' : '0' }),
      'skip' in probe ? undefined : startWorker({ ...database, ...drain, JES_WORKERS: '1' }),
    ]);
    cleanups.push(
      () => server.kill(),
      async () => void (await worker?.kill()),
    );
    const ready = await get(server.url, '/readyz');
    expect([ready.status, ready.body, ready.headers['cache-control']]).toEqual([200, { status: 'ready' }, 'no-store']);
    const alice = await new Client(server.url).login('alice');

    const signalled = performance.now();
    for (const child of [server, worker]) child?.child.kill('SIGTERM');
    await server.printed(/^SIGTERM: draining for 8 s/m);
    await worker?.printed(/^SIGTERM: draining for 8 s/m);
    expectNotReady(await get(server.url, '/readyz'), /draining/);
    // Still serving: liveness (on a keep-alive connection, which its answer closes), a log-in, a job from start to end.
    const agent = new Agent({ keepAlive: true });
    const health = await new Promise<[number, string | undefined]>((resolve, reject) =>
      request(`${server.url}/healthz`, { agent }, (res) => {
        res.resume();
        resolve([res.statusCode!, res.headers.connection]);
      })
        .on('error', reject)
        .end(),
    );
    agent.destroy();
    expect(health).toEqual([200, 'close']);
    const bob = await new Client(server.url).login('bob');
    const job = await alice.waitFor(await alice.start(sixNodes), 8);
    expect(job.status).toBe('FINISHED');
    expect((await bob.get('/job')).status).toBe(200);
    expect(performance.now() - signalled).toBeLessThan(8000);

    expect(await exit(server)).toBe('exit code 0');
    if (worker) expect(await exit(worker)).toBe('exit code 0');
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(7900);
    expect(server.output()).toMatch(/^SIGTERM: shutting down$/m);
  }, 60_000);

  it.skipIf('skip' in probe)(
    'on PostgreSQL: 503 while the database stalls or refuses, 200 once back; SIGINT stops at once',
    async () => {
      const { url, admin } = await administeredDatabase(cleanups);
      const proxy = await stallingProxy(url);
      cleanups.push(() => proxy.close());
      const api = await serveChild({ DATABASE_URL: proxy.url, JES_DRAIN_SECONDS: '30', JES_WORKERS: '0' });
      cleanups.push(() => api.kill());
      // Up to readyzUntil's 10 s: on a loaded machine the first check through the proxy took over its 2 s (CI, 503).
      await readyzUntil(api.url, 200);

      // A stalled network: each probe answers within the check's 2 s, however many come at once.
      proxy.stalled = true;
      const stalled = await Promise.all(Array.from({ length: 8 }, () => get(api.url, '/readyz')));
      for (const answer of stalled) {
        expectNotReady(answer, /^The database did not answer within 2 s\.$/);
        expect(answer.ms).toBeLessThan(4000);
      }
      // One check for the eight probes (a statement, or the connection it waits for): the rest waited for its answer.
      // (One more connection may be another part of the process, a webhook sender's poll, finding no idle one.)
      expect(proxy.attempts('SELECT 1')).toBeGreaterThanOrEqual(1);
      expect(proxy.attempts('SELECT 1')).toBeLessThanOrEqual(2);
      proxy.stalled = false;
      await readyzUntil(api.url, 200, 5);

      // A database that refuses connections (its open ones terminated, as at a failover).
      await admin.allowConnections(false);
      await admin.terminate();
      expectNotReady(await readyzUntil(api.url, 503, 5), /^The database cannot be reached\.$/);
      await admin.allowConnections(true);
      await readyzUntil(api.url, 200, 5);

      // SIGINT does not wait for JES_DRAIN_SECONDS=30.
      const interrupted = performance.now();
      api.child.kill('SIGINT');
      expect(await exit(api)).toBe('exit code 0');
      expect(performance.now() - interrupted).toBeLessThan(5000);
      expect(api.output()).toMatch(/^SIGINT: shutting down$/m);
      expect(api.output()).not.toMatch(/draining/);
    },
    60_000,
  );
});
