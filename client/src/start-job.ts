// Starting a job: inline while the body stays under the inline limit, else (or when the service answers
// 413, or solver parameters need a body) the input is uploaded as a data file and the job started from it.
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';
import { settle } from './result.ts';
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

export async function startJob<P extends ProblemId>(api: Client<paths>, session: Session, maxInlineBytes: number, problemId: P, input: ProblemInputs[P] | DataFileInput, options: StartJobOptions = {}): Promise<Result<StartedJob>> {
  const path = { problem_id: problemId };
  const toStarted = (data: { detail: string; job: string }): StartedJob => ({ id: data.job, detail: data.detail });
  const choices = options.solvers?.map((s) => (typeof s === 'string' ? { name: s } : s));
  const limit = options.timeLimitSeconds !== undefined ? { time_limit_seconds: options.timeLimitSeconds } : {};
  const fromDataFile = (id: string) =>
    session.authed(async () => settle(await api.POST('/problem/{problem_id}', { params: { path }, body: { data_file_identifier: id, ...(choices ? { solvers: choices } : {}), ...limit } }), toStarted));

  if ('data_file_identifier' in input) return fromDataFile(input.data_file_identifier);
  const json = JSON.stringify(input);
  const needsBody = choices?.some((choice) => choice.params !== undefined) ?? false;
  if (!needsBody && !reaches(json, maxInlineBytes)) {
    const query = { ...(choices ? { solver: choices.map((c) => c.name) } : {}), ...limit };
    const inline = await session.authed(async () => settle(await api.POST('/problem/{problem_id}', { params: { path, query }, body: input, bodySerializer: () => json }), toStarted));
    if (inline.error?.code !== 'payload_too_large') return inline;
  }
  const upload = await uploadDataFile(api, session, { problemId, file: new Blob([json], { type: 'application/json' }), name: `${problemId}-input.json` });
  if (upload.error) return upload;
  const started = await fromDataFile(upload.data.id);
  return started.data ? { data: { ...started.data, dataFile: upload.data }, response: started.response } : started;
}
