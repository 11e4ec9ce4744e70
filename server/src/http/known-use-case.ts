// The use case a request names: `POST /problem/{problem_id}`, `GET /problem/{problem_id}` and an upload's
// `problem_id`. Any id that names no use case, whatever its shape (capitals, hyphens), is `404
// problem_not_found` with the ids there are. On the problem paths it is checked once the request is
// authenticated and counted, before its body is read: a typo is a typo whatever the body says.
import type { NextFunction, Request, Response } from 'express';
import type { UseCase } from '../core/use-case.ts';
import { useCases } from '../use-cases.ts';
import { ApiError } from '../core/api-error.ts';

const clipped = (id: string) => (id.length > 64 ? `${id.slice(0, 64)}…` : id);

/** What to tell a client that named no use case. */
export const noSuchUseCase = (id: string): string =>
  `Use case "${clipped(id)}" does not exist; the use cases are: ${[...useCases.keys()].join(', ')}.`;

/** The use case named `id`, or the 404 that says which ones there are. */
export function useCase(id: string): UseCase {
  const found = useCases.get(id);
  if (!found) throw new ApiError('problem_not_found', noSuchUseCase(id));
  return found;
}

const problemPath = /^\/problem\/([^/]+)$/;

/** Refuses a request to /problem/{problem_id} whose id names no use case (routing has matched the path already). */
export function useCaseFirst(req: Request, _res: Response, next: NextFunction): void {
  const segment = problemPath.exec(req.path)?.[1];
  if (segment === undefined) return next();
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    const errors = [{ pointer: '/path/problem_id', detail: 'must be valid percent-encoded UTF-8' }];
    return next(new ApiError('invalid_request', 'The request does not match the API contract.', { errors }));
  }
  useCase(id);
  // A percent-encoded spelling of a use case's id is routed to the templated operation, whose body is any use
  // case's: starting a job there would let one use case's input reach another's. Its own path is the way.
  if (req.method === 'POST' && segment !== id) {
    const errors = [{ pointer: '/path/problem_id', detail: `write the use case's id as it is: /problem/${id}` }];
    return next(new ApiError('invalid_request', 'The request does not match the API contract.', { errors }));
  }
  next();
}
