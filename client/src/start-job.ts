// Starting a job: inline while the body stays under the inline limit, else (or when the service answers
// 413, or solver parameters need a body) the input is uploaded as a data file and the job started from it.
// Every start carries an Idempotency-Key and is retried with it when the network or a gateway fails.
import type { Client } from 'openapi-fetch';
import type { paths } from '@jes/contract';
import { settle } from './result.ts';
import { derivedKey, newIdempotencyKey, type RetryOptions, withRetries } from './retry.ts';
import type { Session } from './session.ts';
import type { DataFile, DataFileInput, ProblemId, ProblemInputs, Result, SolverChoice } from './types.ts';
import { uploadDataFile } from './upload.ts';

/** An inline body must be smaller than this: 4 MiB (the contract's `max_bytes`). */
export const MAX_INLINE_BYTES = 4_194_304;

export interface StartJobOptions {
  /** Solvers by name, or with parameters (`{ name: 'local-search', params: { seed: 42 } }`). */
  solvers?: readonly (string | SolverChoice)[];
  /** The time limit of each solver run, in seconds. */
  timeLimitSeconds?: number;
  /**
   * The Idempotency-Key (default: a new random UUID). Pass the same key to retry a start whose answer was
   * lost (within 24 hours): the service answers the job it started then instead of starting another.
   */
  idempotencyKey?: string;
  /** Retrying after a network failure, 502, 503 or 504 (with the same key). */
  retry?: RetryOptions;
  /** Stops the call (and its retries). */
  signal?: AbortSignal;
}

export interface StartedJob {
  id: string;
  detail: string;
  /** The data file the input was uploaded as, when it did not go inline. */
  dataFile?: DataFile;
}

/** The UTF-8 size of `text`, without encoding it when its length alone settles the comparison. */
function reaches(text: string, limit: number): boolean {
  return text.length >= limit || new TextEncoder().encode(text).byteLength >= limit;
}

export async function startJob<P extends ProblemId>(
  api: Client<paths>,
  session: Session,
  maxInlineBytes: number,
  problemId: P,
  input: ProblemInputs[P] | DataFileInput,
  options: StartJobOptions = {},
): Promise<Result<StartedJob>> {
  const path = { problem_id: problemId };
  const toStarted = (data: { detail: string; job: string }): StartedJob => ({ id: data.job, detail: data.detail });
  const choices = options.solvers?.map((s) => (typeof s === 'string' ? { name: s } : s));
  const limit = options.timeLimitSeconds !== undefined ? { time_limit_seconds: options.timeLimitSeconds } : {};
  const key = options.idempotencyKey ?? newIdempotencyKey();
  const header = { 'Idempotency-Key': key };
  const retry = { ...options.retry, ...(options.signal ? { signal: options.signal } : {}) };
  const signal = options.signal ? { signal: options.signal } : {};
  const fromDataFile = (id: string) =>
    session.authed(() =>
      withRetries(
        async () =>
          settle(
            await api.POST('/problem/{problem_id}', {
              params: { path, header },
              body: { data_file_identifier: id, ...(choices ? { solvers: choices } : {}), ...limit },
              ...signal,
            }),
            toStarted,
          ),
        retry,
      ),
    );

  if ('data_file_identifier' in input) return fromDataFile(input.data_file_identifier);
  const json = JSON.stringify(input);
  const needsBody = choices?.some((choice) => choice.params !== undefined) ?? false;
  if (!needsBody && !reaches(json, maxInlineBytes)) {
    const query = { ...(choices ? { solver: choices.map((c) => c.name) } : {}), ...limit };
    // A refused inline body (413) is not remembered by the service: the start from the data file reuses the key.
    const inline = await session.authed(() =>
      withRetries(
        async () =>
          settle(
            await api.POST('/problem/{problem_id}', {
              params: { path, query, header },
              body: input,
              bodySerializer: () => json,
              ...signal,
            }),
            toStarted,
          ),
        retry,
      ),
    );
    if (inline.error?.code !== 'payload_too_large') return inline;
  }
  const upload = await uploadDataFile(api, session, {
    problemId,
    file: new Blob([json], { type: 'application/json' }),
    name: `${problemId}-input.json`,
    idempotencyKey: derivedKey(key, 'upload'),
    ...(options.retry && { retry: options.retry }),
    ...signal,
  });
  if (upload.error) return upload;
  const started = await fromDataFile(upload.data.id);
  return started.data ? { data: { ...started.data, dataFile: upload.data }, response: started.response } : started;
}
