// Durability on the embedded database after SIGKILL: a server in a data directory of its own accepts a batch
// of jobs (inline and from an uploaded data file, some long enough to be RUNNING), is killed with SIGKILL
// while solvers run, and is started again on the same directory. Every job that was accepted must still
// exist and end FINISHED with answers whose cut is the cut of their partition; the data files stay READY.
// (On PostgreSQL, multi-process.test.ts kills a worker process mid-run.) With a lease of a minute, the
// executions left running resume at once after the restart: no other process can hold a lease on the
// embedded database, so they are requeued at start-up instead of waiting for their leases to run out.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type ChildServer, serveChild } from './support/child-server.ts';
import { Client, cutValue, randomMatrix } from './support/server.ts';

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** `node server/src/start/cli.ts` on the data directory (two workers, a 2 s lease unless `env` says otherwise). */
async function serve(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const server = await serveChild({ JES_DATA_DIR: dataDir, JES_LEASE_SECONDS: '2', JES_WORKERS: '2', ...env });
  children.push(server.child);
  return server;
}

/** Polls the jobs until one is RUNNING, then kills the server with SIGKILL; returns the jobs that were RUNNING. */
async function killWhileRunning(server: ChildServer, client: Client, ids: string[]): Promise<string[]> {
  let running: string[] = [];
  for (let tries = 0; running.length === 0 && tries < 200; tries++) {
    const statuses = await Promise.all(
      ids.map(async (id) => (await client.get(`/job/${id}`)).body.job[id].status as string),
    );
    running = ids.filter((_, i) => statuses[i] === 'RUNNING');
    if (running.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(running.length, 'jobs RUNNING when the server is killed').toBeGreaterThan(0);
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
  return running;
}

/** The graph as a Gset edge list (1-based nodes, the upper triangle's non-zero weights). */
function edgeList(matrix: number[][]): string {
  const edges: string[] = [];
  for (let i = 0; i < matrix.length; i++) {
    for (let j = i + 1; j < matrix.length; j++)
      if (matrix[i]![j] !== 0) edges.push(`${i + 1} ${j + 1} ${matrix[i]![j]}`);
  }
  return `${matrix.length} ${edges.length}\n${edges.join('\n')}\n`;
}

const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

it('every accepted job survives a SIGKILL mid-run and finishes with a verified answer; data files stay READY', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'jes-sigkill-'));
  dirs.push(dir);
  const first = await serve(dir);
  const alice = await new Client(first.url).login('alice');

  const small = randomMatrix(8, 11);
  const large = randomMatrix(60, 12);
  const files: { id: string; matrix: number[][] }[] = [];
  for (const matrix of [small, large]) {
    const reply = await alice.upload(edgeList(matrix), `sigkill-${matrix.length}.txt`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect((await alice.validated(reply.body.data_file_identifier)).status).toBe('READY');
    files.push({ id: reply.body.data_file_identifier, matrix });
  }

  // Long jobs (3 s of local search on 60 nodes) outnumber the two workers, so at the kill some run and some wait.
  const long = '?solver=local-search&time_limit_seconds=3';
  const accepted: { id: string; matrix: number[][] }[] = [];
  const submit = async (matrix: number[][], body: unknown, query = '') =>
    accepted.push({ id: await alice.start(body, query), matrix });
  await submit(large, { num_nodes: 60, adj_matrix: large }, long);
  await submit(files[1]!.matrix, {
    data_file_identifier: files[1]!.id,
    solvers: [{ name: 'local-search' }],
    time_limit_seconds: 3,
  });
  await submit(large, { num_nodes: 60, adj_matrix: large }, long);
  await submit(files[1]!.matrix, {
    data_file_identifier: files[1]!.id,
    solvers: [{ name: 'local-search' }, { name: 'annealing' }],
    time_limit_seconds: 3,
  });
  for (let i = 0; i < 4; i++) {
    const matrix = randomMatrix(8, 100 + i);
    await submit(matrix, { num_nodes: 8, adj_matrix: matrix });
  }
  await submit(small, { data_file_identifier: files[0]!.id });
  await submit(small, {
    data_file_identifier: files[0]!.id,
    solvers: [{ name: 'exact' }, { name: 'local-search' }],
    time_limit_seconds: 1,
  });

  // Kill it while solvers run.
  const running = await killWhileRunning(
    first,
    alice,
    accepted.map((a) => a.id),
  );

  const second = await serve(dir);
  const again = new Client(second.url);
  again.token = alice.token;
  try {
    for (const { id, matrix } of accepted) {
      const reply = await again.get(`/job/${id}`);
      expect(reply.status, `job ${id} after the restart: ${JSON.stringify(reply.body)}`).toBe(200);
      const job = await again.waitFor(id, 90);
      expect(terminal.has(job.status)).toBe(true);
      expect(job.status, `job ${id} (RUNNING at the kill: ${running.includes(id)}): ${JSON.stringify(job)}`).toBe(
        'FINISHED',
      );
      for (const [solver, execution] of Object.entries<any>(job.executions)) {
        expect(execution.status, `${id} ${solver}: ${JSON.stringify(execution)}`).toBe('SUCCESS');
        expect(cutValue(matrix, execution.data.partition)).toBeCloseTo(execution.data.cut_value, 6);
      }
    }
    for (const { id } of files) expect((await again.get(`/data_file/${id}`)).body.data_file[id].status).toBe('READY');
    expect((await again.get('/healthz')).status).toBe(200);
  } catch (error) {
    (error as Error).message += `\nthe restarted server's output:\n${second.output().slice(-5000)}`;
    throw error;
  } finally {
    second.child.kill('SIGTERM');
  }
}, 180_000);

it('resumes the executions a SIGKILL left running at once after the restart, without waiting for their leases', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'jes-sigkill-lease-'));
  dirs.push(dir);
  const env = { JES_LEASE_SECONDS: '60', LOG_LEVEL: 'info' };
  const first = await serve(dir, env);
  const alice = await new Client(first.url).login('alice');
  const large = randomMatrix(60, 13);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push(await alice.start({ num_nodes: 60, adj_matrix: large }, '?solver=local-search&time_limit_seconds=3'));
  const running = await killWhileRunning(first, alice, ids);

  const second = await serve(dir, env);
  const again = new Client(second.url);
  again.token = alice.token;
  try {
    // Every execution in flight at the kill (PREPARING or RUNNING) was requeued at start-up, none left to its lease.
    await expect
      .poll(() => /requeued (\d+) execution\(s\) left running by a previous process/.exec(second.output())?.[1], {
        timeout: 30_000,
      })
      .toBeDefined();
    const requeued = Number(/requeued (\d+) execution/.exec(second.output())![1]);
    expect(requeued).toBeGreaterThanOrEqual(running.length);
    // And they end well within the 60 s lease that would otherwise have held them.
    for (const id of ids) {
      const job = await again.waitFor(id, 40);
      expect(job.status, `job ${id} (RUNNING at the kill: ${running.includes(id)}): ${JSON.stringify(job)}`).toBe(
        'FINISHED',
      );
      expect(cutValue(large, job.executions['local-search'].data.partition)).toBeCloseTo(
        job.executions['local-search'].data.cut_value,
        6,
      );
    }
  } catch (error) {
    (error as Error).message += `\nthe restarted server's output:\n${second.output().slice(-5000)}`;
    throw error;
  } finally {
    second.child.kill('SIGTERM');
  }
}, 180_000);
