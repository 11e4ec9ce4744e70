// How a command ends: an exit code and what to print. 0 ok, 1 a job ended in ERROR or CANCELLED, 2 usage,
// 3 an HTTP or problem error, 130 interrupted (Ctrl-C). A failure prints as `code: detail` with the problem's
// `errors` under it and a hint naming a jes command; with --json, as the JSON object itself on stderr.
import { formatProblem, type Problem, type Result } from '../index.ts';

export const exitCodes = { ok: 0, jobFailed: 1, usage: 2, problem: 3, interrupted: 130 } as const;

/** What a failed command reports: the API's problem, or `{ code, detail }` for the command line's own errors. */
export type Failure = Pick<Problem, 'code' | 'detail'> & Partial<Problem>;

export class ExitError extends Error {
  readonly exitCode: number;
  /** Undefined when there is nothing to add (a job that ended in ERROR has been shown already). */
  readonly failure: Failure | undefined;
  readonly hint: string | undefined;
  constructor(exitCode: number, failure?: Failure, hint?: string) {
    super(failure ? formatProblem(failure) : '');
    this.exitCode = exitCode;
    this.failure = failure;
    this.hint = hint;
  }
}

/** The code of every usage error, commander's included: bad arguments or options, an unusable URL or file. */
export const usageCode = 'usage_error';

export const usageError = (detail: string) => new ExitError(exitCodes.usage, { code: usageCode, detail });

/** The job a command works on, for hints that name the next command to run. */
export interface Subject {
  job?: string;
}

const pointerHints: Record<string, string> = {
  '/path/job_id': 'jes jobs lists your jobs',
  '/path/data_file_identifier': 'jes data-files list lists your data files',
};

/** A hint naming the jes command that helps with `problem`, if there is one. */
export function hintFor(problem: Failure, { job = '<job-id>' }: Subject = {}): string | undefined {
  switch (problem.code) {
    case 'missing_token':
      return 'log in with: jes login --username NAME (or set JES_TOKEN)';
    case 'invalid_token':
      return 'log in again with: jes login --username NAME';
    case 'job_not_found':
      return 'jes jobs lists your jobs';
    case 'data_file_not_found':
      return 'jes data-files list lists your data files';
    case 'solver_not_found':
      return "jes problems lists each use case's solvers";
    case 'job_not_finished':
      return `wait for it to end with: jes wait ${job} (or stop it with: jes cancel ${job})`;
    case 'data_file_in_use':
      return 'jes jobs lists your jobs; wait for those using it to end, or stop them with: jes cancel <job-id>';
    case 'too_many_active_jobs':
      return 'jes jobs lists your jobs; wait for one to end, or stop one with: jes cancel <job-id>';
    case 'idempotency_key_reused':
      return 'that key belongs to a different request: leave out --idempotency-key, or give a new one';
    case 'connection_failed':
      return 'start the server (npm start) or the sandbox (npm run sandbox), or pass --base-url';
    case 'rate_limited':
      return 'run the command again in a few seconds';
    case 'too_many_streams':
      return 'stop another jes watch (or stream of yours), or run the command again in a few seconds';
    case 'webhook_url_refused':
      return 'the service calls public http(s) addresses only; its operator may allow a host in JES_WEBHOOK_ALLOW_HOSTS';
    case 'invalid_request':
      return problem.errors?.map((e) => pointerHints[e.pointer]).find((hint) => hint !== undefined);
    default:
      return undefined;
  }
}

export function problemError(problem: Failure, subject?: Subject): ExitError {
  return new ExitError(exitCodes.problem, problem, hintFor(problem, subject));
}

/** The data of `result`, or an ExitError carrying its problem (with a hint about `subject`). */
export function must<T>(result: Result<T>, subject?: Subject): T {
  if (result.error) throw problemError(result.error, subject);
  return result.data;
}

/** `code: detail`, then each of the problem's `errors` as `  pointer: detail` (commander's style for usage). */
export function failureText(failure: Failure): string {
  const head = failure.code === usageCode ? `error: ${failure.detail}` : formatProblem(failure);
  return [head, ...(failure.errors ?? []).map((e) => `  ${e.pointer}: ${e.detail}`)].join('\n');
}

/** A failed `fetch` (nothing listening, DNS) as an ExitError naming the URL. */
export function connectionError(error: unknown, baseUrl: string): ExitError | undefined {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return undefined;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? 'no answer';
  return problemError({ code: 'connection_failed', detail: `cannot reach ${baseUrl} (${why})` });
}
