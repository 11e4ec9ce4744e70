// Many processes on one PostgreSQL: two API processes (no workers) and two worker processes share a fresh
// database. 200 jobs go in through both APIs; one worker is killed with SIGKILL while it runs executions;
// every job still ends exactly once, with correct answers, the dead worker's executions retried elsewhere.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, cutValue, freshPostgres, randomMatrix, users } from './support/server.ts';

const cli = join(import.meta.dirname, '..', 'src', 'start', 'cli.ts');
const database = await freshPostgres();
if ('skip' in database) console.warn(`skipping the multi-process test: ${database.skip}`);

function launch(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; line: string; output: string[] }> {
  const child = spawn(process.execPath, ['--conditions=jes-source', cli, ...args], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      JES_USERS: Object.entries(users)
        .map(([u, p]) => `${u}:${p}`)
        .join(','),
      JES_RATE_LIMITS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${args.join(' ') || 'serve'} did not start:\n${output.join('')}`)),
      30_000,
    );
    const onData = (data: Buffer) => {
      output.push(data.toString());
      const line = output
        .join('')
        .split('\n')
        .find((l) => ready.test(l));
      if (line) {
        clearTimeout(timer);
        resolve({ child, line, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output.join('')}`)));
  });
}

describe.skipIf('skip' in database)('two API processes and two workers on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let apis: Client[];
  let workers: ChildProcess[];
  let url: string;

  beforeAll(async () => {
    url = (database as { url: string }).url;
    const env = { DATABASE_URL: url, JES_LEASE_SECONDS: '3', JES_MAX_ACTIVE_JOBS: '1000', PORT: '0' };
    const started = await Promise.all([
      launch([], { ...env, JES_WORKERS: '0' }, /listening on/),
      launch([], { ...env, JES_WORKERS: '0' }, /listening on/),
      launch(['worker'], { ...env, JES_WORKERS: '2' }, /worker running/),
      launch(['worker'], { ...env, JES_WORKERS: '2' }, /worker running/),
    ]);
    children.push(...started.map((s) => s.child));
    apis = await Promise.all(
      started.slice(0, 2).map((s) => new Client(/http:\/\/\S+?(?= |$)/.exec(s.line)![0]).login('alice')),
    );
    workers = started.slice(2).map((s) => s.child);
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
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
            `%:${victim.pid}:%`,
          ])
        ).rows;
        held = row.n;
        if (held === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect(held).toBeGreaterThan(0);
      victim.kill('SIGKILL');

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
