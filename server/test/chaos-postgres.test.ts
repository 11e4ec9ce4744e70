// Chaos on PostgreSQL: while a batch of jobs runs on a server with workers (a short lease), an administrator
// terminates every connection of the server's database every 300 ms for a few seconds. No process may exit;
// every accepted job must end FINISHED with answers whose cut is the cut of their partition; and a long poll
// started after the terminations must wake within about a second of its job's end (the notifications are back).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serveChild } from './support/child-server.ts';
import { Client, cutValue, freshPostgres, randomMatrix, sixNodes } from './support/server.ts';

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the PostgreSQL chaos test: ${database.skip}`);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

describe.skipIf('skip' in database)('PostgreSQL connections terminated every 300 ms while jobs run', () => {
  it('no process exits, every accepted job finishes with a verified answer, and long polls wake again', async () => {
    const { url, drop } = database as { url: string; drop(): Promise<void> };
    cleanups.push(drop);
    const server = await serveChild({
      DATABASE_URL: url,
      JES_WORKERS: '2',
      JES_LEASE_SECONDS: '2',
      JES_MAX_ACTIVE_JOBS: '1000',
    });
    cleanups.push(server.stop);
    const admin = new pg.Client({ connectionString: url });
    admin.on('error', () => {});
    await admin.connect();
    cleanups.push(() => admin.end());
    const alice = await new Client(server.url).login('alice');

    /** A request outside the test Client (a 503 is expected here), retried while it answers 503. */
    const statuses = new Map<string, number>();
    const unexpected: string[] = [];
    const send = async (
      method: string,
      path: string,
      options: { json?: unknown; headers?: Record<string, string> } = {},
    ): Promise<any> => {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(server.url + path, {
          method,
          headers: {
            authorization: `Bearer ${alice.token}`,
            ...(options.json ? { 'content-type': 'application/json' } : {}),
            ...options.headers,
          },
          ...(options.json ? { body: JSON.stringify(options.json) } : {}),
        });
        const text = await res.text();
        statuses.set(`${method} ${res.status}`, (statuses.get(`${method} ${res.status}`) ?? 0) + 1);
        if (res.status === 503 && attempt < 50) {
          await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
          continue;
        }
        if (res.status !== 200) unexpected.push(`${method} ${path} → ${res.status} ${text}`);
        return JSON.parse(text);
      }
    };

    // The batch: the 6-node example, small random matrices, and some that run 1 s (RUNNING when connections go).
    const accepted: { id: string; matrix: number[][] }[] = [];
    const submit = async (matrix: number[][], query = '') => {
      // One Idempotency-Key per submit, sent again on its retries: a submit whose answer was lost to a terminated
      // connection (503) must not start a second job when retried.
      const headers = { 'idempotency-key': randomUUID() };
      const body = await send('POST', `/problem/maxcut${query}`, {
        json: { num_nodes: matrix.length, adj_matrix: matrix },
        headers,
      });
      if (body?.job) accepted.push({ id: body.job, matrix });
    };
    const batch = async (from: number) => {
      for (let i = from; i < from + 12; i++) {
        if (i % 4 === 0) await submit(sixNodes.adj_matrix);
        else if (i % 4 === 1) await submit(randomMatrix(40, i), '?solver=local-search&time_limit_seconds=1');
        else await submit(randomMatrix(6 + (i % 9), i));
      }
    };
    await batch(0);
    const during = batch(100);

    let terminated = 0;
    for (let round = 0; round < 14 && server.alive(); round++) {
      await new Promise((r) => setTimeout(r, 300));
      const result = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      terminated += result.rowCount ?? 0;
    }
    await during;
    const context = () =>
      `\nstatuses: ${JSON.stringify(Object.fromEntries(statuses))}\nserver output:\n${server.output().slice(-6000)}`;
    console.info(
      `chaos: ${terminated} backends terminated; ${accepted.length} jobs accepted; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(terminated, 'backends terminated').toBeGreaterThan(10);
    expect(server.alive(), `the server is running${context()}`).toBe(true);
    expect(accepted, 'accepted submits').toHaveLength(24);
    const [{ jobs }] = (await admin.query('SELECT count(*)::int AS jobs FROM jobs')).rows;
    expect(jobs, `jobs in the database for 24 submits, retries included${context()}`).toBe(24);

    for (const { id, matrix } of accepted) {
      let job: any;
      for (let polls = 0; polls < 12 && !terminal.has(job?.status); polls++)
        job = (await send('GET', `/job/${id}`, { headers: { prefer: 'wait=10' } })).job[id];
      expect(job.status, `job ${id}: ${JSON.stringify(job)}${context()}`).toBe('FINISHED');
      for (const [solver, execution] of Object.entries<any>(job.executions)) {
        expect(execution.status, `${id} ${solver}: ${JSON.stringify(execution)}`).toBe('SUCCESS');
        const output = (await send('GET', `/job/${id}/output`)).outputs[solver];
        expect(cutValue(matrix, output.partition), `${id} ${solver}`).toBeCloseTo(output.cut_value, 6);
      }
    }

    // After the terminations, a long poll wakes with its job's end (notifications reconnected), not at its deadline.
    const last = (
      await send('POST', '/problem/maxcut?solver=local-search&time_limit_seconds=1', {
        json: { num_nodes: 40, adj_matrix: randomMatrix(40, 999) },
      })
    ).job;
    let job: any;
    let answeredAt = 0;
    while (!terminal.has(job?.status)) {
      job = (await send('GET', `/job/${last}`, { headers: { prefer: 'wait=20' } })).job[last];
      answeredAt = Date.now();
    }
    expect(job.status).toBe('FINISHED');
    expect(
      answeredAt - Date.parse(job.timestamps.ended),
      "ms between the end of the job and the long poll's answer",
    ).toBeLessThan(1500);
    expect(unexpected, context()).toEqual([]);
    expect(server.alive(), `the server is running${context()}`).toBe(true);
  }, 240_000);
});
