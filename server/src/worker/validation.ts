// Validating an uploaded data file, as a task a worker claims (store/validations.ts): its use case reads the
// chunks once, and the outcome is recorded: READY (format, size, and the prepared input every job of the file
// will load instead of parsing it again) or INVALID (a problem with pointers to the offending lines). A database
// failure is no verdict: the file stays PROCESSING, and its lease runs out for another try, up to
// maxValidationAttempts; then the file is INVALID. ValidationTasks is a worker's side of it: when to look for a
// file, and the lease of the one it validates.
import type { Logger } from 'pino';
import { InputError } from '../input-error.ts';
import { problemBody } from '../problems.ts';
import type { Database } from '../store/database.ts';
import { readChunks, reclaimSpace } from '../store/data-files.ts';
import { isTransient } from '../store/transient.ts';
import {
  type ClaimedValidation,
  claimValidation,
  isValidationAnnouncement,
  recordValidation,
  releaseValidations,
  renewValidations,
  type Validation,
} from '../store/validations.ts';
import { findUseCase } from '../use-cases.ts';

/** Claims of one file before it is given up: INVALID, failing its jobs, rather than tried for good. */
export const maxValidationAttempts = 3;

export async function validateDataFile(db: Database, file: ClaimedValidation, log: Logger): Promise<void> {
  const { owner, id } = file;
  if (file.attempt > maxValidationAttempts) {
    log.error({ dataFile: id }, `data file validation given up after ${maxValidationAttempts} tries without a verdict`);
    const detail = `The data file could not be validated: ${maxValidationAttempts} tries ended without a verdict (the service failed each time). Upload it again, or tell the operator.`;
    await recordValidation(db, owner, id, { error: problemBody('data_file_invalid', detail) });
    return reclaimSpace(db);
  }
  let validation: Validation;
  try {
    const useCase = findUseCase(file.problem_id);
    if (!useCase) throw new InputError(`This server does not run use case "${file.problem_id}".`);
    const { format, input } = await useCase.readDataFile(readChunks(db, owner, id));
    const size = useCase.size(input);
    validation = { format, numNodes: size.nodes, numEdges: size.edges, prepared: useCase.encode(input) };
  } catch (error) {
    if (isTransient(error)) throw error;
    if (!(error instanceof InputError))
      log.error({ err: error, dataFile: id }, 'data file validation failed unexpectedly');
    const detail = error instanceof InputError ? error.message : 'The data file could not be read.';
    validation = {
      error: problemBody('data_file_invalid', detail, error instanceof InputError ? { errors: error.errors } : {}),
    };
  }
  await recordValidation(db, owner, id, validation);
  // An INVALID file's bytes were dropped: on the embedded database their space is reclaimed.
  if ('error' in validation) reclaimSpace(db);
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

  constructor(db: Database, worker: string, leaseSeconds: number, logger: Logger) {
    this.db = db;
    this.worker = worker;
    this.leaseSeconds = leaseSeconds;
    this.logger = logger;
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
    const before = this.announced;
    const file = await claimValidation(this.db, this.worker, this.leaseSeconds);
    if (!file) {
      if (before === this.announced) this.due = false;
      return undefined;
    }
    const log = this.logger.child({ dataFile: file.id });
    const validating = validateDataFile(this.db, file, log)
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
