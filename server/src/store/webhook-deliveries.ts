// The webhook outbox (webhook_deliveries): messages added in the transaction that changes a job's status, claimed
// by the sender with FOR UPDATE SKIP LOCKED under a lease (safe with any number of processes), their attempts
// recorded. A claim pushes next_attempt_at on by the lease, so a process that dies mid-attempt leaves the row due
// again after it; a record is kept only by the claim it answers (its attempt number), so a late one changes nothing.
import { terminalJob } from '@jes/contract';
import { webhookChannel } from './channels.ts';
import type { Database, Queryable } from './database.ts';

const jobSnapshotColumns =
  'id, owner, problem_id, status, input_mode, data_file_id, input_bytes, error, cancel_requested_at, submitted_at, running_at, ended_at';
// As a listing shows executions: without their data.
const executionSnapshotColumns =
  'job_id, solver, status, NULL::jsonb AS data, error, progress, best_value, time_limit_seconds, created_at, running_at, ended_at';

/**
 * SQL for "the job's owner has a webhook" (`owner`: a qualified column such as `jobs.owner`, as `webhooks` has an
 * `owner` too), for the RETURNING of the statement that changes a job's status: enqueueWebhooks is then called only
 * when there is one, so a change costs a user without a webhook no statement more (the INSERT … SELECT, even
 * inserting nothing, took 3 to 5 ms on the embedded database).
 */
export const ownerHasWebhook = (owner: string) =>
  `EXISTS (SELECT 1 FROM webhooks WHERE webhooks.owner = ${owner} AND webhooks.url IS NOT NULL)`;

/**
 * Queues the messages a change of these jobs to `status` makes, for the owners whose webhook asks for them:
 * `job.status_changed` for every change, `job.ended` when the status is terminal. Called inside the transaction
 * that made the change (settleJob, markJobsRunning), after it, with the job rows locked: the snapshot is the
 * job as it is now. One statement; nothing is inserted (an index lookup) for a user without a webhook.
 */
export async function enqueueWebhooks(tx: Queryable, jobIds: string | string[], status: string): Promise<void> {
  const ids = typeof jobIds === 'string' ? [jobIds] : jobIds;
  if (ids.length === 0) return;
  const types = terminalJob.has(status) ? ['job.status_changed', 'job.ended'] : ['job.status_changed'];
  await tx.query(
    `INSERT INTO webhook_deliveries (id, owner, job_id, type, url, snapshot, next_attempt_at)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), j.owner, j.id, t.type, w.url,
       jsonb_build_object(
         'job', (SELECT to_jsonb(x) FROM (SELECT ${jobSnapshotColumns} FROM jobs WHERE id = j.id) x),
         'executions', coalesce((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.seq)
           FROM (SELECT ${executionSnapshotColumns}, seq FROM executions WHERE job_id = j.id) x), '[]'::jsonb)),
       now()
       FROM jobs j
       JOIN webhooks w ON w.owner = j.owner AND w.url IS NOT NULL
       CROSS JOIN LATERAL unnest(w.events) AS t(type)
      WHERE j.id = ANY($1) AND t.type = ANY($2)
     RETURNING pg_notify($3, '')`,
    [ids, types, webhookChannel],
  );
}

export interface ClaimedDelivery {
  id: string;
  owner: string;
  job_id: string;
  type: string;
  url: string;
  snapshot: { job: Record<string, unknown>; executions: Record<string, unknown>[] };
  /** This attempt's number, from 1. */
  attempts: number;
  created_at: Date;
  /** The secrets that sign it: the current one, and the one before while it still signs. */
  secrets: string[];
}

/**
 * Claims up to `limit` due messages for `leaseSeconds`, counting the attempt about to be made. The due ids are taken
 * as an array (evaluated once, then looked up by the primary key): as `IN (subquery)` the planner hashed them and
 * scanned the whole outbox for each claim.
 */
export async function claimDeliveries(db: Database, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const rows = await db.query<Omit<ClaimedDelivery, 'secrets'> & { secret: string; previous_secret: string | null }>(
    `UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
       FROM webhooks w
      WHERE d.id = ANY (ARRAY(SELECT id FROM webhook_deliveries WHERE next_attempt_at <= now()
                               ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED))
        AND w.owner = d.owner
     RETURNING d.id, d.owner, d.job_id, d.type, d.url, d.snapshot, d.attempts, d.created_at, w.secret,
       CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS previous_secret`,
    [limit, leaseSeconds],
  );
  return rows.map(({ secret, previous_secret, ...row }) => ({
    ...row,
    secrets: previous_secret === null ? [secret] : [secret, previous_secret],
  }));
}

/**
 * How a claimed attempt went: delivered; failed with the next attempt in `retryInMs`, or for good (`retryInMs`
 * null); or `released`: cut short by a stopping process, handed back due now and not counted.
 */
export type AttemptRecord = { id: string; attempts: number } & (
  { outcome: 'delivered' } | { outcome: 'failed'; error: string; retryInMs: number | null } | { outcome: 'released' }
);

/**
 * Records attempts, any number in one statement (the sender records those that ended since its last look). Each is
 * ignored when its row was claimed again since (its lease ran out) or deleted.
 */
export async function recordAttempts(db: Database, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  // Columns as arrays, joined by the primary key: unnest's row count is known when planned, so each row is found by
  // the index (jsonb_to_recordset, planned for 100 rows, made the embedded database hash the whole outbox).
  await db.query(
    `UPDATE webhook_deliveries d SET
        attempts = CASE WHEN r.outcome = 'released' THEN d.attempts - 1 ELSE d.attempts END,
        delivered_at = CASE WHEN r.outcome = 'delivered' THEN now() END,
        last_error = CASE WHEN r.outcome = 'released' THEN d.last_error ELSE r.error END,
        next_attempt_at = CASE WHEN r.outcome = 'released' THEN now()
                               WHEN r.outcome = 'failed' AND r.retry_ms IS NOT NULL
                               THEN now() + make_interval(secs => r.retry_ms / 1000) END,
        failed = r.outcome = 'failed' AND r.retry_ms IS NULL
       FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::double precision[])
         AS r(id, attempts, outcome, error, retry_ms)
      WHERE d.id = r.id AND d.attempts = r.attempts`,
    [
      records.map((r) => r.id),
      records.map((r) => r.attempts),
      records.map((r) => r.outcome),
      records.map((r) => (r.outcome === 'failed' ? r.error : null)),
      records.map((r) => (r.outcome === 'failed' ? r.retryInMs : null)),
    ],
  );
}

/** Milliseconds until the next message is due (0 when one is due now), or null when none waits. */
export async function nextDueInMs(db: Database): Promise<number | null> {
  const [row] = await db.query<{ wait: number | null }>(
    `SELECT greatest(0, extract(epoch FROM min(next_attempt_at) - now()) * 1000)::double precision AS wait
       FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL`,
  );
  return row?.wait ?? null;
}

export interface DeliveryRow {
  id: string;
  type: string;
  job_id: string;
  url: string;
  attempts: number;
  created_at: Date;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  failed: boolean;
  last_error: string | null;
}

/** The user's most recent messages, newest first (listWebhookDeliveries). */
export async function listDeliveries(db: Database, owner: string, limit: number): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `SELECT id, type, job_id, url, attempts, created_at, next_attempt_at, delivered_at, failed, last_error
       FROM webhook_deliveries WHERE owner = $1 ORDER BY seq DESC LIMIT $2`,
    [owner, limit],
  );
}
