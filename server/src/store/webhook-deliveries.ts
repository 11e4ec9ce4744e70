// The webhook outbox (webhook_deliveries): messages added in the transaction that changes a job's status, claimed
// by the sender with FOR UPDATE SKIP LOCKED under a lease (safe with any number of processes), their attempts
// recorded. A claim pushes next_attempt_at on by the lease, so a process that dies mid-attempt leaves the row due
// again after it; a record is kept only by the claim it answers (its attempt number), so a late one changes nothing.
import { terminalJob } from '@jes/contract';
import type { Database, Queryable } from './database.ts';

/** Announced when a message is added: the senders of every process wake up. */
export const webhookChannel = 'jes_webhook';

const jobSnapshotColumns =
  'id, owner, problem_id, status, input_mode, data_file_id, input_bytes, error, cancel_requested_at, submitted_at, running_at, ended_at';
// As a listing shows executions: without their data.
const executionSnapshotColumns =
  'job_id, solver, status, NULL::jsonb AS data, error, progress, best_value, time_limit_seconds, created_at, running_at, ended_at';

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

/** Claims up to `limit` due messages for `leaseSeconds`, counting the attempt about to be made. */
export async function claimDeliveries(db: Database, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const rows = await db.query<Omit<ClaimedDelivery, 'secrets'> & { secret: string; previous_secret: string | null }>(
    `UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
       FROM webhooks w
      WHERE d.id IN (SELECT id FROM webhook_deliveries WHERE next_attempt_at <= now()
                      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
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
 * Records how a claimed attempt went: delivered; failed with the next attempt in `retryInMs`; or failed for good
 * (`retryInMs` null). Ignored when the row was claimed again since (its lease ran out) or deleted.
 */
export async function recordAttempt(
  db: Database,
  claimed: { id: string; attempts: number },
  outcome: { delivered: true } | { delivered: false; error: string; retryInMs: number | null },
): Promise<void> {
  if (outcome.delivered) {
    await db.query(
      `UPDATE webhook_deliveries SET delivered_at = now(), next_attempt_at = NULL, last_error = NULL
        WHERE id = $1 AND attempts = $2`,
      [claimed.id, claimed.attempts],
    );
    return;
  }
  await db.query(
    `UPDATE webhook_deliveries SET last_error = $3,
        next_attempt_at = CASE WHEN $4::double precision IS NULL THEN NULL
                               ELSE now() + make_interval(secs => $4::double precision / 1000) END,
        failed = $4::double precision IS NULL
      WHERE id = $1 AND attempts = $2`,
    [claimed.id, claimed.attempts, outcome.error, outcome.retryInMs],
  );
}

/** Hands a claimed message back, due now and its attempt not counted: a stopping process cut the attempt short. */
export async function releaseDelivery(db: Database, claimed: { id: string; attempts: number }): Promise<void> {
  await db.query(
    'UPDATE webhook_deliveries SET attempts = attempts - 1, next_attempt_at = now() WHERE id = $1 AND attempts = $2',
    [claimed.id, claimed.attempts],
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
