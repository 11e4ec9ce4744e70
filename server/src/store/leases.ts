// Leases on claimed executions: renewed by the heartbeat of the worker running them, given back when it
// stops, and taken back from a worker that died (its leases ran out, or, on the embedded database, a
// previous process was killed).
//
// Crashes and blame. A graceful handback never counts. A crash is blamed on an execution only when it was
// the only one in flight on the dead worker; when several were, none is blamed (any of them, or none, may
// have brought the worker down) but each becomes suspect, and a suspect runs alone (queue.ts: claim), so a
// second crash with it is blamed on it. Two blames end it in ERROR. So a poison input ends after at most
// three runs, and a job that was merely unlucky (killed with others, or once alone) runs again.
//
// Lock order as in queue.ts: executions rows (FOR UPDATE SKIP LOCKED), then the job (settleJob).
import { errorBody } from '../core/api-error.ts';
import type { Database, Queryable } from './database.ts';
import { workChannel } from './channels.ts';
import { settleJob } from './jobs.ts';
import { appendEvents, executionEvent, lockJobs } from './job-events.ts';

/** Crashes blamed on an execution (each while it ran alone) after which it is not run again. */
export const maxCrashes = 2;
const crashedError = errorBody(
  'solver_failed',
  'The service stopped twice while this execution ran alone; it was not tried again.',
);

export interface RunKey {
  job_id: string;
  solver: string;
}

/**
 * Renews this worker's leases of the given runs (those alive in its memory: an execution whose run ended
 * and whose outcome could not be recorded is not kept alive); answers which of them it still holds and
 * which of those were asked to cancel.
 */
export async function heartbeat(
  db: Database,
  worker: string,
  leaseSeconds: number,
  runs: RunKey[],
): Promise<{ held: Set<string>; cancel: Set<string> }> {
  if (runs.length === 0) return { held: new Set(), cancel: new Set() };
  // The rows are locked in (job_id, seq) order first, as requestCancel and deleteEndedJob lock a job's
  // executions: an UPDATE over several rows locks them in whatever order its plan meets them, and a worker
  // holding two executions of one job deadlocked with a DELETE of that job on PostgreSQL.
  const rows = await db.query<{ job_id: string; solver: string; cancel: boolean }>(
    `WITH held AS MATERIALIZED (
       SELECT e.job_id, e.solver FROM executions e JOIN unnest($3::text[], $4::text[]) AS t(job_id, solver)
           ON e.job_id = t.job_id AND e.solver = t.solver
        WHERE e.lease_owner = $1 AND e.status IN ('PREPARING', 'RUNNING')
        ORDER BY e.job_id, e.seq FOR UPDATE OF e)
     UPDATE executions e SET lease_expires_at = now() + make_interval(secs => $2)
       FROM held, jobs j
      WHERE e.job_id = held.job_id AND e.solver = held.solver
        AND e.lease_owner = $1 AND e.status IN ('PREPARING', 'RUNNING') AND j.id = e.job_id
     RETURNING e.job_id, e.solver, j.cancel_requested_at IS NOT NULL AS cancel`,
    [worker, leaseSeconds, runs.map((r) => r.job_id), runs.map((r) => r.solver)],
  );
  const key = (r: RunKey) => `${r.job_id}/${r.solver}`;
  return { held: new Set(rows.map(key)), cancel: new Set(rows.filter((r) => r.cancel).map(key)) };
}

/**
 * Takes back executions whose lease ran out (their worker died or stalled). Answers how many. An outage runs out
 * every lease, and is no crash: a worker calls this only once it has reached the database for a whole lease
 * (worker/loop.ts, beat), so that live workers have had that lease to renew theirs.
 */
export async function requeueExpired(db: Database): Promise<number> {
  const count = await db.transaction((tx) => requeueLost(tx, 'lease_expires_at < now()'));
  db.metrics?.jobs.leasesExpired(count);
  return count;
}

/**
 * Takes back every execution in flight: for the embedded database at start-up, where no other process can
 * hold a lease, so what a killed process left running need not wait for its leases to run out.
 */
export function requeueAbandoned(db: Database): Promise<number> {
  return db.transaction((tx) => requeueLost(tx, 'true'));
}

