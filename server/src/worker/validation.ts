// Validating an uploaded data file, as a task a worker claims (store/validations.ts): its use case reads the
// chunks once, and the outcome is recorded: READY (format, size, and the prepared input every job of the file
// will load instead of parsing it again) or INVALID (a problem with pointers to the offending lines). A database
// failure is no verdict: the file stays PROCESSING, and its lease runs out for another try, up to
// maxValidationAttempts; then the file is INVALID. ValidationTasks is a worker's side of it: when to look for a
// file, and the lease of the one it validates.
import { Worker } from 'node:worker_threads';
import type { DiskSpace } from '../store/disk-space.ts';
import type { Logger } from 'pino';
import { errorBody } from '../core/api-error.ts';
import type { Database } from '../store/database.ts';
import { readChunks, reclaimSpace } from '../store/data-files.ts';
import {
  type ClaimedValidation,
  claimValidation,
  isValidationAnnouncement,
  recordValidation,
  releaseValidations,
  renewValidations,
  type Validation,
} from '../store/validations.ts';
import { type ChunkMessage, validate, type VerdictMessage } from './validation-thread.ts';
import { threadModule } from './thread-module.ts';
import { traceValidation } from './spans.ts';

const threadStart = threadModule('validation-thread');

/**
 * The file's verdict from a thread of its own (validation-thread.ts), fed the chunks as they are read here; a
 * database failure while reading them rejects (no verdict: the file is tried again), as does a thread that dies.
 */
