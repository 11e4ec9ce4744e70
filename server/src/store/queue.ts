// The execution queue as workers see it. An execution is claimed under a lease (FOR UPDATE SKIP LOCKED),
// the lease is renewed while it runs, and every later transition is guarded by the lease owner, so a
// worker that lost its lease (it stalled or died) cannot record anything: each execution ends exactly once.
import { problemBody, type ProblemBody } from '../http/problems.ts';
import type { Database } from './database.ts';
import { settleJob, workChannel } from './jobs.ts';

export interface Claimed {
  job_id: string;
  solver: string;
  params: Record<string, unknown>;
  time_limit_seconds: number;
  seed: number;
  owner: string;
  input_mode: 'inline' | 'data_file';
  data_file_id: string | null;
}

/** Executions whose worker stopped renewing this many times are not retried again. */
const maxAttempts = 3;

export async function claim(db: Database, worker: string, count: number, leaseSeconds: number): Promise<Claimed[]> {
  if (count <= 0) return [];
  return db.transaction(async (tx) => {
    const claimed = await tx.query<Claimed>(
      `WITH next AS (
         SELECT e.job_id, e.solver FROM executions e
           JOIN jobs j ON j.id = e.job_id
           LEFT JOIN data_files d ON d.owner = j.owner AND d.id = j.data_file_id
          WHERE e.status = 'PENDING' AND j.cancel_requested_at IS NULL
            AND (j.data_file_id IS NULL OR d.status = 'READY')
          ORDER BY e.seq
          LIMIT $2
          FOR UPDATE OF e SKIP LOCKED)
       UPDATE executions e
          SET status = 'PREPARING', worker = $1, lease_owner = $1, lease_expires_at = now() + make_interval(secs => $3), attempts = attempts + 1
         FROM next, jobs j
        WHERE e.job_id = next.job_id AND e.solver = next.solver AND j.id = e.job_id
       RETURNING e.job_id, e.solver, e.params, e.time_limit_seconds, e.seed, j.owner, j.input_mode, j.data_file_id`,
      [worker, count, leaseSeconds],
    );
    for (const jobId of new Set(claimed.map((c) => c.job_id))) await settleJob(tx, jobId);
    return claimed;
  });
}

/**
 * Renews this worker's leases; answers which of its executions it still holds and which of those were
 * asked to cancel.
 */
export async function heartbeat(db: Database, worker: string, leaseSeconds: number): Promise<{ held: Set<string>; cancel: Set<string> }> {
  const rows = await db.query<{ job_id: string; solver: string; cancel: boolean }>(
    `UPDATE executions e SET lease_expires_at = now() + make_interval(secs => $2)
       FROM jobs j
      WHERE e.lease_owner = $1 AND e.status IN ('PREPARING', 'RUNNING') AND j.id = e.job_id
     RETURNING e.job_id, e.solver, j.cancel_requested_at IS NOT NULL AS cancel`,
    [worker, leaseSeconds],
  );
  const key = (r: { job_id: string; solver: string }) => `${r.job_id}/${r.solver}`;
  return { held: new Set(rows.map(key)), cancel: new Set(rows.filter((r) => r.cancel).map(key)) };
}

/** Puts executions whose lease expired (their worker died) back in the queue, or fails them after too many tries. */
export async function requeueExpired(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await tx.query<{ job_id: string; attempts: number }>(
      `SELECT job_id, solver, attempts FROM executions
        WHERE status IN ('PREPARING', 'RUNNING') AND lease_expires_at < now()
        FOR UPDATE SKIP LOCKED`,
    );
    if (expired.length === 0) return 0;
    const error = problemBody('solver_failed', `The worker running this execution stopped ${maxAttempts} times; it was not retried again.`);
    await tx.query(
      `UPDATE executions SET
         status = CASE WHEN attempts >= $1 THEN 'ERROR' ELSE 'PENDING' END,
         error = CASE WHEN attempts >= $1 THEN $2::jsonb ELSE NULL END,
         ended_at = CASE WHEN attempts >= $1 THEN now() ELSE NULL END,
         running_at = CASE WHEN attempts >= $1 THEN running_at ELSE NULL END,
         progress = NULL, best_value = NULL, lease_owner = NULL, lease_expires_at = NULL
       WHERE status IN ('PREPARING', 'RUNNING') AND lease_expires_at < now()`,
      [maxAttempts, JSON.stringify(error)],
    );
    for (const jobId of new Set(expired.map((e) => e.job_id))) await settleJob(tx, jobId);
    await tx.query('SELECT pg_notify($1, $2)', [workChannel, '']);
    return expired.length;
  });
}

export async function markRunning(db: Database, worker: string, jobId: string, solver: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE executions SET status = 'RUNNING', running_at = now() WHERE job_id = $1 AND solver = $2 AND lease_owner = $3 AND status = 'PREPARING' RETURNING 1`,
    [jobId, solver, worker],
  );
  return rows.length > 0;
}

export async function recordProgress(db: Database, worker: string, jobId: string, solver: string, progress: number, bestValue: number): Promise<void> {
  await db.query(
    `UPDATE executions SET progress = $4, best_value = $5 WHERE job_id = $1 AND solver = $2 AND lease_owner = $3 AND status = 'RUNNING'`,
    [jobId, solver, worker, progress, bestValue],
  );
}

export type Outcome =
  | { status: 'SUCCESS'; data: Record<string, unknown> }
  | { status: 'ERROR'; error: ProblemBody }
  | { status: 'CANCELLED' };

/** Records how an execution ended, if this worker still holds it; false when it does not (nothing recorded). */
export async function finish(db: Database, worker: string, jobId: string, solver: string, outcome: Outcome): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE executions SET status = $4, data = $5, error = $6, ended_at = now(), running_at = coalesce(running_at, now()),
              progress = NULL, best_value = NULL, lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND solver = $2 AND lease_owner = $3 AND status IN ('PREPARING', 'RUNNING')
       RETURNING 1`,
      [
        jobId, solver, worker, outcome.status,
        outcome.status === 'SUCCESS' ? JSON.stringify(outcome.data) : null,
        outcome.status === 'ERROR' ? JSON.stringify(outcome.error) : null,
      ],
    );
    if (rows.length === 0) return false;
    await settleJob(tx, jobId);
    return true;
  });
}

/** Gives executions back to the queue (a worker shutting down), as if their lease had expired. */
export async function release(db: Database, worker: string): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx.query<{ job_id: string }>(
      `UPDATE executions SET status = 'PENDING', lease_owner = NULL, lease_expires_at = NULL, running_at = NULL, progress = NULL, best_value = NULL,
              attempts = greatest(attempts - 1, 0)
        WHERE lease_owner = $1 AND status IN ('PREPARING', 'RUNNING') RETURNING job_id`,
      [worker],
    );
    for (const jobId of new Set(rows.map((r) => r.job_id))) await settleJob(tx, jobId);
    if (rows.length) await tx.query('SELECT pg_notify($1, $2)', [workChannel, '']);
  });
}
