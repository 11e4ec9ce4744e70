// Data files as the sandbox keeps them: known by the SHA-1 of their bytes, validated at once by the use case's
// reader (@jes/contract/inputs: the same verdict, reasons and pointers as a deployment's), the verdict shown once
// the file's simulated validation has taken its time (PROCESSING until then). A valid file keeps its bytes (a
// job's input) and its prepared input (the answers of the jobs started from it); an INVALID one keeps neither.
import { createHash } from 'node:crypto';
import { type ErrorBody, errorBody } from '@jes/contract';
import { InputError } from '@jes/contract/inputs';
import type { Prepared, SandboxUseCase } from './inputs.ts';

export type Verdict = { format: string; prepared: Prepared } | { error: ErrorBody };

export interface DataFileRecord {
  id: string;
  owner: string;
  problemId: string;
  name: string;
  description: string | undefined;
  uploadedAt: number;
  /** When its verdict shows (wall ms). */
  validatedAt: number;
  /** Its size as uploaded. */
  size: number;
  /** Its bytes, kept while it is valid (GET /job/{job_id}/input of a job started from it). */
  bytes: Buffer | undefined;
  verdict: Verdict;
  heldBytes: number;
}

/** The identifier of a file: the SHA-1 of its bytes in lower-case hex, as the contract defines it. */
export const dataFileId = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex');

/** The verdict a deployment's validation gives a file of this use case. */
export async function validate(useCase: SandboxUseCase, bytes: Buffer): Promise<Verdict> {
  try {
    return await useCase.dataFile(bytes);
  } catch (error) {
    if (error instanceof InputError)
      return { error: errorBody('data_file_invalid', error.message, { errors: error.errors }) };
    return { error: errorBody('data_file_invalid', 'The data file could not be read.') };
  }
}

/** The bytes a file holds in memory: its bytes and its prepared input while valid, a record's worth when INVALID. */
export const heldBytesOf = (bytes: Buffer, verdict: Verdict): number =>
  1024 + ('prepared' in verdict ? bytes.length + verdict.prepared.bytes : 0);
