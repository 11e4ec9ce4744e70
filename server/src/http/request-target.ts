// The request line as Express expects it. An absolute-form target (`GET http://host/job`, which an HTTP/1.1
// server must accept) becomes its origin form (`/job`) before Express reads it. And since Node is told not to
// refuse a missing Host itself (it answered with an empty 400), an HTTP/1.1 request without one is refused here,
// as a problem.
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../core/api-error.ts';

export function originForm(req: IncomingMessage): void {
  if (!req.url || !/^[a-z][a-z0-9+.-]*:\/\//i.test(req.url)) return;
  try {
    const url = new URL(req.url);
    req.url = `${url.pathname}${url.search}`;
  } catch {
    // Not a URL after all: routing answers it as a path with no operation.
  }
}

export function requireHost(req: Request, _res: Response, next: NextFunction): void {
  if (req.httpVersion !== '1.0' && req.headers.host === undefined) {
    return next(
      new ApiError('invalid_request', 'An HTTP/1.1 request needs a Host header.', {
        errors: [{ pointer: '/header/host', detail: 'is required' }],
      }),
    );
  }
  next();
}
