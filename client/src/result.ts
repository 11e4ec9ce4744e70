// Turning openapi-fetch's answers into `Result`s: every non-2xx answer becomes a `Problem` with a `code`,
// even a body that is not one (a proxy's HTML page, an empty 502).
import type { Problem, Result } from './types.ts';

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { detail?: unknown }).detail === 'string'
  );
}

/** The problem in an error body, or one made from the status line when the body is not a problem. */
export function toProblem(body: unknown, response: Response): Problem {
  if (isProblem(body)) return body;
  const text = typeof body === 'string' ? body.trim().slice(0, 300) : '';
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: text || `The server answered ${response.status} ${response.statusText}`.trim() + ' without a problem body.',
    code: `http_${response.status}`,
  };
}

/** An openapi-fetch answer as a `Result`, its data passed through `map`. */
export function settle<D, T>(
  answer: { data?: D; error?: unknown; response: Response },
  map: (data: D) => T,
): Result<T> {
  const { response } = answer;
  if (!response.ok) return { error: toProblem(answer.error, response), response };
  return { data: map(answer.data as D), response };
}

/** The problem as the command line prints it: `code: detail`. */
export function formatProblem(problem: Pick<Problem, 'code' | 'detail'>): string {
  return `${problem.code}: ${problem.detail}`;
}

/** The single member of an envelope keyed by id (`{"job": {"K7Q2…": {...}}}`), with its id. */
export function unwrap<T extends object>(keyed: Record<string, T>): T & { id: string } {
  const [id, value] = Object.entries(keyed)[0] ?? [];
  if (id === undefined || value === undefined) throw new TypeError('expected an object keyed by one id');
  return { ...value, id };
}

/** The members of a listing keyed by id, in the order of `ids`. */
export function inOrder<T extends object>(keyed: Record<string, T>, ids: string[]): (T & { id: string })[] {
  return ids.flatMap((id) => (keyed[id] ? [{ ...keyed[id], id }] : []));
}
