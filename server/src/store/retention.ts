// Retention in the database (the contract's Retention convention): ended jobs, data files no job uses and
// idempotency keys, each deleted by age, one batch per transaction so that no run holds its locks for long.
// Each function deletes at most `batch` and answers how many it deleted: the caller repeats while it is `batch`
// (a run that stops early, a row having gone meanwhile, leaves the rest to the next run).
import type { Database } from './database.ts';
import { terminalJob } from '@jes/contract';
import { jobChannel } from './channels.ts';

const ended = [...terminalJob];

/** Ended jobs whose end is before `before`, with their executions (inputs and outputs) and webhook messages. */
export async function deleteEndedJobs(db: Database, before: Date, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    const candidates = await tx.query<{ id: string }>(
      'SELECT id FROM jobs WHERE ended_at < $1 AND status = ANY($3) ORDER BY ended_at LIMIT $2',
      [before, batch, ended],
    );
    if (candidates.length === 0) return 0;
    const ids = candidates.map((c) => c.id);
    // Executions before jobs, as requestCancel and deleteEndedJob lock them (and a worker's claim, then settle), each
    // in one order: no deadlock with them nor with another process's run.
    await tx.query('SELECT 1 FROM executions WHERE job_id = ANY($1) ORDER BY job_id, seq FOR UPDATE', [ids]);
    // Again under the lock: a user may have deleted one meanwhile. An ended job never runs again.
    const locked = await tx.query<{ id: string }>(
      'SELECT id FROM jobs WHERE id = ANY($1) AND ended_at < $2 AND status = ANY($3) ORDER BY id FOR UPDATE',
      [ids, before, ended],
    );
    const gone = locked.map((j) => j.id);
    await tx.query('DELETE FROM executions WHERE job_id = ANY($1)', [gone]);
    await tx.query('DELETE FROM job_events WHERE job_id = ANY($1)', [gone]);
    await tx.query('DELETE FROM webhook_deliveries WHERE job_id = ANY($1)', [gone]);
    await tx.query('DELETE FROM jobs WHERE id = ANY($1)', [gone]);
    // Every process drops them from its cache of ended jobs.
    await tx.query('SELECT pg_notify($1, id) FROM unnest($2::text[]) AS id', [jobChannel, gone]);
    return gone.length;
  });
}

/** Data files created before `before` that no job uses any more (whatever its status), with their bytes. */
export async function deleteUnusedDataFiles(db: Database, before: Date, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    // Skipping a file locked by a job being created with it (createJob holds it FOR SHARE): it will be in use.
    const files = await tx.query<{ owner: string; id: string }>(
      `SELECT owner, id FROM data_files d
        WHERE created_at < $1 AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.owner = d.owner AND j.data_file_id = d.id)
        ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [before, batch],
    );
    let deleted = 0;
    for (const { owner, id } of files) {
      // Asked again in a statement of its own, under the lock (a newer snapshot): a job created with this file
      // after the query above began and before the lock was taken is seen here; later ones wait for the lock.
      const [used] = await tx.query('SELECT 1 FROM jobs WHERE owner = $1 AND data_file_id = $2 LIMIT 1', [owner, id]);
      if (used) continue;
      await tx.query('DELETE FROM data_file_chunks WHERE owner = $1 AND id = $2', [owner, id]);
      await tx.query('DELETE FROM data_file_prepared WHERE owner = $1 AND id = $2', [owner, id]);
      await tx.query('DELETE FROM data_files WHERE owner = $1 AND id = $2', [owner, id]);
      deleted++;
    }
    return deleted;
  });
}

/** Idempotency keys recorded before `before` (the contract replays a key for 24 hours). */
export async function deleteIdempotencyKeys(db: Database, before: Date, batch: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM idempotency_keys WHERE (owner, key) IN (SELECT owner, key FROM idempotency_keys WHERE created_at < $1 LIMIT $2) RETURNING 1`,
    [before, batch],
  );
  return rows.length;
}
