// Which request is being served, for code that runs outside Express's reach (an unhandled rejection, an
// uncaught exception): the process guard logs such a failure with the request's id and still answers it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

export const requestContext = new AsyncLocalStorage<{ req: Request; res: Response }>();

export function withRequestContext(req: Request, res: Response, next: NextFunction): void {
  requestContext.run({ req, res }, next);
}
