// Retention, run at start-up and every ten minutes (the contract's Retention convention; issue 11): ended jobs
// older than JES_RETENTION_DAYS with their inputs and outputs, then data files no job uses once as old,
// idempotency keys after 24 hours, and chunks of uploads cut off by a crash. In batches, yielding between
// them, so that requests are served meanwhile; on the embedded database the space is then reclaimed.
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { reclaimSpace, sweepUnfiled } from '../store/data-files.ts';
import type { Database } from '../store/database.ts';
import { deleteEndedJobs, deleteIdempotencyKeys, deleteUnusedDataFiles } from '../store/retention.ts';

export interface RetentionPolicy {
  /** Days an ended job and an unused data file are kept; undefined keeps them all. */
  retentionDays: number | undefined;
  /** An upload's chunks older than this belong to no request still receiving (twice the request timeout). */
  uploadAgeMs: number;
  /** Rows per transaction (a fiftieth as many data files: each may be 100 chunks of 1 MiB). */
  batch?: number;
}

export interface RetentionCounts {
  jobs: number;
  dataFiles: number;
  idempotencyKeys: number;
  uploadChunks: number;
}

const dayMs = 86_400_000;
const idempotencyMs = dayMs;
const intervalMs = 10 * 60_000;

/** One run against the clock `now` (tests pass theirs); `stopped` ends it between two batches. */
export async function runRetention(
  db: Database,
  policy: RetentionPolicy,
  now: Date,
  stopped: () => boolean = () => false,
): Promise<RetentionCounts> {
  const batch = policy.batch ?? 500;
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const drain = async (size: number, step: (size: number) => Promise<number>) => {
    let total = 0;
    while (!stopped()) {
      const deleted = await step(size);
      total += deleted;
      if (deleted < size) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  };
  const counts: RetentionCounts = { jobs: 0, dataFiles: 0, idempotencyKeys: 0, uploadChunks: 0 };
  if (policy.retentionDays !== undefined) {
    const before = ago(policy.retentionDays * dayMs);
    // Jobs first: a data file whose last job goes in this run goes in this run too.
    counts.jobs = await drain(batch, (n) => deleteEndedJobs(db, before, n));
    counts.dataFiles = await drain(Math.ceil(batch / 50), (n) => deleteUnusedDataFiles(db, before, n));
  }
  counts.idempotencyKeys = await drain(batch, (n) => deleteIdempotencyKeys(db, ago(idempotencyMs), n));
  counts.uploadChunks = await drain(batch, (n) => sweepUnfiled(db, 'uploads', ago(policy.uploadAgeMs), n));
  // Prepared inputs staged by a validation a crash cut off (validations.ts), by the same age.
  counts.uploadChunks += await drain(batch, (n) => sweepUnfiled(db, 'staged', ago(policy.uploadAgeMs), n));
  if (db.kind === 'embedded' && Object.values(counts).some((n) => n > 0)) {
    // No autovacuum there: without a VACUUM the deleted rows' space is never reused.
    await db.query('VACUUM jobs, executions, data_files, idempotency_keys').catch(() => {});
    // And the data files' bytes (dataFileByteTables), with the checkpoint that recycles the write-ahead log.
    reclaimSpace(db);
  }
  return counts;
}

/**
 * Sweeps, before the server listens, every upload chunk on the embedded database (no other process can be
 * receiving one), then runs retention now and every ten minutes until stopped.
 */
export async function startRetention(db: Database, config: Config, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const policy: RetentionPolicy = {
    retentionDays: config.retentionDays,
    uploadAgeMs: 2 * config.http.requestTimeoutMs,
  };
  if (db.kind === 'embedded') {
    const swept = await runRetention(db, { retentionDays: undefined, uploadAgeMs: 0 }, new Date());
    if (swept.uploadChunks) logger.info(`swept ${swept.uploadChunks} chunks of uploads cut off by a stop`);
  }
  let stopping = false;
  let running: Promise<void> | undefined;
  const run = () => {
    // A run still going at the next tick is not doubled.
    if (running || stopping) return;
    running = runRetention(db, policy, new Date(), () => stopping)
      .then(
        (counts) =>
          void (
            Object.values(counts).some((n) => n > 0) &&
            logger.info({ retention: counts }, 'retention: deleted what had expired')
          ),
        (err) => void logger.warn({ err }, 'retention run failed; the next one tries again'),
      )
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, intervalMs).unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
