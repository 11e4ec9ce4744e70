// Data files in the database: their records, and their bytes in chunks of at most 1 MiB (stored while the
// upload streams in, under a temporary id, then renamed to the SHA-1 of the bytes).
import type { ErrorBody } from '../core/api-error.ts';
import { ApiError } from '../core/api-error.ts';
import { inTurn } from './chunk-turns.ts';
import type { Database, Queryable } from './database.ts';
import { claimKey, type IdempotentRequest, recordAnswer, type StoredAnswer } from './idempotency-keys.ts';
import { page, type PageFilter } from './pages.ts';
import { workChannel } from './channels.ts';
import { validationAnnouncement } from './validations.ts';

export interface DataFileRow {
  owner: string;
  id: string;
  problem_id: string;
  name: string;
  description: string | null;
  bytes: number;
  status: 'PROCESSING' | 'READY' | 'INVALID';
  format: string | null;
  num_nodes: number | null;
  num_edges: number | null;
  error: ErrorBody | null;
  created_at: Date;
  validated_at: Date | null;
}

const columns =
  'owner, id, problem_id, name, description, bytes, status, format, num_nodes, num_edges, error, created_at, validated_at';

export async function storeChunk(
  db: Database,
  owner: string,
  id: string,
  part: number,
  bytes: Uint8Array,
): Promise<void> {
  await db.query('INSERT INTO data_file_chunks (owner, id, part, bytes) VALUES ($1, $2, $3, $4)', [
    owner,
    id,
    part,
    bytes,
  ]);
}

export async function discardChunks(db: Database, owner: string, id: string): Promise<void> {
  await db.query('DELETE FROM data_file_chunks WHERE owner = $1 AND id = $2', [owner, id]);
  reclaimSpace(db);
}

/**
 * The tables that hold a data file's bytes (as uploaded, and as prepared for its jobs): deleted, their space is
 * reused only once they are vacuumed. data_file_prepared was left out, and six uploads and deletions of a 79 MB file
 * grew the data directory from 39 to 565 MiB with no file left (issue 28).
 */
export const dataFileByteTables = ['data_file_chunks', 'data_file_prepared'] as const;

const reclaiming = new WeakMap<Database, { again: boolean }>();

/**
 * After a data file's bytes are deleted, on the embedded database: it has neither autovacuum nor a checkpointer, so
 * without a VACUUM the space of deleted bytes is never reused, and without a CHECKPOINT the write-ahead log that wrote them
 * is never recycled: every refused 100 MiB upload grew the data directory for good. One at a time; deletions
 * meanwhile ask for one more. PostgreSQL's own background processes do this there.
 */
export function reclaimSpace(db: Database): void {
  if (db.kind !== 'embedded') return;
  const running = reclaiming.get(db);
  if (running) return void (running.again = true);
  const state = { again: false };
  reclaiming.set(db, state);
  void (async () => {
    do {
      state.again = false;
      // A database closed meanwhile (shutdown) has nothing left to reclaim.
      await db
        .query(`VACUUM ${dataFileByteTables.join(', ')}`)
        .then(() => db.query('CHECKPOINT'))
        .catch(() => {});
    } while (state.again);
    reclaiming.delete(db);
  })();
}

/**
 * Bytes written under a provisional id before they are filed under a data file's: an upload's chunks
 * (`upload:<uuid>`, http/upload.ts) and a validation's prepared input (`staging:<uuid>`, validations.ts). A crash in
 * between leaves them behind (an upload up to 100 MiB).
 */
const unfiled = {
  uploads: { table: 'data_file_chunks', prefix: 'upload:' },
  staged: { table: 'data_file_prepared', prefix: 'staging:' },
} as const;

