// Filling a store directly through the store module (not through the API), so that a benchmark or a query-plan
// test can start from 100,000 ended jobs in seconds: each table is one INSERT … SELECT over generate_series.
// The rows look like the server's own: FINISHED jobs on 8-node inputs (one in ten a QUBO, one in ten on a data
// file) with a successful `exact` execution whose output is a real-looking cut, and READY data files with a
// small edge list as their bytes. Timestamps go back ten seconds a job, within the default 30-day retention.
import type { Database } from '../../server/src/store/database.ts';
import { newJobId } from '../../server/src/store/jobs.ts';
import { migrate } from '../../server/src/store/migrations.ts';

export interface SeedCounts {
  /** Ended (FINISHED) jobs, each with one execution. */
  jobs: number;
  /** READY data files. */
  dataFiles: number;
}

/** The users the rows are spread over, round robin; the first is the one a benchmark or test acts as. */
export const seedOwners = ['bench', 'ada', 'grace', 'edsger'];

/** The inline body of every seeded job (a real 8-node body, as the benchmark submits). */
const inlineBody =
  '{"num_nodes":8,"adj_matrix":[[0,3,0,7,1,0,5,2],[3,0,4,0,0,6,1,0],[0,4,0,2,8,0,0,3],[7,0,2,0,0,1,9,0],' +
  '[1,0,8,0,0,4,0,6],[0,6,0,1,4,0,2,0],[5,1,0,9,0,2,0,7],[2,0,3,0,6,0,7,0]]}';

/** A data file's bytes: a small edge list (8 nodes, 10 edges). */
const edgeList = '8 10\n1 2 3\n1 4 7\n2 3 4\n2 6 6\n3 5 8\n4 7 9\n5 6 4\n5 8 6\n6 7 2\n7 8 7\n';

// SQL pieces over the series' `i`: ids of the contract's shapes, stable from run to run (md5 of the index).
const jobId = (i: string) => `upper(substr(md5('jes-seed-job-' || ${i}), 1, 12))`;
const fileId = (i: string) => `md5('jes-seed-file-' || ${i}) || substr(md5('jes-seed-file-tail-' || ${i}), 1, 8)`;
const owners = seedOwners.length;
const owner = (i: string) => `($1::text[])[1 + ${i} % ${owners}]`;
/** What job i is, the same for each owner: every tenth of an owner's jobs a QUBO, another tenth on a data file. */
const kind = (i: string) => `(${i} / ${owners}) % 10`;

/** Migrates `db` and adds the seed's users (without a usable password: the server sets the ones it is given). */
export async function prepareStore(db: Database): Promise<void> {
  await migrate(db);
  await db.query(
    `INSERT INTO users (name, password_hash) SELECT unnest($1::text[]), 'seeded' ON CONFLICT (name) DO NOTHING`,
    [seedOwners],
  );
}

/**
 * Adds `counts` rows, then VACUUM ANALYZE and CHECKPOINT, as a store in use for a while has had: the planner sees the
 * store as it is, and neither an autovacuum of the new rows nor the flush of their pages comes later, during a
 * measurement. Call prepareStore first.
 */
