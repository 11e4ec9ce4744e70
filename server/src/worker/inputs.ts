// The inputs of the jobs whose executions run on this worker: a job's input, as its use case prepared it (stored
// when the job was accepted or its data file validated), is loaded once by the first of its executions here and
// shared with the others until the last one releases it.
import type { Logger } from 'pino';
import type { Database } from '../store/database.ts';
import { readChunks } from '../store/data-files.ts';
import type { Claimed } from '../store/queue.ts';
import { readInlineInput, readPreparedDataFile } from '../store/validations.ts';
import { findUseCase } from '../use-cases.ts';
import { SolverFailedError } from './errors.ts';

/** How a load is tried again through the database's failures (Outcomes.retry). */
type Retry = <T>(fn: () => Promise<T>, log: Logger, what: string) => Promise<T>;

export class JobInputs {
  private readonly inputs = new Map<string, { input: Promise<unknown>; users: number }>();

  private readonly db: Database;
  private readonly retry: Retry;

  constructor(db: Database, retry: Retry) {
    this.db = db;
    this.retry = retry;
  }

  /** The job's input, loaded by the first of its executions here and shared with the others; release() after. */
  acquire(execution: Claimed, log: Logger): Promise<unknown> {
    let entry = this.inputs.get(execution.job_id);
    if (!entry) {
      entry = { input: this.retry(() => this.load(execution), log, 'loading the input'), users: 0 };
      this.inputs.set(execution.job_id, entry);
    }
    entry.users++;
    return entry.input;
  }

  release(jobId: string): void {
    const entry = this.inputs.get(jobId);
    if (entry && --entry.users === 0) this.inputs.delete(jobId);
  }

  private async load(execution: Claimed): Promise<unknown> {
    const { db } = this;
    const useCase = findUseCase(execution.problem_id);
    if (!useCase) throw new SolverFailedError(`This server does not run use case "${execution.problem_id}".`);
    if (execution.input_mode === 'data_file') {
      const prepared = await readPreparedDataFile(db, execution.owner, execution.data_file_id!);
      if (prepared) return useCase.decode(prepared);
      // A file validated before inputs were prepared (an older version of this server): read it again.
      return (await useCase.readDataFile(readChunks(db, execution.owner, execution.data_file_id!))).input;
    }
    // A small input came with the claim.
    const stored = execution.input
      ? { prepared: execution.input_prepared, bytes: execution.input }
      : await readInlineInput(db, execution.job_id);
    if (!stored) throw new Error(`job ${execution.job_id} is gone`);
    if (stored.prepared) return useCase.decode(stored.bytes);
    return useCase.checkInline(JSON.parse(Buffer.from(stored.bytes).toString('utf8'))).prepare();
  }
}
