// Jobs and their executions in the database: create, read, list, cancel, and settle a job's status after
// its executions change. Every status change is announced on the `jes_job` channel (payload: job id) and queues
// the webhook messages it makes, in the same transaction.
import { randomInt } from 'node:crypto';
import { deriveJobStatus, terminalJob } from '@jes/contract';
import { ApiError, errorBody, type ErrorBody } from '../core/api-error.ts';
import { jobChannel, workChannel } from './channels.ts';
import type { Database, Queryable } from './database.ts';
import { claimKey, type IdempotentRequest, type StoredAnswer } from './idempotency-keys.ts';
import { page as pageOf, type PageFilter } from './pages.ts';
import { jsonText } from './json-text.ts';
import {
  appendEvents,
  appendWithUpdate,
  executionEvent,
  firstEvent,
  firstEventNotices,
  type NewJobEvent,
  statusEvent,
} from './job-events.ts';
import { enqueueWebhooks, ownerHasWebhook } from './webhook-deliveries.ts';

export interface JobRow {
  id: string;
  owner: string;
  problem_id: string;
  status: string;
  input_mode: 'inline' | 'data_file';
  data_file_id: string | null;
  input_bytes: number;
  error: ErrorBody | null;
  cancel_requested_at: Date | null;
  submitted_at: Date;
  running_at: Date | null;
  ended_at: Date | null;
}

export interface ExecutionRow {
  job_id: string;
  solver: string;
  status: string;
  data: Record<string, unknown> | null;
  error: ErrorBody | null;
  progress: number | null;
  best_value: number | null;
  /** The contract's progress_history; null in listings (as `data`) and before any value. */
  progress_history: { seconds: number; best_value: number }[] | null;
  time_limit_seconds: number;
  created_at: Date;
  running_at: Date | null;
  ended_at: Date | null;
}

export interface JobView {
  job: JobRow;
  executions: ExecutionRow[];
}

export interface NewExecution {
  solver: string;
  params: Record<string, unknown>;
  timeLimitSeconds: number;
  seed: number;
}

export interface NewJob {
  owner: string;
  problemId: string;
  inputMode: 'inline' | 'data_file';
  dataFileId: string | null;
  inputBytes: number;
  /** The inline input, as its use case prepared it (UseCase.encode) or as JSON text; null for a data file. */
  input: Uint8Array | null;
  /** The input is the prepared one. */
  inputPrepared: boolean;
  executions: NewExecution[];
  maxActiveJobs: number;
  /** The W3C traceparent of the request that starts it (tracing on): its executions' spans continue that trace. */
  traceparent?: string | null;
}

const jobColumns = `id, owner, problem_id, status, input_mode, data_file_id, input_bytes, error, cancel_requested_at, submitted_at, running_at, ended_at`;
const executionColumns = `job_id, solver, status, data, error, progress, best_value, progress_history, time_limit_seconds, created_at, running_at, ended_at`;

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export function newJobId(): string {
  let id = '';
  for (let i = 0; i < 12; i++) id += alphabet[randomInt(alphabet.length)];
  return id;
}

/** An Idempotency-Key to claim with the job, and the answer it will replay (built from the new job's id). */
export interface RememberedAs {
  request: IdempotentRequest;
  answer(id: string): StoredAnswer;
}

/** How many jobs of the owner (the parameter `owner`) have not ended: what the cap of active jobs counts. */
const activeJobsOf = (owner: string) =>
  `SELECT count(*) FROM jobs WHERE owner = ${owner} AND status IN ('PENDING', 'RUNNING')`;

