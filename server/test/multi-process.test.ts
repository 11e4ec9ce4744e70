// Many processes on one PostgreSQL: two API processes (no workers) and two worker processes share a fresh
// database. 200 jobs go in through both APIs; one worker is killed with SIGKILL while it runs executions;
// every job still ends exactly once, with correct answers, the dead worker's executions retried elsewhere.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, node, serverCli, startChild } from '../../test/support/child-server.ts';
import { Client, cutValue, freshPostgres, randomMatrix, testEnv } from './support/server.ts';

const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the multi-process test: ${database.skip}`);

/** `jes-server` with `args` (serve unless `worker`) on the test users and `env`, once it prints `ready`. */
const launch = (args: string[], env: Record<string, string>, ready?: RegExp) =>
  startChild(node(serverCli, ...args), { env: testEnv({ LOG_LEVEL: 'warn', ...env }), ...(ready ? { ready } : {}) });

describe.skipIf('skip' in database)('two API processes and two workers on one PostgreSQL', () => {
  const children: ChildServer[] = [];
  let apis: Client[];
  let workers: ChildServer[];
  let url: string;

  beforeAll(async () => {
    url = (database as { url: string }).url;
    const env = { DATABASE_URL: url, JES_LEASE_SECONDS: '3', JES_MAX_ACTIVE_JOBS: '1000', PORT: '0' };
    const started = await Promise.all([
      launch([], { ...env, JES_WORKERS: '0' }),
      launch([], { ...env, JES_WORKERS: '0' }),
      launch(['worker'], { ...env, JES_WORKERS: '2' }, /worker running/),
      launch(['worker'], { ...env, JES_WORKERS: '2' }, /worker running/),
    ]);
    children.push(...started);
    apis = await Promise.all(started.slice(0, 2).map((s) => new Client(s.url).login('alice')));
    workers = started.slice(2);
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => child.kill()));
    await (database as { drop?: () => Promise<void> }).drop?.();
  });

  it('finishes 200 jobs exactly once although a worker is killed mid-run', async () => {
    const matrices = [randomMatrix(8, 1), randomMatrix(40, 2)];
    const submitted: { id: string; matrix: number[][] }[] = [];
    for (let i = 0; i < 200; i++) {
      const long = i % 10 === 0;
      const matrix = matrices[long ? 1 : 0]!;
      const id = await apis[i % 2]!.start(
        { num_nodes: matrix.length, adj_matrix: matrix },
        long ? '?solver=local-search&time_limit_seconds=2' : '',
      );
      submitted.push({ id, matrix });
    }

    // Kill a worker while it holds running executions.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const victim = workers[0]!;
      let held = 0;
      for (let i = 0; i < 200 && held === 0; i++) {
        const [row] = (
          await db.query(`SELECT count(*)::int AS n FROM executions WHERE status = 'RUNNING' AND lease_owner LIKE $1`, [
            `%:${victim.child.pid}:%`,
          ])
        ).rows;
        held = row.n;
        if (held === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect(held).toBeGreaterThan(0);
      await victim.kill();

      for (const [i, { id, matrix }] of submitted.entries()) {
        const job = await apis[i % 2]!.waitFor(id, 120);
        expect(job.status, JSON.stringify(job)).toBe('FINISHED');
        for (const execution of Object.values<any>(job.executions)) {
          expect(execution.status).toBe('SUCCESS');
          expect(cutValue(matrix, execution.data.partition)).toBeCloseTo(execution.data.cut_value, 9);
        }
      }
      const { rows } = await db.query(
        `SELECT status, count(*)::int AS n, max(attempts) AS attempts FROM executions GROUP BY status`,
      );
      expect(rows).toEqual([{ status: 'SUCCESS', n: 200, attempts: expect.any(Number) }]);
      // The killed worker's executions were retried (a worker starved past its lease may retry once more; 3 is the cap).
      expect(rows[0].attempts).toBeGreaterThanOrEqual(2);
      expect(rows[0].attempts).toBeLessThanOrEqual(3);
      const [{ n: jobs }] = (
        await db.query(`SELECT count(*)::int AS n FROM jobs WHERE status = 'FINISHED' AND ended_at IS NOT NULL`)
      ).rows;
      expect(jobs).toBe(200);
      // Both workers ran executions (the killed one until its death, the other everything after).
      const byWorker = (await db.query(`SELECT worker, count(*)::int AS n FROM executions GROUP BY worker`)).rows;
      expect(byWorker.length).toBe(2);
    } finally {
      await db.end();
    }
  }, 180_000);
});