/** Deletes up to `batch` parts of `kind` written before `before` and never filed; answers how many. The caller reclaims. */
export async function sweepUnfiled(
  db: Database,
  kind: keyof typeof unfiled,
  before: Date,
  batch: number,
): Promise<number> {
  const { table, prefix } = unfiled[kind];
  const rows = await db.query(
    `DELETE FROM ${table} WHERE (owner, id, part) IN
       (SELECT owner, id, part FROM ${table} WHERE id LIKE '${prefix}%' AND created_at < $1 LIMIT $2)
     RETURNING 1`,
    [before, batch],
  );
  return rows.length;
}

export interface NewDataFile {
  owner: string;
  uploadId: string;
  id: string;
  problemId: string;
  name: string;
  description: string | undefined;
  bytes: number;
  /** The bytes the owner's data files may hold in all; undefined for no quota. */
  quotaBytes?: number | undefined;
  /** The W3C traceparent of the upload's request (tracing on): the validation's span continues that trace. */
  traceparent?: string | null;
}

export interface Filed {
  created: boolean;
  row: DataFileRow;
}

/** An Idempotency-Key to claim with the upload, and the answer it will replay (built from what was filed). */
export interface UploadRememberedAs {
  request: IdempotentRequest;
  answer(filed: Filed): StoredAnswer;
}

/**
 * Files an upload under its identifier; when the owner already has those bytes, keeps the existing record.
 * With `remembered`, claims its key in the same transaction (KeyInUse when a live row holds the key).
 */
export async function completeUpload(db: Database, file: NewDataFile, remembered?: UploadRememberedAs): Promise<Filed> {
  const filed = await db.transaction(async (tx) => {
    // First: a concurrent retry with the same key waits here for this one, then replays it.
    if (remembered) await claimKey(tx, file.owner, remembered.request);
    const filed = await fileUpload(tx, file);
    if (remembered) await recordAnswer(tx, file.owner, remembered.request.key, remembered.answer(filed));
    return filed;
  });
  // The same bytes again: the upload's own copy was deleted.
  if (!filed.created) reclaimSpace(db);
  return filed;
}

/**
 * The bytes a user's data files hold: READY ones and those being validated (an INVALID file's bytes are dropped at
 * its verdict), and the chunks of uploads still coming in (1 MiB each, at most), so that uploads at once count
 * against one another.
 */
export async function storedBytes(db: Queryable, owner: string): Promise<number> {
  const [row] = await db.query<{ files: string | number; uploading: string | number }>(
    `SELECT (SELECT coalesce(sum(bytes), 0) FROM data_files WHERE owner = $1 AND status <> 'INVALID') AS files,
            (SELECT count(*) FROM data_file_chunks WHERE owner = $1 AND id LIKE 'upload:%') AS uploading`,
    [owner],
  );
  return Number(row!.files) + Number(row!.uploading) * 1024 * 1024;
}

/** The problem of an upload past its owner's quota, saying how much is used and allowed. */
export function quotaExceeded(used: number, quota: number): ApiError {
  return new ApiError(
    'storage_quota_exceeded',
    `Your data files may hold ${quota} bytes in all; they hold ${used}. Delete some (DELETE /data_file/{id}) to upload more.`,
    { max_bytes: quota, used_bytes: used },
  );
}

