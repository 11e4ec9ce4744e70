// The lease rules at the store level, on each database: dead workers are simulated by claiming under a
// worker id and expiring its leases in SQL. A crash is blamed on an execution only when it was the only one
// in flight on the dead worker; two blames end it in ERROR; several in flight are each marked suspect, and
// a suspect runs alone. A graceful handback never counts. The heartbeat renews only the runs it names. A late
// outcome is recorded as long as the execution is still its worker's (no other worker claimed it since).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/store/database.ts';
import { heartbeat, release, requeueAbandoned, requeueExpired } from '../src/store/leases.ts';
import { migrate } from '../src/store/migrations.ts';
import { claim, finish, type Outcome } from '../src/store/queue.ts';
import { backends } from './support/server.ts';
import { storedJob } from './support/store-jobs.ts';

interface Row {
  job_id: string;
  status: string;
  crashes: number;
  suspect: boolean;
  error: { code: string; detail: string } | null;
}

describe.each(await backends())('%s', (_name, backend) => {
  let db: Database;
  beforeAll(async () => {
    const env = await backend.env();
    db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: 'memory:' });
    await migrate(db);
    await db.query(`INSERT INTO users (name, password_hash) VALUES ('alice', 'x')`);
  }, 60_000);
  // Each test starts from an empty queue.
  beforeEach(async () => {
    await db.query(
      `UPDATE executions SET status = 'CANCELLED', lease_owner = NULL WHERE status IN ('PENDING', 'PREPARING', 'RUNNING')`,
    );
  });
  afterAll(async () => {
    await db?.close();
    await backend.drop();
  });

  /** Queues `n` one-execution jobs, in order; answers their ids. */
  async function queue(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await storedJob(db, 'alice', ['local-search']));
    return ids;
  }
  // Worker ids are unique per test, as they are per process (a crash is counted per worker id).
  /** The worker died: its leases ran out. */
  const expire = (worker: string, jobId?: string) =>
    db.query(
      `UPDATE executions SET lease_expires_at = now() - interval '1 second' WHERE lease_owner = $1 AND ($2::text IS NULL OR job_id = $2)`,
      [worker, jobId ?? null],
    );
  const row = async (jobId: string) =>
    (
      await db.query<Row>('SELECT job_id, status, crashes, suspect, error FROM executions WHERE job_id = $1', [jobId])
    )[0]!;
  const jobStatus = async (jobId: string) =>
    (await db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [jobId]))[0]!.status;

  it('blames a crash on the only execution in flight, and ends it in ERROR at the second blame', async () => {
    const [a] = await queue(1);
    expect((await claim(db, 't1-w1', 1, 60, { idle: true })).map((c) => c.job_id)).toEqual([a]);
    await expire('t1-w1');
    expect(await requeueExpired(db)).toBe(1);
    expect(await row(a!)).toMatchObject({ status: 'PENDING', crashes: 1, suspect: true });

    expect((await claim(db, 't1-w2', 2, 60, { idle: true })).map((c) => c.job_id)).toEqual([a]);
    await expire('t1-w2');
    await requeueExpired(db);
    const ended = await row(a!);
    expect(ended).toMatchObject({ status: 'ERROR', crashes: 2 });
    expect(ended.error).toMatchObject({
      code: 'solver_failed',
      detail: 'The service stopped twice while this execution ran alone; it was not tried again.',
    });
    expect(await jobStatus(a!)).toBe('ERROR');
  });

  it('blames none of several executions in flight on a dead worker, marks each suspect, and runs a suspect alone', async () => {
    const [a, b, c] = await queue(3);
    expect((await claim(db, 't2-w1', 2, 60, { idle: true })).map((x) => x.job_id)).toEqual([a, b]);
    await expire('t2-w1');
    expect(await requeueExpired(db)).toBe(2);
    for (const id of [a!, b!]) expect(await row(id)).toMatchObject({ status: 'PENDING', crashes: 0, suspect: true });
    expect(await row(c!)).toMatchObject({ status: 'PENDING', suspect: false });

    // An idle worker takes the suspect at the head of the queue, and only it.
    const first = await claim(db, 't2-w2', 3, 60, { idle: true });
    expect(first.map((x) => [x.job_id, x.suspect])).toEqual([[a, true]]);
    // A busy worker claims nothing while a suspect heads the queue (it waits to be idle, so the suspect cannot starve).
    expect(await claim(db, 't2-w3', 3, 60, { idle: false })).toEqual([]);
    expect((await claim(db, 't2-w3', 3, 60, { idle: true })).map((x) => x.job_id)).toEqual([b]);
    expect((await claim(db, 't2-w4', 3, 60, { idle: false })).map((x) => [x.job_id, x.suspect])).toEqual([[c, false]]);

    // w2 dies running suspect a alone: a is blamed (once).
    await expire('t2-w2');
    await requeueExpired(db);
    expect(await row(a!)).toMatchObject({ status: 'PENDING', crashes: 1, suspect: true });
  });

  it('counts a dead worker’s executions whose leases expire in different passes together (none is blamed)', async () => {
    // b was claimed after w1's last heartbeat, so its lease runs out after a's.
    const [a, b] = await queue(2);
    await claim(db, 't3-w1', 1, 60, { idle: true });
    await claim(db, 't3-w1', 1, 60, { idle: false });
    await expire('t3-w1', a);
    await requeueExpired(db);
    expect(await row(a!)).toMatchObject({ status: 'PENDING', crashes: 0, suspect: true });
    await expire('t3-w1', b);
    await requeueExpired(db);
    expect(await row(b!)).toMatchObject({ status: 'PENDING', crashes: 0, suspect: true });
  });

  it('never counts a graceful handback', async () => {
    const [a] = await queue(1);
    for (let i = 0; i < 3; i++) {
      expect((await claim(db, `t4-w${i}`, 1, 60, { idle: true })).map((x) => x.job_id)).toEqual([a]);
      await release(db, `t4-w${i}`);
      expect(await row(a!)).toMatchObject({ status: 'PENDING', crashes: 0, suspect: false });
    }
  });

  it('requeues at start-up what a previous process left running, under the same blame rules, without waiting for the lease', async () => {
    const [a, b, c] = await queue(3);
    await claim(db, 't5-old-1', 1, 3600, { idle: true });
    await claim(db, 't5-old-2', 2, 3600, { idle: true });
    expect(await requeueExpired(db)).toBe(0);
    expect(await requeueAbandoned(db)).toBe(3);
    expect(await row(a!)).toMatchObject({ status: 'PENDING', crashes: 1, suspect: true });
    for (const id of [b!, c!]) expect(await row(id)).toMatchObject({ status: 'PENDING', crashes: 0, suspect: true });
  });

  it('records a late outcome after its lease ran out, or after it was taken back, unless another worker claimed it since', async () => {
    // Issue 28, 2: a run that finished while its worker could not reach the database keeps its outcome.
    const success: Outcome = { status: 'SUCCESS', data: { cut_value: 1, partition: [0, 1] }, bestValue: 1 };
    const [expired] = await queue(1);
    await claim(db, 't7-w1', 1, 60, { idle: true });
    await expire('t7-w1');
    expect(await finish(db, 't7-w1', expired!, 'local-search', success), 'lease ran out').toBe(true);
    expect(await row(expired!)).toMatchObject({ status: 'SUCCESS', crashes: 0 });
    expect(await jobStatus(expired!)).toBe('FINISHED');

    const [takenBack] = await queue(1);
    await claim(db, 't7-w2', 1, 60, { idle: true });
    await expire('t7-w2');
    await requeueExpired(db);
    expect(await finish(db, 't7-w2', takenBack!, 'local-search', success), 'taken back, not claimed since').toBe(true);
    expect(await row(takenBack!)).toMatchObject({ status: 'SUCCESS' });
    expect(await jobStatus(takenBack!)).toBe('FINISHED');

    const [claimedSince] = await queue(1);
    await claim(db, 't7-w3', 1, 60, { idle: true });
    await expire('t7-w3');
    await requeueExpired(db);
    expect((await claim(db, 't7-w4', 1, 60, { idle: true })).map((c) => c.job_id)).toEqual([claimedSince]);
    expect(await finish(db, 't7-w3', claimedSince!, 'local-search', success), 'claimed by another since').toBe(false);
    expect(await row(claimedSince!)).toMatchObject({ status: 'RUNNING' });
    expect(await finish(db, 't7-w4', claimedSince!, 'local-search', success)).toBe(true);
  });

  it('renews only the leases of the runs it is given', async () => {
    const [a, b] = await queue(2);
    await claim(db, 't6-w1', 2, 60, { idle: true });
    await db.query(`UPDATE executions SET lease_expires_at = now() + interval '1 second' WHERE lease_owner = 't6-w1'`);
    const { held } = await heartbeat(db, 't6-w1', 60, [{ job_id: a!, solver: 'local-search' }]);
    expect([...held]).toEqual([`${a}/local-search`]);
    const leases = await db.query<{ job_id: string; long: boolean }>(
      `SELECT job_id, lease_expires_at > now() + interval '30 seconds' AS long FROM executions WHERE job_id = ANY($1)`,
      [[a, b]],
    );
    expect(Object.fromEntries(leases.map((l) => [l.job_id, l.long]))).toEqual({ [a!]: true, [b!]: false });
  });
});
