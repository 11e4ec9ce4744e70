// The execution queue as workers see it. An execution is claimed under a lease (FOR UPDATE SKIP LOCKED),
// the lease is renewed while it runs (leases.ts), and every later transition is guarded by the lease owner,
// so a worker whose execution another worker took (it stalled or died) cannot record anything: each execution
// ends exactly once.
//
// Lock order, everywhere an execution changes status: its executions rows first, then its jobs row (settleJob).
// requestCancel (jobs.ts) takes them in the same order; the opposite order deadlocked with a claim.
import type { ErrorBody } from '../core/api-error.ts';
import type { ProgressPoint } from '@jes/contract';
import type { Database, Queryable } from './database.ts';
import { markJobsRunning, settleJob } from './jobs.ts';
import { jsonText } from './json-text.ts';
import { appendEvents, executionEvent } from './job-events.ts';

export interface Claimed {
  job_id: string;
  problem_id: string;
  solver: string;
  params: Record<string, unknown>;
  time_limit_seconds: number;
  seed: number;
  owner: string;
  input_mode: 'inline' | 'data_file';
  data_file_id: string | null;
  /** It was in flight when a worker died: it runs alone (see leases.ts). */
  suspect: boolean;
  /**
   * A small inline input comes with the claim, which then marks the execution RUNNING at once (there is nothing
   * to prepare); otherwise null, the execution is PREPARING, and the worker loads the input and marks it running.
   */
  input: Uint8Array | null;
  input_prepared: boolean;
  status: 'PREPARING' | 'RUNNING';
  /** The W3C traceparent of the request that started the job, when it was traced. */
  traceparent: string | null;
  /** Milliseconds from the execution's creation to this claim, by the database's clock. */
  queued_ms: number;
}

/** Inline inputs up to this size (the body's bytes) come with the claim: one round trip less for most jobs. */
export const claimedInputBytes = 64 * 1024;

/**
 * Claims up to `count` executions in queue order. A suspect execution runs alone: it is claimed only by an
 * `idle` worker (one running nothing), and only by itself; the executions queued after it are not claimed
 * past it, so a busy worker drains and then takes it (it cannot starve). The caller claims nothing at all
 * while a suspect runs.
 */
export async function claim(
  db: Database,
  worker: string,
  count: number,
  leaseSeconds: number,
  { idle }: { idle: boolean },
): Promise<Claimed[]> {
  if (count <= 0) return [];
  return db.transaction(async (tx) => {
    const next = await tx.query<{ job_id: string; solver: string; suspect: boolean }>(
      `SELECT e.job_id, e.solver, e.suspect FROM executions e
         JOIN jobs j ON j.id = e.job_id
         LEFT JOIN data_files d ON d.owner = j.owner AND d.id = j.data_file_id
        WHERE e.status = 'PENDING' AND j.cancel_requested_at IS NULL
          AND (j.data_file_id IS NULL OR d.status = 'READY')
        ORDER BY e.seq
        LIMIT $1
        FOR UPDATE OF e SKIP LOCKED`,
      [count],
    );
    const plain = next.findIndex((e) => e.suspect);
    const take = next[0]?.suspect ? (idle ? next.slice(0, 1) : []) : plain < 0 ? next : next.slice(0, plain);
    if (take.length === 0) return [];
    const small = `j.input_mode = 'inline' AND j.input_bytes <= ${claimedInputBytes}`;
    const claimed = await tx.query<Claimed>(
      `UPDATE executions e
          SET status = CASE WHEN ${small} THEN 'RUNNING' ELSE 'PREPARING' END,
              running_at = CASE WHEN ${small} THEN coalesce(e.running_at, now()) ELSE e.running_at END,
              worker = $1, lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2), attempts = attempts + 1
         FROM unnest($3::text[], $4::text[]) AS t(job_id, solver), jobs j
        WHERE e.job_id = t.job_id AND e.solver = t.solver AND j.id = e.job_id
       RETURNING e.job_id, j.problem_id, e.solver, e.params, e.time_limit_seconds, e.seed, j.owner, j.input_mode, j.data_file_id, e.suspect,
                 CASE WHEN ${small} THEN j.input END AS input, j.input_prepared, e.status, j.traceparent,
                 (extract(epoch FROM now() - e.created_at) * 1000)::float8 AS queued_ms`,
      [worker, leaseSeconds, take.map((e) => e.job_id), take.map((e) => e.solver)],
    );
    await markJobsRunning(
      tx,
      [...new Set(claimed.map((c) => c.job_id))],
      claimed.map((c) => executionEvent(c.job_id, c.solver, c.status)),
    );
    return claimed;
  });
}