export async function seedStore(db: Database, counts: SeedCounts): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO data_files (owner, id, problem_id, name, description, bytes, status, format, num_nodes, num_edges,
                               created_at, validated_at)
       SELECT ${owner('i')}, ${fileId('i')}, 'maxcut', 'graph-' || i || '.txt', NULL, $2, 'READY', 'edge_list', 8, 10,
              now() - make_interval(secs => ($3 - i) * 60), now() - make_interval(secs => ($3 - i) * 60 - 1)
         FROM generate_series(1, $3) AS i`,
      [seedOwners, Buffer.byteLength(edgeList), counts.dataFiles],
    );
    await tx.query(`INSERT INTO data_file_chunks (owner, id, part, bytes) SELECT owner, id, 0, $1 FROM data_files`, [
      Buffer.from(edgeList),
    ]);
    await tx.query(
      `INSERT INTO jobs (id, owner, problem_id, status, input_mode, data_file_id, input_bytes, input, input_prepared,
                         submitted_at, running_at, ended_at)
       SELECT ${jobId('i')}, ${owner('i')}, CASE WHEN ${kind('i')} = 3 THEN 'qubo' ELSE 'maxcut' END, 'FINISHED',
              CASE WHEN file > 0 THEN 'data_file' ELSE 'inline' END,
              CASE WHEN file > 0 THEN ${fileId('file')} END,
              CASE WHEN file > 0 THEN $3 ELSE octet_length($2) END,
              CASE WHEN file > 0 THEN NULL ELSE $2::bytea END, false,
              at - interval '40 milliseconds', at - interval '30 milliseconds', at
         FROM generate_series(1, $4) AS i,
              LATERAL (SELECT now() - make_interval(secs => ($4 - i) * 10) AS at,
                              -- one of the owner's data files: the same i modulo the number of owners
                              CASE WHEN ${kind('i')} = 5 AND $5 >= ${2 * owners}
                                   THEN ${owners} * (1 + (i / ${owners}) % ($5 / ${owners} - 1)) + i % ${owners}
                                   ELSE 0 END AS file) AS t`,
      [seedOwners, Buffer.from(inlineBody), Buffer.byteLength(edgeList), counts.jobs, counts.dataFiles],
    );
    // An exact run's output: the cut of bits of i, proved optimal.
    await tx.query(
      `INSERT INTO executions (job_id, solver, params, time_limit_seconds, seed, status, data, best_value, attempts,
                               worker, created_at, running_at, ended_at)
       SELECT ${jobId('i')}, 'exact', '{}', 10, i, 'SUCCESS',
              CASE WHEN ${kind('i')} = 3
                THEN jsonb_build_object('energy', -value, 'assignment', bits, 'optimal', true, 'lower_bound', -value,
                                        'iterations', 128, 'time_to_best_seconds', 0.001)
                ELSE jsonb_build_object('cut_value', value, 'partition', bits, 'optimal', true, 'upper_bound', value,
                                        'iterations', 128, 'time_to_best_seconds', 0.001) END,
              CASE WHEN ${kind('i')} = 3 THEN -value ELSE value END, 1, 'seeded-worker',
              at - interval '40 milliseconds', at - interval '30 milliseconds', at
         FROM generate_series(1, $1) AS i,
              LATERAL (SELECT now() - make_interval(secs => ($1 - i) * 10) AS at, 20 + i % 30 AS value,
                              (SELECT jsonb_agg((i >> b) & 1 ORDER BY b) FROM generate_series(0, 7) AS b) AS bits) AS t`,
      [counts.jobs],
    );
  });
  await db.query('VACUUM ANALYZE');
  // PostgreSQL lets only superusers and pg_checkpoint run it: elsewhere its own checkpointer comes in time.
  await db.query('CHECKPOINT').catch((error: { code?: string }) => {
    if (error.code !== '42501') throw error;
  });
}

/**
 * The jobs a benchmark reads, newest of all, owned by the first seed owner: one FINISHED (served from the server's
 * memory once read) and one RUNNING (its execution leased to a worker that never comes: run the server with
 * JES_WORKERS=0, so nothing takes the lease back and it stays RUNNING).
 */
export async function seedReadFixtures(db: Database): Promise<{ finished: string; running: string }> {
  const [finished, running] = [newJobId(), newJobId()];
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO jobs (id, owner, problem_id, status, input_mode, input_bytes, input, submitted_at, running_at, ended_at)
       VALUES ($1, $3, 'maxcut', 'FINISHED', 'inline', octet_length($4::bytea), $4::bytea, now() - interval '2 s', now() - interval '2 s', now() - interval '1 s'),
              ($2, $3, 'maxcut', 'RUNNING', 'inline', octet_length($4::bytea), $4::bytea, now(), now(), NULL)`,
      [finished, running, seedOwners[0], Buffer.from(inlineBody)],
    );
    await tx.query(
      `INSERT INTO executions (job_id, solver, params, time_limit_seconds, seed, status, data, progress, best_value,
                               attempts, worker, lease_owner, lease_expires_at, created_at, running_at, ended_at)
       VALUES ($1, 'exact', '{}', 10, 1, 'SUCCESS', $3, NULL, 37, 1, 'seeded-worker', NULL, NULL,
               now() - interval '2 s', now() - interval '2 s', now() - interval '1 s'),
              ($2, 'local-search', '{}', 3600, 2, 'RUNNING', NULL, 0.25, 35, 1, 'seeded-worker', 'seeded-worker',
               now() + interval '1 day', now(), now(), NULL)`,
      [
        finished,
        running,
        JSON.stringify({
          cut_value: 37,
          partition: [0, 1, 0, 1, 1, 0, 1, 0],
          optimal: true,
          upper_bound: 37,
          iterations: 128,
          time_to_best_seconds: 0,
        }),
      ],
    );
  });
  return { finished, running };
}