/** Creates a job; with `remembered`, its key in the same transaction (KeyInUse when a live row holds the key). */
export async function createJob(db: Database, job: NewJob, remembered?: RememberedAs): Promise<string> {
  const id = newJobId();
  await db.transaction(async (tx) => {
    // Serialise a user's submissions so the active-job count cannot be raced past the cap (the embedded
    // database runs one transaction at a time already).
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`jobs:${job.owner}`]);
    // Before anything can refuse: a retry that raced its first attempt replays it rather than hit the cap.
    if (remembered) await claimKey(tx, job.owner, remembered.request, remembered.answer(id));
    if (job.dataFileId) {
      // Under a share lock: validation (which fails the jobs waiting for an invalid file) and deletion
      // serialise with this transaction, so a job never waits on a file that has become INVALID or gone.
      const [file] = await tx.query<{ status: string }>(
        'SELECT status FROM data_files WHERE owner = $1 AND id = $2 FOR SHARE',
        [job.owner, job.dataFileId],
      );
      if (!file) throw new ApiError('data_file_not_found', `No data file ${job.dataFileId} exists for this user.`);
      if (file.status === 'INVALID')
        throw new ApiError(
          'data_file_invalid',
          `Data file ${job.dataFileId} failed validation; see GET /data_file/${job.dataFileId}.`,
        );
    }
    // Inserted only while the user is under the cap of active jobs, and announced to the workers by the same
    // statement (delivered at commit, after the executions below), with its first event, PENDING: one round trip
    // for the count, the row, the event and the announcements. The count is read again only to say it, when the
    // cap refuses.
    const inserted = await tx.query(
      `WITH j AS (
         INSERT INTO jobs (id, owner, problem_id, status, input_mode, data_file_id, input_bytes, input, input_prepared, event_seq, traceparent)
         SELECT $1, $2, $3, 'PENDING', $4, $5, $6, $7, $8, 1, $11
          WHERE (${activeJobsOf('$2')}) < $9
         RETURNING id, owner)
       ${firstEvent('j')}
       SELECT pg_notify($10, $1), ${firstEventNotices} FROM first_event`,
      [
        id,
        job.owner,
        job.problemId,
        job.inputMode,
        job.dataFileId,
        job.inputBytes,
        job.input,
        job.inputPrepared,
        job.maxActiveJobs,
        workChannel,
        job.traceparent ?? null,
      ],
    );
    if (inserted.length === 0) {
      const [{ active } = { active: 0 }] = await tx.query<{ active: number }>(
        `SELECT (${activeJobsOf('$1')})::int AS active`,
        [job.owner],
      );
      throw new ApiError(
        'too_many_active_jobs',
        `You have ${active} jobs that have not ended; the limit is ${job.maxActiveJobs}. Wait for one to end or cancel one.`,
        { retryAfterSeconds: 5 },
      );
    }
    for (const e of job.executions) {
      await tx.query(
        `INSERT INTO executions (job_id, solver, params, time_limit_seconds, seed, status) VALUES ($1, $2, $3, $4, $5, 'PENDING')`,
        [id, e.solver, jsonText(e.params), e.timeLimitSeconds, e.seed],
      );
    }
  });
  db.metrics?.jobs.started(job.problemId);
  return id;
}

/** The job and its executions in one statement (one round trip, one snapshot): executions' columns as `e_<column>`. */
const readJobSql = `SELECT ${jobColumns.replace(/(\w+)/g, 'j.$1')}, ${executionColumns.replace(/(\w+)/g, 'e.$1 AS e_$1')}
  FROM jobs j LEFT JOIN executions e ON e.job_id = j.id WHERE j.id = $1 AND j.owner = $2 ORDER BY e.seq`;
const jobKeys = jobColumns.split(', ');
const executionKeys = executionColumns.split(', ');

export async function readJob(db: Queryable, owner: string, id: string): Promise<JobView | undefined> {
  const rows = await db.query<Record<string, unknown>>(readJobSql, [id, owner]);
  if (rows.length === 0) return undefined;
  const job = Object.fromEntries(jobKeys.map((k) => [k, rows[0]![k]])) as unknown as JobRow;
  const executions = rows
    .filter((row) => row.e_job_id !== null)
    .map((row) => Object.fromEntries(executionKeys.map((k) => [k, row[`e_${k}`]])) as unknown as ExecutionRow);
  return { job, executions };
}

