// How a command ends: an exit code and what to print. 0 ok, 1 a job ended in ERROR or CANCELLED,
// 2 usage, 3 an HTTP or problem error (printed as `code: detail`).
import { formatProblem, type Problem, type Result } from '../index.ts';

export const exitCodes = { ok: 0, jobFailed: 1, usage: 2, problem: 3 } as const;

export class ExitError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;
  constructor(message: string, exitCode: number, hint?: string) {
    super(message);
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

export const usageError = (message: string) => new ExitError(message, exitCodes.usage);

const hints: Record<string, string> = {
  missing_token: 'log in with: jes login --username NAME',
  invalid_token: 'log in again with: jes login --username NAME',
};

export function problemError(problem: Problem): ExitError {
  return new ExitError(formatProblem(problem), exitCodes.problem, hints[problem.code]);
}

/** The data of `result`, or an ExitError carrying its problem. */
export function must<T>(result: Result<T>): T {
  if (result.error) throw problemError(result.error);
  return result.data;
}

/** A failed `fetch` (nothing listening, DNS) as an ExitError naming the URL. */
export function connectionError(error: unknown, baseUrl: string): ExitError | undefined {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return undefined;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new ExitError(`connection_failed: cannot reach ${baseUrl} (${cause?.code ?? cause?.message ?? 'no answer'})`, exitCodes.problem, 'start the server (npm start) or the sandbox (npm run sandbox), or pass --base-url');
}