/**
 * PREPARING → RUNNING, if this worker still holds the execution; false when it does not. Idempotent (a retry
 * after a commit whose answer was lost finds it RUNNING and answers true).
 */
export async function markRunning(db: Database, worker: string, jobId: string, solver: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ was: string }>(
      `UPDATE executions e SET status = 'RUNNING', running_at = coalesce(e.running_at, now())
         FROM executions old
        WHERE e.job_id = $1 AND e.solver = $2 AND e.lease_owner = $3 AND e.status IN ('PREPARING', 'RUNNING')
          AND old.job_id = e.job_id AND old.solver = e.solver
       RETURNING old.status AS was`,
      [jobId, solver, worker],
    );
    if (row?.was === 'PREPARING') await appendEvents(tx, [executionEvent(jobId, solver, 'RUNNING')]);
    return row !== undefined;
  });
}

export async function recordProgress(
  db: Database,
  worker: string,
  jobId: string,
  solver: string,
  progress: number,
  bestValue: number,
  /** The progress history, and the `progress` event to append (the best value changed since the last one). */
  history?: { points: readonly ProgressPoint[]; event?: { seconds: number } | undefined },
): Promise<void> {
  const update = (tx: Queryable) =>
    tx.query(
      `UPDATE executions SET progress = $4, best_value = $5, progress_history = coalesce($6::jsonb, progress_history)
        WHERE job_id = $1 AND solver = $2 AND lease_owner = $3 AND status = 'RUNNING' RETURNING 1`,
      [jobId, solver, worker, progress, bestValue, history ? JSON.stringify(history.points) : null],
    );
  const event = history?.event;
  if (!event) return void (await update(db));
  await db.transaction(async (tx) => {
    if ((await update(tx)).length === 0) return;
    await appendEvents(tx, [
      {
        jobId,
        type: 'progress',
        data: { job_id: jobId, solver, seconds: event.seconds, best_value: bestValue, progress },
      },
    ]);
  });
}

/**
 * How an execution ended. Its best value is kept (the contract's Execution.best_value): a success's is its
 * result's objective, a cancelled one's the best the solver found before it stopped (`bestValue`, or else the
 * last one recorded by progress); a failed one has none.
 */
export type Outcome =
  | { status: 'SUCCESS'; data: Record<string, unknown>; bestValue: number; history?: readonly ProgressPoint[] }
  | { status: 'ERROR'; error: ErrorBody }
  | { status: 'CANCELLED'; bestValue: number | undefined; history?: readonly ProgressPoint[] };

/**
 * Records how an execution ended, if it is still this worker's: it holds the lease (expired or not: a lease that
 * ran out during an outage is the worker's until another takes the execution), or the execution was taken back
 * from it (its lease ran out while this worker could not reach the database) and no other worker has claimed it
 * since (`worker` names the last to claim it). False when it is not (nothing recorded): another worker runs it,
 * or it ended otherwise (cancelled).
 */
export async function finish(
  db: Database,
  worker: string,
  jobId: string,
  solver: string,
  outcome: Outcome,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE executions SET status = $4, data = $5, error = $6, ended_at = now(), running_at = coalesce(running_at, now()),
              progress = NULL, best_value = CASE WHEN $4 = 'ERROR' THEN NULL ELSE coalesce($7, best_value) END,
              progress_history = CASE WHEN $4 = 'ERROR' THEN NULL ELSE coalesce($8::jsonb, progress_history) END,
              lease_owner = NULL, lease_expires_at = NULL
        WHERE job_id = $1 AND solver = $2 AND worker = $3
          AND (lease_owner = $3 AND status IN ('PREPARING', 'RUNNING') OR lease_owner IS NULL AND status = 'PENDING')
       RETURNING 1`,
      [
        jobId,
        solver,
        worker,
        outcome.status,
        outcome.status === 'SUCCESS' ? JSON.stringify(outcome.data) : null,
        outcome.status === 'ERROR' ? jsonText(outcome.error) : null,
        outcome.status === 'ERROR' ? null : (outcome.bestValue ?? null),
        outcome.status !== 'ERROR' && outcome.history?.length ? JSON.stringify(outcome.history) : null,
      ],
    );
    if (rows.length === 0) return false;
    await settleJob(tx, jobId, [executionEvent(jobId, solver, outcome.status)]);
    return true;
  });
}
