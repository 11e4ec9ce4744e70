// Query values as the contract types them: Express 5 may hand back the raw strings after validation, and the
// validator's coercion lets "1e400" through as Infinity (ajv), so a page size and a time limit are checked here too.
import { ApiError } from '../core/api-error.ts';

export const queryList = (value: unknown) => (value === undefined ? undefined : [value].flat().map(String));
export const queryNumber = (value: unknown) => (value === undefined ? undefined : Number(value));

/** `limit` of a listing: the contract's Limit, an integer from 1 to 100, 20 when absent. */
export function pageLimit(value: unknown): number {
  const limit = queryNumber(value) ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiError('invalid_request', 'The request does not match the API contract.', {
      errors: [{ pointer: '/query/limit', detail: 'must be an integer from 1 to 100' }],
    });
  }
  return limit;
}

/**
 * `time_limit_seconds` of a start: the contract's TimeLimitSeconds, above 0 and at most 3600, or undefined. The
 * validator let `?time_limit_seconds=1e309` through as Infinity: a solver run without end (issue 27).
 */
export function timeLimitQuery(value: unknown): number | undefined {
  const seconds = queryNumber(value);
  if (seconds !== undefined && !(seconds > 0 && seconds <= 3600)) {
    throw new ApiError('invalid_request', 'The request does not match the API contract.', {
      errors: [{ pointer: '/query/time_limit_seconds', detail: 'must be a number above 0 and at most 3600' }],
    });
  }
  return seconds;
}