async function fileUpload(tx: Queryable, file: NewDataFile): Promise<Filed> {
  const [existing] = await tx.query<DataFileRow>(
    `SELECT ${columns} FROM data_files WHERE owner = $1 AND id = $2 FOR UPDATE`,
    [file.owner, file.id],
  );
  if (existing) {
    await tx.query('DELETE FROM data_file_chunks WHERE owner = $1 AND id = $2', [file.owner, file.uploadId]);
    // Files are known by their bytes: the same bytes for another use case would answer the other's record.
    if (existing.problem_id !== file.problemId)
      throw new ApiError(
        'data_file_problem_mismatch',
        `These bytes are already uploaded for use case "${existing.problem_id}", as data file ${existing.id}; delete it to upload them for "${file.problemId}".`,
        {
          errors: [
            {
              pointer: '/problem_id',
              detail: `the same bytes are data file ${existing.id} of "${existing.problem_id}"`,
            },
          ],
        },
      );
    return { created: false, row: existing };
  }
  if (file.quotaBytes !== undefined) {
    // One upload at a time per user past this point (PostgreSQL: processes apart), so two cannot both fit.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`data_files:${file.owner}`]);
    const [row] = await tx.query<{ used: string | number }>(
      `SELECT coalesce(sum(bytes), 0) AS used FROM data_files WHERE owner = $1 AND status <> 'INVALID'`,
      [file.owner],
    );
    if (Number(row!.used) + file.bytes > file.quotaBytes) throw quotaExceeded(Number(row!.used), file.quotaBytes);
  }
  await tx.query('DELETE FROM data_file_chunks WHERE owner = $1 AND id = $2', [file.owner, file.id]);
  await tx.query('DELETE FROM data_file_prepared WHERE owner = $1 AND id = $2', [file.owner, file.id]);
  await tx.query('UPDATE data_file_chunks SET id = $3 WHERE owner = $1 AND id = $2', [
    file.owner,
    file.uploadId,
    file.id,
  ]);
  const [row] = await tx.query<DataFileRow>(
    `INSERT INTO data_files (owner, id, problem_id, name, description, bytes, status, traceparent) VALUES ($1, $2, $3, $4, $5, $6, 'PROCESSING', $7) RETURNING ${columns}`,
    [file.owner, file.id, file.problemId, file.name, file.description ?? null, file.bytes, file.traceparent ?? null],
  );
  // A validation task: a worker claims it (validations.ts).
  await tx.query('SELECT pg_notify($1, $2)', [workChannel, validationAnnouncement(file.id)]);
  return { created: true, row: row! };
}

/** A data file's bytes, chunk by chunk, each read in its turn (chunk-turns.ts); they end early if it is deleted. */
export async function* readChunks(db: Database, owner: string, id: string): AsyncGenerator<Uint8Array> {
  for (let part = 0; ; part++) {
    const [bytes] = await inTurn(db, () =>
      db.bytes('SELECT bytes FROM data_file_chunks WHERE owner = $1 AND id = $2 AND part = $3', [owner, id, part]),
    );
    if (!bytes) return;
    yield bytes;
  }
}

export async function readDataFile(db: Database, owner: string, id: string): Promise<DataFileRow | undefined> {
  const [row] = await db.query<DataFileRow>(`SELECT ${columns} FROM data_files WHERE owner = $1 AND id = $2`, [
    owner,
    id,
  ]);
  return row;
}

export function listDataFiles(
  db: Database,
  owner: string,
  filter: PageFilter,
): Promise<{ rows: DataFileRow[]; hasMore: boolean }> {
  return page<DataFileRow>(db, 'data_files', columns, owner, filter);
}

export async function deleteDataFile(db: Database, owner: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query('SELECT 1 FROM data_files WHERE owner = $1 AND id = $2 FOR UPDATE', [owner, id]);
    if (!row) throw new ApiError('data_file_not_found', `No data file ${id} exists for this user.`);
    const [job] = await tx.query<{ id: string }>(
      `SELECT id FROM jobs WHERE owner = $1 AND data_file_id = $2 AND status IN ('PENDING', 'RUNNING') LIMIT 1`,
      [owner, id],
    );
    if (job) throw new ApiError('data_file_in_use', `Job ${job.id}, which has not ended, uses data file ${id}.`);
    await tx.query('DELETE FROM data_file_chunks WHERE owner = $1 AND id = $2', [owner, id]);
    await tx.query('DELETE FROM data_file_prepared WHERE owner = $1 AND id = $2', [owner, id]);
    await tx.query('DELETE FROM data_files WHERE owner = $1 AND id = $2', [owner, id]);
  });
  reclaimSpace(db);
}