async function requeueLost(tx: Queryable, condition: string): Promise<number> {
  // Per dead worker, what it had in flight: its executions still leased to it (expired or not) and those it
  // lost before (lost_from), since its leases may run out in different passes (a claim after its last heartbeat).
  const rows = await tx.query<{ job_id: string; solver: string; status: string }>(
    `WITH lost AS (
       SELECT job_id, solver, lease_owner FROM executions
        WHERE status IN ('PREPARING', 'RUNNING') AND ${condition}
        FOR UPDATE SKIP LOCKED),
     dead AS (
       SELECT o.owner, (SELECT count(*) FROM executions x
                         WHERE (x.lease_owner = o.owner AND x.status IN ('PREPARING', 'RUNNING')) OR x.lost_from = o.owner) AS in_flight
         FROM (SELECT DISTINCT lease_owner AS owner FROM lost) o),
     blame AS (
       SELECT l.job_id, l.solver, l.lease_owner, d.in_flight = 1 AS blamed FROM lost l JOIN dead d ON d.owner = l.lease_owner)
     UPDATE executions e SET
         crashes = e.crashes + CASE WHEN b.blamed THEN 1 ELSE 0 END,
         suspect = true, lost_from = b.lease_owner,
         status = CASE WHEN b.blamed AND e.crashes + 1 >= $1 THEN 'ERROR' ELSE 'PENDING' END,
         error = CASE WHEN b.blamed AND e.crashes + 1 >= $1 THEN $2::jsonb ELSE NULL END,
         ended_at = CASE WHEN b.blamed AND e.crashes + 1 >= $1 THEN now() ELSE NULL END,
         running_at = CASE WHEN b.blamed AND e.crashes + 1 >= $1 THEN e.running_at ELSE NULL END,
         progress = NULL, best_value = NULL, progress_history = NULL, lease_owner = NULL, lease_expires_at = NULL
       FROM blame b
      WHERE e.job_id = b.job_id AND e.solver = b.solver
     RETURNING e.job_id, e.solver, e.status`,
    [maxCrashes, JSON.stringify(crashedError)],
  );
  if (rows.length === 0) return 0;
  tx.metrics?.jobs.requeued(rows.filter((row) => row.status === 'PENDING').length);
  await settleAll(tx, rows);
  await tx.query('SELECT pg_notify($1, $2)', [workChannel, '']);
  return rows.length;
}

/** Gives this worker's executions back to the queue (it is shutting down); a handback never counts as a crash. */
export async function release(db: Database, worker: string): Promise<number> {
  return giveBack(db, 'lease_owner = $1', [worker]);
}

/** Gives one execution back to the queue (its outcome could not be recorded, or its input could not be read). */
export async function releaseOne(db: Database, worker: string, jobId: string, solver: string): Promise<boolean> {
  return (await giveBack(db, 'lease_owner = $1 AND job_id = $2 AND solver = $3', [worker, jobId, solver])) > 0;
}

async function giveBack(db: Database, where: string, params: unknown[]): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ job_id: string; solver: string; status: string }>(
      `UPDATE executions SET status = 'PENDING', lease_owner = NULL, lease_expires_at = NULL, running_at = NULL, progress = NULL, best_value = NULL,
              progress_history = NULL, attempts = greatest(attempts - 1, 0)
        WHERE ${where} AND status IN ('PREPARING', 'RUNNING') RETURNING job_id, solver, status`,
      params,
    );
    await settleAll(tx, rows);
    if (rows.length) await tx.query('SELECT pg_notify($1, $2)', [workChannel, '']);
    tx.metrics?.jobs.requeued(rows.length);
    return rows.length;
  });
}

/**
 * The executions' status events, then their jobs' statuses settled: the jobs' rows locked first, in one order
 * (job-events.ts: no owner's counter is held while a job's row is waited for).
 */
async function settleAll(tx: Queryable, changed: { job_id: string; solver: string; status: string }[]): Promise<void> {
  const jobIds = [...new Set(changed.map((r) => r.job_id))];
  await lockJobs(tx, jobIds);
  await appendEvents(
    tx,
    changed.map((r) => executionEvent(r.job_id, r.solver, r.status)),
  );
  for (const jobId of jobIds) await settleJob(tx, jobId);
}
