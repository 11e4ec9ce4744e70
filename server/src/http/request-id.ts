// Every request gets an id: the caller's X-Request-Id when it is a sane token, else a new one. It goes back
// in the X-Request-Id header of every response and in the body of every problem.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  req.id = given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
  res.set('X-Request-Id', req.id);
  next();
}