/** A page of the owner's jobs, newest first, without solver output. */
export async function listJobs(
  db: Database,
  owner: string,
  filter: PageFilter,
): Promise<{ views: JobView[]; hasMore: boolean }> {
  const { rows: page, hasMore } = await pageOf<JobRow>(db, 'jobs', jobColumns, owner, filter);
  const executions = page.length
    ? await db.query<ExecutionRow>(
        `SELECT ${executionColumns.replace('data, ', 'NULL AS data, ').replace('progress_history, ', 'NULL AS progress_history, ')} FROM executions WHERE job_id = ANY($1) ORDER BY seq`,
        [page.map((j) => j.id)],
      )
    : [];
  return {
    views: page.map((job) => ({ job, executions: executions.filter((e) => e.job_id === job.id) })),
    hasMore,
  };
}

/**
 * A job's new status ($6) and error ($7), with its events and announced, in one statement (one round trip less per
 * change). A job ends no earlier than its executions: now() is when this transaction began, and on PostgreSQL another
 * execution's outcome, recorded in a transaction that began later, may have committed before this one read it.
 */
const settleStatus = appendWithUpdate(
  `status = $6, error = $7,
   running_at = CASE WHEN $6 <> 'PENDING' THEN coalesce(running_at, now()) ELSE running_at END,
   ended_at = CASE WHEN $6 IN ('FINISHED', 'ERROR', 'CANCELLED')
     THEN greatest(now(), (SELECT max(ended_at) FROM executions WHERE job_id = $1)) ELSE NULL END`,
  jobChannel,
);

/**
 * Recomputes a job's status from its executions (inside the transaction that changed them) and announces
 * a change. Returns the new status. `before`: the executions' events, appended with the job's (one statement).
 */
export async function settleJob(tx: Queryable, jobId: string, before: NewJobEvent[] = []): Promise<string> {
  // With whether the owner has a webhook: a change then queues its messages (a user without one pays nothing).
  const [job] = await tx.query<{
    status: string;
    problem_id: string;
    running_at: Date | null;
    cancel_requested_at: Date | null;
    webhook: boolean;
  }>(
    `SELECT status, problem_id, running_at, cancel_requested_at, ${ownerHasWebhook('jobs.owner')} AS webhook
       FROM jobs WHERE id = $1 FOR UPDATE`,
    [jobId],
  );
  if (!job || terminalJob.has(job.status)) {
    await appendEvents(tx, before);
    return job?.status ?? 'ERROR';
  }
  const executions = await tx.query<{ status: string; error: ErrorBody | null; solver: string }>(
    'SELECT status, error, solver FROM executions WHERE job_id = $1',
    [jobId],
  );
  const status = deriveJobStatus(executions, job.running_at !== null, job.cancel_requested_at !== null);
  if (status === job.status) {
    await appendEvents(tx, before);
    return status;
  }
  const error = status === 'ERROR' ? jobError(executions) : null;
  await settleStatus(tx, jobId, [...before, statusEvent(jobId, status)], [status, error && jsonText(error)]);
  if (job.webhook) await enqueueWebhooks(tx, jobId, status);
  // Counted once the transaction commits (store/metered.ts).
  if (terminalJob.has(status)) tx.metrics?.jobs.ended(job.problem_id, status);
  return status;
}

/**
 * What settleJob decides for jobs an execution of which was just claimed, in one statement for them all: a job
 * PENDING until then is RUNNING now (an execution has left PENDING, and none of them can have ended with it); any
 * other is left as it is. Called with their executions locked, as settleJob is. `before`: events appended first.
 */
export async function markJobsRunning(tx: Queryable, jobIds: string[], before: NewJobEvent[] = []): Promise<void> {
  const running = await tx.query<{ id: string; webhook: boolean }>(
    `UPDATE jobs SET status = 'RUNNING', running_at = coalesce(running_at, now())
      WHERE id = ANY($1) AND status = 'PENDING' RETURNING id, pg_notify($2, id), ${ownerHasWebhook('jobs.owner')} AS webhook`,
    [jobIds, jobChannel],
  );
  // `before` (the claimed executions' events) with the jobs' own: appendEvents locks every job's row before an
  // owner's counter (job-events.ts).
  await appendEvents(tx, [...before, ...running.map((j) => statusEvent(j.id, 'RUNNING'))]);
  await enqueueWebhooks(
    tx,
    running.filter((j) => j.webhook).map((j) => j.id),
    'RUNNING',
  );
}

