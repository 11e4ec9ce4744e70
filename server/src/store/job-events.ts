// The job event log (issue 31): appended inside the transaction that makes each change, read back by the streams
// (GET /job/{job_id}/events by the job's seq, GET /events by the owner's user_seq). Appending takes the job's row
// lock (its event_seq), and a status event the owner's counter row too, both held to the commit: a reader never
// sees seq N+1 committed before N. Lock order: executions, then jobs, then the owner's counter, never back: a
// transaction that changes several jobs locks them all before it appends (lockJobs).
import { eventChannel, userChannel } from './channels.ts';
import type { Queryable } from './database.ts';
import { jsonText } from './json-text.ts';

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
 * Numbers one job's events (in the order given: their seq past the job's event_seq, a status event's user_seq past
 * the owner's counter, both worked out in JavaScript), stores them and announces them (`jes_event`: the job id;
 * `jes_user`: the owner), in one statement. Events of a job that is gone are dropped. (One statement for a batch of
 * many jobs, numbered by window functions, cost 5 ms an append on the embedded database, four times this one.)
 */
const appendSqlWith = (set: string, more: string) => `
WITH j AS (
  UPDATE jobs SET ${set}event_seq = event_seq + cardinality($2::text[]) WHERE id = $1
  RETURNING owner, event_seq - cardinality($2::text[]) AS base),
c AS (
  INSERT INTO event_counters AS c (owner, seq) SELECT owner, $5::int FROM j WHERE $5::int > 0
  ON CONFLICT (owner) DO UPDATE SET seq = c.seq + excluded.seq
  RETURNING c.seq - $5::int AS base),
ins AS (
  INSERT INTO job_events (job_id, seq, owner, user_seq, type, data)
  SELECT $1, j.base + t.n, j.owner, c.base + t.u, t.type, t.data::jsonb
    FROM j CROSS JOIN unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS t(type, data, u, n)
    LEFT JOIN c ON true
  RETURNING 1)
SELECT pg_notify('${eventChannel}', $1) FROM j
UNION ALL
SELECT pg_notify('${userChannel}', owner) FROM j WHERE $5::int > 0${more}`;
const appendSql = appendSqlWith('', '');

/** The parameters of the statement above for one job's events, in order. */
function appendParams(jobId: string, events: readonly NewJobEvent[]): unknown[] {
  // Each status event's place among the batch's status events.
  let statuses = 0;
  const places = events.map((e) => (e.type === 'status' ? ++statuses : null));
  return [jobId, events.map((e) => e.type), events.map((e) => jsonText(e.data)), places, statuses];
}

/**
 * One job's events appended by the statement that also makes the change they tell (`set`: more assignments to the
 * job's row, with parameters from $6; `channel`: announced there too), so that the change costs no round trip more
 * than before the log. Made once per statement (its text is what the embedded database prepares).
 */
export function appendWithUpdate(set: string, channel: string) {
  const sql = appendSqlWith(`${set}, `, `\nUNION ALL\nSELECT pg_notify('${channel}', $1) FROM j`);
  return (tx: Queryable, jobId: string, events: readonly NewJobEvent[], params: unknown[]) =>
    tx.query(sql, [...appendParams(jobId, events), ...params]);
}

/**
 * A new job's first event (its PENDING, seq 1: the job is inserted with event_seq 1), as CTEs to follow the CTE
 * `inserted` that inserts the job (returning its id and owner) in the same statement, so that starting a job costs no
 * round trip more.
 */
export const firstEvent = (inserted: string) => `,
  first_counter AS (
    INSERT INTO event_counters AS c (owner, seq) SELECT owner, 1 FROM ${inserted}
    ON CONFLICT (owner) DO UPDATE SET seq = c.seq + 1
    RETURNING c.seq),
  first_event AS (
    INSERT INTO job_events (job_id, seq, owner, user_seq, type, data)
    SELECT i.id, 1, i.owner, c.seq, 'status', jsonb_build_object('job_id', i.id, 'status', 'PENDING')
      FROM ${inserted} i, first_counter c
    RETURNING job_id, owner)`;

/** Its announcements, for the statement's final SELECT … FROM first_event (one row when the job was inserted). */
export const firstEventNotices = `pg_notify('${eventChannel}', first_event.job_id), pg_notify('${userChannel}', first_event.owner)`;

/** Appends the events, job by job; the jobs' rows are locked first, in one order, when there are several. */
export async function appendEvents(tx: Queryable, events: readonly NewJobEvent[]): Promise<void> {
  const byJob = Map.groupBy(events, (e) => e.jobId);
  await lockJobs(tx, [...byJob.keys()]);
  for (const [jobId, mine] of byJob) await tx.query(appendSql, appendParams(jobId, mine));
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