async function inThread(problemId: string, chunks: AsyncIterable<Uint8Array>): Promise<VerdictMessage> {
  const thread = new Worker(threadStart.url, {
    argv: threadStart.argv,
    workerData: { validation: true, problemId },
  });
  try {
    const verdict = new Promise<VerdictMessage>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the validation thread exited (${code}) without a verdict`)));
    });
    // A verdict may come before the end (the first bad line): the rest of the file is not read.
    let given = false;
    void verdict.then(
      () => (given = true),
      () => (given = true),
    );
    for await (const chunk of chunks) {
      if (given) break;
      // Moved, not copied, when the chunk has its memory to itself (a pooled Buffer shares it: copied first).
      const own =
        chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength
          ? chunk
          : Uint8Array.prototype.slice.call(chunk);
      const message: ChunkMessage = { chunk: own };
      thread.postMessage(message, [own.buffer as ArrayBuffer]);
    }
    if (!given) thread.postMessage({ end: true } satisfies ChunkMessage);
    return await verdict;
  } finally {
    await thread.terminate();
  }
}

/** Files up to this size are validated on the main thread: one chunk, parsed in milliseconds. */
const inPlaceBytes = 1024 * 1024;

/** How long a worker claims no file after giving one back for want of room on the disk. */
const postponedMs = 30_000;

/** Claims of one file before it is given up: INVALID, failing its jobs, rather than tried for good. */
export const maxValidationAttempts = 3;

/** Validates a claimed file and records its verdict; 'postponed' when the disk has no room for its prepared input. */
export async function validateDataFile(
  db: Database,
  file: ClaimedValidation,
  log: Logger,
  space?: DiskSpace,
): Promise<'recorded' | 'postponed'> {
  const { owner, id } = file;
  if (file.attempt > maxValidationAttempts) {
    log.error({ dataFile: id }, `data file validation given up after ${maxValidationAttempts} tries without a verdict`);
    const detail = `The data file could not be validated: ${maxValidationAttempts} tries ended without a verdict (the service failed each time). Upload it again, or tell the operator.`;
    await recordValidation(db, owner, id, { error: errorBody('data_file_invalid', detail) });
    db.metrics?.jobs.validated('unknown', 'given_up');
    reclaimSpace(db);
    return 'recorded';
  }
  // A small file is checked here at once: a thread of its own costs more to start than it saves.
  const verdict =
    file.bytes <= inPlaceBytes
      ? await validate(file.problem_id, readChunks(db, owner, id))
      : await inThread(file.problem_id, readChunks(db, owner, id));
  let validation: Validation;
  if ('ready' in verdict) {
    const { format, numNodes, numEdges, prepared } = verdict;
    if (space && !space.room(prepared.length)) {
      log.warn(
        `no room on the disk for the prepared input (${prepared.length} bytes); validated again once space is freed`,
      );
      db.metrics?.jobs.validated(format, 'postponed');
      return 'postponed';
    }
    validation = { format, numNodes, numEdges, prepared };
  } else if ('invalid' in verdict) {
    validation = { error: errorBody('data_file_invalid', verdict.message, { errors: verdict.errors }) };
  } else {
    log.error({ err: verdict, dataFile: id }, 'data file validation failed unexpectedly');
    validation = { error: errorBody('data_file_invalid', 'The data file could not be read.') };
  }
  await recordValidation(db, owner, id, validation);
  db.metrics?.jobs.validated(
    'format' in validation ? validation.format : 'unknown',
    'format' in validation ? 'valid' : 'invalid' in verdict ? 'invalid' : 'failed',
  );
  // An INVALID file's bytes were dropped: on the embedded database their space is reclaimed.
  if ('error' in validation) reclaimSpace(db);
  return 'recorded';
}

/**
 * The validations one worker takes on, one at a time beside its runs: when to look for a file, claiming it under
 * a lease, renewing that lease and giving it back.
 *
 * A file may be waiting at start, after an upload's announcement, a validation, a reconnect, a quiet poll or a
 * heartbeat (which also covers a lease that ran out while the loop is kept busy), not after a claim found none:
 * so a claim loop busy with jobs asks for files twice a second, not each time round. `announced` counts uploads'
 * announcements, so one that comes while a claim is under way is not forgotten.
 */
export class ValidationTasks {
  private validating: Promise<void> | undefined;
  private due = true;
  private announced = 0;
  private readonly db: Database;
  private readonly worker: string;
  private readonly leaseSeconds: number;
  private readonly logger: Logger;
  private readonly space: DiskSpace | undefined;
  /** After a file was given back for want of room, none is claimed before this (performance.now()). */
  private resumeAt = 0;

  constructor(db: Database, worker: string, leaseSeconds: number, logger: Logger, space?: DiskSpace) {
    this.db = db;
    this.worker = worker;
    this.leaseSeconds = leaseSeconds;
    this.logger = logger;
    this.space = space;
  }

  /** An announcement on the work channel: an upload's makes a validation due. */
  heard(payload: string): void {
    if (!isValidationAnnouncement(payload)) return;
    this.announced++;
    this.due = true;
  }

  /** Looks for a file at the next chance (a reconnect, a quiet poll, a heartbeat). */
  markDue(): void {
    this.due = true;
  }

  /**
   * Claims a file to validate when one may be waiting and none is under way; returns its validation, which runs
   * beside the runs (never rejects), or undefined.
   */
  async claim(): Promise<Promise<void> | undefined> {
    if (this.validating || !this.due) return undefined;
    // Below the disk's floor no file is validated: its prepared input would be written into the reserve. The
    // heartbeat makes one due again, and it is taken once space is freed.
    if (this.space?.state() === 'low' || performance.now() < this.resumeAt) return undefined;
    const before = this.announced;
    const file = await claimValidation(this.db, this.worker, this.leaseSeconds);
    if (!file) {
      if (before === this.announced) this.due = false;
      return undefined;
    }
    const log = this.logger.child({ dataFile: file.id });
    const validating = traceValidation(file, () => validateDataFile(this.db, file, log, this.space))
      .then(async (done) => {
        // No room for its prepared input: given back (the try does not count), taken again once space is freed.
        if (done !== 'postponed') return;
        this.resumeAt = performance.now() + postponedMs;
        await releaseValidations(this.db, this.worker);
      })
      .catch((err) =>
        log.warn(
          { err, attempt: file.attempt },
          `could not validate the data file (try ${file.attempt} of ${maxValidationAttempts}); it is tried again when its lease runs out`,
        ),
      )
      .finally(() => {
        this.validating = undefined;
        this.due = true;
      });
    this.validating = validating;
    return validating;
  }

  /** Renews the lease of the file under validation (a heartbeat). */
  async renew(): Promise<void> {
    if (this.validating) await renewValidations(this.db, this.worker, this.leaseSeconds);
  }

  /** Gives back the file under validation, if any (the worker stops). */
  release(): Promise<void> {
    return releaseValidations(this.db, this.worker);
  }
}
