// The job event log (issue 31): appended inside the transaction that makes each change, read back by the streams
// (GET /job/{job_id}/events by the job's seq, GET /events by the owner's user_seq). Appending takes the job's row
// lock (its event_seq), and a status event the owner's counter row too, both held to the commit: a reader never
// sees seq N+1 committed before N. Lock order: executions, then jobs, then the owner's counter, never back: a
// transaction that changes several jobs locks them all before it appends (lockJobs).
import type { Queryable } from './database.ts';
import { jsonText } from './json-text.ts';

export const eventChannel = 'jes_event';
export const userChannel = 'jes_user';

export type JobEventType = 'status' | 'execution' | 'progress';

export interface NewJobEvent {
  jobId: string;
  type: JobEventType;
  /** The event's data without `at` (added from the `at` column when it is read). */
  data: Record<string, unknown>;
}

export interface StoredJobEvent {
  job_id: string;
  seq: number;
  user_seq: number | null;
  type: JobEventType;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Numbers the events per job (in the order given) and a status event per owner, stores them and announces them
 * (`jes_event`: job id; `jes_user`: owner), in one statement. Events of a job that is gone are dropped.
 */
const appendSql = `
WITH ev AS (
  SELECT t.job_id, t.type, t.data::jsonb AS data, t.n
    FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(job_id, type, data, n)),
per_job AS (SELECT job_id, count(*)::int AS k FROM ev GROUP BY job_id),
j AS (
  UPDATE jobs SET event_seq = jobs.event_seq + per_job.k FROM per_job WHERE jobs.id = per_job.job_id
  RETURNING jobs.id, jobs.owner, jobs.event_seq - per_job.k AS base),
numbered AS (
  SELECT ev.job_id, ev.type, ev.data, j.owner,
         j.base + row_number() OVER (PARTITION BY ev.job_id ORDER BY ev.n) AS seq,
         row_number() OVER (PARTITION BY j.owner, ev.type ORDER BY ev.n) AS user_n
    FROM ev JOIN j ON j.id = ev.job_id),
per_owner AS (SELECT owner, count(*)::int AS k FROM numbered WHERE type = 'status' GROUP BY owner),
c AS (
  INSERT INTO event_counters AS c (owner, seq) SELECT owner, k FROM per_owner
  ON CONFLICT (owner) DO UPDATE SET seq = c.seq + excluded.seq
  RETURNING c.owner, c.seq AS top),
ins AS (
  INSERT INTO job_events (job_id, seq, owner, user_seq, type, data)
  SELECT n.job_id, n.seq, n.owner, CASE WHEN n.type = 'status' THEN c.top - p.k + n.user_n END, n.type, n.data
    FROM numbered n LEFT JOIN per_owner p ON p.owner = n.owner LEFT JOIN c ON c.owner = n.owner
  RETURNING job_id, owner, user_seq)
SELECT pg_notify('${eventChannel}', job_id) FROM (SELECT DISTINCT job_id FROM ins) AS a
UNION ALL
SELECT pg_notify('${userChannel}', owner) FROM (SELECT DISTINCT owner FROM ins WHERE user_seq IS NOT NULL) AS b`;

export async function appendEvents(tx: Queryable, events: readonly NewJobEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(appendSql, [
    events.map((e) => e.jobId),
    events.map((e) => e.type),
    events.map((e) => jsonText(e.data)),
  ]);
}

/** A job's status event. */
export const statusEvent = (jobId: string, status: string): NewJobEvent => ({
  jobId,
  type: 'status',
  data: { job_id: jobId, status },
});

/** An execution's status event. */
export const executionEvent = (jobId: string, solver: string, status: string): NewJobEvent => ({
  jobId,
  type: 'execution',
  data: { job_id: jobId, solver, status },
});

/**
 * Locks the jobs' rows (in one order) before a transaction that changes several of them appends: the owner's
 * counter, once taken, is never held while waiting for a job's row (lock order above).
 */
export async function lockJobs(tx: Queryable, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length > 1) await tx.query('SELECT 1 FROM jobs WHERE id = ANY($1) ORDER BY id FOR UPDATE', [jobIds]);
}

const eventColumns = 'job_id, seq::float8 AS seq, user_seq::float8 AS user_seq, type, data, at';

/** A job's events after `after` (its seq), oldest first, at most `limit`. */
export function readJobEvents(db: Queryable, jobId: string, after: number, limit: number): Promise<StoredJobEvent[]> {
  return db.query<StoredJobEvent>(
    `SELECT ${eventColumns} FROM job_events WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [jobId, after, limit],
  );
}

/** The owner's status events after `after` (its user_seq), oldest first, at most `limit`. */
export function readUserEvents(db: Queryable, owner: string, after: number, limit: number): Promise<StoredJobEvent[]> {
  return db.query<StoredJobEvent>(
    `SELECT ${eventColumns} FROM job_events WHERE owner = $1 AND user_seq > $2 ORDER BY user_seq LIMIT $3`,
    [owner, after, limit],
  );
}

/** The owner's latest user_seq (0 before any): where a GET /events without Last-Event-ID starts. */
export async function latestUserSeq(db: Queryable, owner: string): Promise<number> {
  const [row] = await db.query<{ seq: number }>('SELECT seq::float8 AS seq FROM event_counters WHERE owner = $1', [
    owner,
  ]);
  return row?.seq ?? 0;
}
