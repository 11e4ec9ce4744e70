// Regression (issue 28, 2): a database outage longer than the lease, while a job ran, was taken for a crash of
// the process that ran it. The solver finished during the outage; recording its outcome failed for a lease; the
// execution was then taken back as a crash (attempts 2, crashes 1, suspect) and its result thrown away; a second
// outage during the re-run ended the job in ERROR, "The service stopped twice while this execution ran alone",
// while the process never stopped. Here the server that runs the job reaches the database through a proxy, and
// comes back after another worker process on the same database, which must not take the execution from it.
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, serveChild } from './support/child-server.ts';
import { administeredDatabase } from './support/pg-administrator.ts';
import { pgProxy } from './support/pg-proxy.ts';
import { Client, cutValue, freshPostgres, randomMatrix } from './support/server.ts';

const probe = await freshPostgres();
if ('skip' in probe) console.warn(`skipping the PostgreSQL outage-outcome test: ${probe.skip}`);
else await probe.drop();

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` answers something truthy, within `seconds`; otherwise fails saying what was awaited. */
async function until<T>(what: string, seconds: number, check: () => Promise<T> | T, context = () => ''): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const answer = await check();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s${context()}`);
    await sleep(100);
  }
}

/** A server's last log lines, level and message only (their stacks would hide the story). */
function lastLines(server: ChildServer, count = 40): string {
  const lines = server.output().trim().split('\n').slice(-count);
  return lines
    .map((line) => {
      try {
        const { level, msg, job } = JSON.parse(line);
        return `${level} ${job ?? ''} ${msg}`;
      } catch {
        return line;
      }
    })
    .join('\n');
}

/** Whether the server reaches its database again (its own fetch: a 503 meanwhile is expected, not a test failure). */
const reachesDatabase = async (server: ChildServer) =>
  (await fetch(`${server.url}/healthz`).then((res) => res.json() as Promise<any>)).checks?.database === 'ok';

describe.skipIf('skip' in probe)('an outage longer than the lease while a job runs (PostgreSQL)', () => {
  it('the outcome finished during the outage is recorded once the database is back; two outages never end the job in ERROR', async () => {
    const lease = 4;
    const { url, admin } = await administeredDatabase(cleanups);
    const proxy = await pgProxy(url);
    cleanups.push(proxy.close);
    const env = { JES_WORKERS: '1', JES_LEASE_SECONDS: String(lease), LOG_LEVEL: 'warn' };
    const owner = await serveChild({ ...env, DATABASE_URL: proxy.url });
    cleanups.push(owner.stop);
    // Another process, started once the first job runs on `owner`, and idle: a worker whose heartbeat takes back
    // the executions of workers it believes dead.
    let other: ChildServer | undefined;
    const alice = await new Client(owner.url).login('alice');
    const context = () =>
      `\nthe server that ran the first job:\n${lastLines(owner)}\nthe other:\n${other ? lastLines(other) : ''}`;
    const execution = async (id: string) =>
      (
        await admin.query(`SELECT status, attempts, crashes, suspect, lease_owner FROM executions WHERE job_id = $1`, [
          id,
        ])
      ).rows[0];

    const matrix = randomMatrix(60, 28);
    const jobs: string[] = [];
    for (let outage = 1; outage <= 2; outage++) {
      // The outage strikes the job still running (before the fix, the first one, run again as a crash's), or a new one.
      const last = jobs.at(-1);
      if (!last || ['SUCCESS', 'ERROR', 'CANCELLED'].includes((await execution(last)).status))
        jobs.push(
          await alice.start({ num_nodes: 60, adj_matrix: matrix }, '?solver=local-search&time_limit_seconds=6'),
        );
      const id = jobs.at(-1)!;
      const before = await until(`job ${id} running before outage ${outage}`, 30, async () => {
        const row = await execution(id);
        return row.status === 'RUNNING' && row.lease_owner ? row : undefined;
      });
      if (!other) {
        expect(before.lease_owner, 'the first job runs on the server behind the proxy').toContain(
          `:${owner.child.pid}:`,
        );
        other = await serveChild({ ...env, DATABASE_URL: url });
        cleanups.push(other.stop);
      }
      const servers = [owner, other];

      // Down: every connection ended, none to be had.
      const printed = servers.map((server) => server.output().length);
      await admin.allowConnections(false);
      await admin.terminate();
      // The solver finishes during the outage, and its outcome cannot be recorded...
      await until(
        `outage ${outage}: the outcome's recording failing`,
        30,
        // (In either process: before the fix, the other one may have run the job again.)
        () => servers.some((server, i) => /recording the outcome failed/.test(server.output().slice(printed[i]))),
        context,
      );
      // ...for longer than its lease, which runs out meanwhile (and, before the fix, than the lease the recording was
      // tried for, and the handback after it).
      await sleep(2 * lease * 1000);

      // Back, first for the other process; the server behind the proxy a moment later (less than a lease).
      proxy.killNew = true;
      await admin.allowConnections(true);
      await until(`outage ${outage}: the other process back`, 30, () => reachesDatabase(other!), context);
      await sleep(1000);
      proxy.killNew = false;
      await until(`outage ${outage}: the server back`, 30, () => reachesDatabase(owner), context);
      // It ended, or (before the fix) it was taken back and runs again.
      await until(
        `outage ${outage}: job ${id} ended or claimed again`,
        30,
        async () => {
          const row = await execution(id);
          return ['SUCCESS', 'ERROR', 'CANCELLED'].includes(row.status) || row.attempts > before.attempts;
        },
        context,
      );
    }

    expect(owner.alive(), `the server is running${context()}`).toBe(true);
    for (const id of jobs) {
      const row = await execution(id);
      expect(row, `job ${id}'s execution${context()}`).toMatchObject({
        status: 'SUCCESS',
        attempts: 1,
        crashes: 0,
        suspect: false,
      });
      const job = await alice.waitFor(id, 30);
      expect(job.status, JSON.stringify(job)).toBe('FINISHED');
      const result = job.executions['local-search'].data;
      expect(cutValue(matrix, result.partition)).toBeCloseTo(result.cut_value, 6);
    }
    expect(jobs, 'one job per outage: the first was not run again').toHaveLength(2);
    expect(owner.output(), 'a lost lease').not.toMatch(/no longer held|lost the lease|could not hand/);
  }, 180_000);
});