/** The error of a job none of whose executions succeeded. */
function jobError(executions: { error: ErrorBody | null; solver: string }[]): ErrorBody {
  const failed = executions.filter((e) => e.error);
  const only = failed.length === 1 ? failed[0]!.error : undefined;
  if (only && only.code === 'data_file_invalid') return only;
  const reasons = failed.map((e) => `${e.solver}: ${e.error!.detail}`).join('; ');
  return errorBody('solver_failed', `No execution succeeded${reasons ? `: ${reasons}` : '.'}`);
}

/** Asks for a job to be cancelled: executions not yet running end at once, running ones are stopped by their worker. */
export async function requestCancel(db: Database, owner: string, id: string): Promise<JobView> {
  return db.transaction(async (tx) => {
    // Executions before the job, in the order a worker's claim locks them (claim, then settle the job):
    // the opposite order deadlocked with a claim of this job's executions on PostgreSQL.
    await tx.query('SELECT 1 FROM executions WHERE job_id = $1 ORDER BY seq FOR UPDATE', [id]);
    const [job] = await tx.query<{ status: string }>(
      'SELECT status FROM jobs WHERE id = $1 AND owner = $2 FOR UPDATE',
      [id, owner],
    );
    if (!job) throw new ApiError('job_not_found', `No job ${id} exists for this user.`);
    if (terminalJob.has(job.status))
      throw new ApiError('job_already_terminal', `Job ${id} is ${job.status} and can no longer be cancelled.`);
    await tx.query('UPDATE jobs SET cancel_requested_at = coalesce(cancel_requested_at, now()) WHERE id = $1', [id]);
    const cancelled = await tx.query<{ solver: string }>(
      `UPDATE executions SET status = 'CANCELLED', ended_at = now(), lease_owner = NULL WHERE job_id = $1 AND status = 'PENDING' RETURNING solver`,
      [id],
    );
    await settleJob(
      tx,
      id,
      cancelled.map((e) => executionEvent(id, e.solver, 'CANCELLED')),
    );
    // Announced even when the status stays RUNNING: the workers running it learn of the cancel at once.
    await tx.query('SELECT pg_notify($1, $2)', [jobChannel, id]);
    return (await readJob(tx, owner, id))!;
  });
}

/**
 * Deletes an ended job with its executions and webhook messages (deleteJob); its data file stays. Locks in requestCancel's order,
 * executions before the job, so a worker settling this job meanwhile waits or is waited for, never deadlocks.
 * Announced on the job channel: every process drops the job from its cache of ended jobs.
 */
export async function deleteEndedJob(db: Database, owner: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM executions WHERE job_id = $1 ORDER BY seq FOR UPDATE', [id]);
    const [job] = await tx.query<{ status: string }>(
      'SELECT status FROM jobs WHERE id = $1 AND owner = $2 FOR UPDATE',
      [id, owner],
    );
    if (!job) throw new ApiError('job_not_found', `No job ${id} exists for this user.`);
    if (!terminalJob.has(job.status)) {
      throw new ApiError(
        'job_not_finished',
        `Job ${id} is ${job.status}; cancel it or wait for it to end, then delete it.`,
        { retryAfterSeconds: 2 },
      );
    }
    await tx.query('DELETE FROM executions WHERE job_id = $1', [id]);
    await tx.query('DELETE FROM job_events WHERE job_id = $1', [id]);
    await tx.query('DELETE FROM webhook_deliveries WHERE job_id = $1', [id]);
    await tx.query('DELETE FROM jobs WHERE id = $1', [id]);
    await tx.query('SELECT pg_notify($1, $2)', [jobChannel, id]);
  });
}
