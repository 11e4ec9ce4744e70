// Query values as the contract types them: Express 5 may hand back the raw strings after validation, and the
// validator's coercion lets "1e400" through as Infinity for an integer (ajv), so a page size is checked here too.
import { HttpProblem } from '../problems.ts';

export const queryList = (value: unknown) => (value === undefined ? undefined : [value].flat().map(String));
export const queryNumber = (value: unknown) => (value === undefined ? undefined : Number(value));

/** `limit` of a listing: the contract's Limit, an integer from 1 to 100, 20 when absent. */
export function pageLimit(value: unknown): number {
  const limit = queryNumber(value) ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new HttpProblem('invalid_request', 'The request does not match the API contract.', {
      errors: [{ pointer: '/query/limit', detail: 'must be an integer from 1 to 100' }],
    });
  }
  return limit;
}
