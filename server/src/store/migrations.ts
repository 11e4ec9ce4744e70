// The SQL schema, as numbered migrations applied in order at start-up (under an advisory lock, so several
// processes starting on one PostgreSQL apply each migration once).
import { createHash } from 'node:crypto';
import type { Database } from './database.ts';

const migrations: string[] = [
  `
  CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);

  CREATE TABLE users (
    name text PRIMARY KEY,
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE data_files (
    owner text NOT NULL REFERENCES users (name),
    id text NOT NULL,
    problem_id text NOT NULL,
    name text NOT NULL,
    description text,
    bytes integer NOT NULL,
    status text NOT NULL,
    format text,
    num_nodes integer,
    num_edges integer,
    error jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    validated_at timestamptz,
    seq bigserial NOT NULL,
    PRIMARY KEY (owner, id)
  );
  CREATE INDEX data_files_listing ON data_files (owner, seq DESC);
  CREATE INDEX data_files_processing ON data_files (seq) WHERE status = 'PROCESSING';

  -- File contents in chunks of at most 1 MiB, under the final identifier or, during an upload, a temporary one.
  CREATE TABLE data_file_chunks (
    owner text NOT NULL,
    id text NOT NULL,
    part integer NOT NULL,
    bytes bytea NOT NULL,
    PRIMARY KEY (owner, id, part)
  );

  CREATE TABLE jobs (
    id text PRIMARY KEY,
    owner text NOT NULL REFERENCES users (name),
    problem_id text NOT NULL,
    status text NOT NULL,
    input_mode text NOT NULL,
    data_file_id text,
    input_bytes integer NOT NULL,
    input bytea,
    error jsonb,
    cancel_requested_at timestamptz,
    submitted_at timestamptz NOT NULL DEFAULT now(),
    running_at timestamptz,
    ended_at timestamptz,
    seq bigserial NOT NULL
  );
  -- The inline body is JSON of up to 4 MiB, read back whole by the worker: store it uncompressed.
  ALTER TABLE jobs ALTER COLUMN input SET STORAGE EXTERNAL;
  CREATE INDEX jobs_listing ON jobs (owner, seq DESC);
  CREATE INDEX jobs_active ON jobs (owner) WHERE status IN ('PENDING', 'RUNNING');
  CREATE INDEX jobs_by_data_file ON jobs (owner, data_file_id) WHERE status IN ('PENDING', 'RUNNING');

  -- One row per solver run: also the work queue (PENDING rows), claimed with FOR UPDATE SKIP LOCKED under a lease.
  CREATE TABLE executions (
    job_id text NOT NULL REFERENCES jobs (id),
    solver text NOT NULL,
    params jsonb NOT NULL DEFAULT '{}',
    time_limit_seconds double precision NOT NULL,
    seed integer NOT NULL,
    status text NOT NULL,
    data jsonb,
    error jsonb,
    progress double precision,
    best_value double precision,
    attempts integer NOT NULL DEFAULT 0,
    worker text,
    lease_owner text,
    lease_expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    running_at timestamptz,
    ended_at timestamptz,
    seq bigserial NOT NULL,
    PRIMARY KEY (job_id, solver)
  );
  CREATE INDEX executions_queue ON executions (seq) WHERE status = 'PENDING';
  CREATE INDEX executions_leases ON executions (lease_expires_at) WHERE status IN ('PREPARING', 'RUNNING');
  `,
  `
  -- A user JES_USERS no longer names is disabled, not deleted (its jobs and data files refer to it). Tokens carry
  -- the token version they were issued under: a new version (a new password, a disabled user) revokes them all.
  ALTER TABLE users ADD COLUMN disabled_at timestamptz;
  ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;
  `,
  `
  -- Idempotency-Key: what an accepted POST answered, per user and key, replayed for 24 hours.
  CREATE TABLE idempotency_keys (
    owner text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer NOT NULL,
    body jsonb NOT NULL,
    location text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, key)
  );
  CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

  -- Retention: ended jobs and data files by age, and which jobs use a data file whatever their status.
  CREATE INDEX jobs_ended ON jobs (ended_at) WHERE ended_at IS NOT NULL;
  CREATE INDEX jobs_using_data_file ON jobs (owner, data_file_id) WHERE data_file_id IS NOT NULL;
  CREATE INDEX data_files_age ON data_files (created_at);

  -- Chunks of an upload cut off by a crash (temporary ids upload:<uuid>) are swept by age.
  ALTER TABLE data_file_chunks ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
  CREATE INDEX data_file_chunks_uploads ON data_file_chunks (created_at) WHERE id LIKE 'upload:%';
  `,
  `
  -- Crashes (a lease run out, or an embedded start-up after a kill) are blamed on an execution only when it
  -- was alone in flight on the dead worker: crashes counts those blames, suspect marks an execution that was in
  -- flight at a crash (it then runs alone), lost_from names the last worker that lost it (to count, per dead
  -- worker, what it had in flight even when its leases expire in different passes).
  ALTER TABLE executions ADD COLUMN crashes integer NOT NULL DEFAULT 0;
  ALTER TABLE executions ADD COLUMN suspect boolean NOT NULL DEFAULT false;
  ALTER TABLE executions ADD COLUMN lost_from text;
  CREATE INDEX executions_lost_from ON executions (lost_from) WHERE lost_from IS NOT NULL;
  `,
  `
  -- best_value is kept once an execution ends (contract 1.4.0): a success's is its result's cut, as recorded
  -- from now on by finish (queue.ts). Those that ended before are given theirs.
  UPDATE executions SET best_value = (data->>'cut_value')::double precision
   WHERE status = 'SUCCESS' AND best_value IS NULL AND data->>'cut_value' IS NOT NULL
  `,
  `
  -- Inputs are parsed once (issue 14). An inline job stores the smaller of its prepared input and its JSON
  -- text (input_prepared says which: older rows hold their text). A data file's prepared input is
  -- stored beside its bytes once validated. Validation is a queued task: a worker claims a PROCESSING file
  -- under a lease, renewed while it reads the file.
  ALTER TABLE jobs ADD COLUMN input_prepared boolean NOT NULL DEFAULT false;
  CREATE TABLE data_file_prepared (
    owner text NOT NULL,
    id text NOT NULL,
    part integer NOT NULL,
    bytes bytea NOT NULL,
    PRIMARY KEY (owner, id, part)
  );
  ALTER TABLE data_file_prepared ALTER COLUMN bytes SET STORAGE EXTERNAL;
  ALTER TABLE data_files ADD COLUMN lease_owner text;
  ALTER TABLE data_files ADD COLUMN lease_expires_at timestamptz
  `,
  `
  -- A page of a user's jobs or data files filtered by status or use case (pages.ts), in order from the index: by
  -- the listing index alone, a status or a use case the user has few of was looked for among all their rows, 8 to
  -- 15 ms a page with 25,000 of them on the embedded database (issue 15, "flat as the store grows").
  CREATE INDEX jobs_listing_by_status ON jobs (owner, status, seq DESC);
  CREATE INDEX jobs_listing_by_problem ON jobs (owner, problem_id, seq DESC);
  CREATE INDEX data_files_listing_by_status ON data_files (owner, status, seq DESC);
  CREATE INDEX data_files_listing_by_problem ON data_files (owner, problem_id, seq DESC)
  `,
  `
  -- Each claim of a file to validate counts (validations.ts): a validation that keeps failing for reasons of its
  -- own (a crash, a verdict the database refuses) ends INVALID after a few tries instead of being retried for good.
  ALTER TABLE data_files ADD COLUMN validation_attempts integer NOT NULL DEFAULT 0
  `,
  `
  -- A prepared input is written a part at a time under a staging id before its file is READY (validations.ts): parts
  -- a crash leaves behind are swept by their age.
  ALTER TABLE data_file_prepared ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()
  `,
  `
  -- Job events (issue 31): each job's log, numbered per job by jobs.event_seq (taken under the job's row lock in the
  -- transaction that makes the change, so seq N+1 never commits before N). A job's status events are numbered
  -- per user too (user_seq, from event_counters under the same transaction) for GET /events. The jobs there are
  -- given their status as their one event.
  ALTER TABLE jobs ADD COLUMN event_seq bigint NOT NULL DEFAULT 0;
  ALTER TABLE executions ADD COLUMN progress_history jsonb;
  CREATE TABLE job_events (
    job_id text NOT NULL,
    seq bigint NOT NULL,
    owner text NOT NULL,
    user_seq bigint,
    type text NOT NULL,
    data jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, seq)
  );
  CREATE INDEX job_events_by_user ON job_events (owner, user_seq) WHERE user_seq IS NOT NULL;
  CREATE TABLE event_counters (owner text PRIMARY KEY, seq bigint NOT NULL);
  INSERT INTO job_events (job_id, seq, owner, user_seq, type, data, at)
    SELECT id, 1, owner, row_number() OVER (PARTITION BY owner ORDER BY seq), 'status',
           jsonb_build_object('job_id', id, 'status', status), coalesce(ended_at, running_at, submitted_at)
      FROM jobs;
  UPDATE jobs SET event_seq = 1;
  INSERT INTO event_counters (owner, seq) SELECT owner, count(*) FROM jobs GROUP BY owner
  `,
  `
  -- Webhooks (contract 1.7.0): one per user, made with its secret on first read, url NULL when none is set. The
  -- previous secret signs too until previous_secret_expires_at (24 h after a rotation).
  CREATE TABLE webhooks (
    owner text PRIMARY KEY REFERENCES users (name),
    url text,
    events text[] NOT NULL DEFAULT '{job.ended}',
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at timestamptz
  );
  -- The outbox: a row per message, added in the transaction that changed the job's status (webhook-deliveries.ts),
  -- so a crash loses none, and sent by a loop that claims due rows (next_attempt_at <= now()) with FOR UPDATE SKIP
  -- LOCKED, a claim pushing next_attempt_at on by a lease. next_attempt_at is NULL once delivered or failed.
  -- snapshot holds the job's row and its executions' as they were (rendered at each attempt, the same bytes).
  CREATE TABLE webhook_deliveries (
    id text PRIMARY KEY,
    owner text NOT NULL,
    job_id text NOT NULL,
    type text NOT NULL,
    url text NOT NULL,
    snapshot jsonb NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    delivered_at timestamptz,
    failed boolean NOT NULL DEFAULT false,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    seq bigserial NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
  CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (owner, seq DESC);
  CREATE INDEX webhook_deliveries_by_job ON webhook_deliveries (job_id)
  `,
  `
  -- Tracing (issue 33): the W3C traceparent of the request that started a job or uploaded a data file (NULL when it
  -- was not traced). The worker that claims the job's executions, or validates the file, continues that trace.
  ALTER TABLE jobs ADD COLUMN traceparent text;
  ALTER TABLE data_files ADD COLUMN traceparent text
  `,
];

/** Names the schema the migrations make: a kept cluster made by other migrations is never loaded (fresh-cluster.ts). */
export const schemaDigest: string = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 12);

export async function migrate(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7270001)');
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const [row] = await tx.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    for (let version = (row?.version ?? 0) + 1; version <= migrations.length; version++) {
      // One statement at a time: PGlite's extended protocol takes a single statement per query.
      for (const statement of migrations[version - 1]!.split(';')
        .map((sql) => sql.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    }
  });
}
