// Bearer authentication for every operation but login and health: `req.user` is the token's subject.
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../core/api-error.ts';
import { InvalidTokenError, type TokenIssuer } from './tokens.ts';

declare module 'express-serve-static-core' {
  interface Request {
    user: string;
  }
}

export const challenge = 'Bearer realm="jes"';
const isPublic = (req: Request) => (req.path === '/login' && req.method === 'POST') || req.path === '/healthz';

export function authenticate(tokens: TokenIssuer) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (isPublic(req)) return next();
    const header = req.get('authorization');
    const match = header ? /^Bearer +([^\s]+) *$/i.exec(header) : null;
    if (!match) {
      const detail = header
        ? 'The Authorization header must be "Bearer <access_token>".'
        : 'This operation needs an Authorization: Bearer <access_token> header; get a token with POST /login.';
      if (!header) return next(new ApiError('missing_token', detail, { headers: { 'WWW-Authenticate': challenge } }));
      return next(refused(detail));
    }
    // A token verified before, of a user whose state is remembered, passes without waiting for anything.
    const known = tokens.verified(match[1]!);
    if (known !== undefined) {
      req.user = known;
      return next();
    }
    tokens.verify(match[1]!).then(
      (user) => {
        req.user = user;
        next();
      },
      (error: unknown) => next(error instanceof InvalidTokenError ? refused(`${error.message}; log in again.`) : error),
    );
  };
}

/** 401 invalid_token with its WWW-Authenticate challenge. */
export function refused(detail: string): ApiError {
  const description = detail.replaceAll('"', "'").replace(/[^\x20-\x7e]/g, '');
  return new ApiError('invalid_token', detail, {
    headers: { 'WWW-Authenticate': `${challenge}, error="invalid_token", error_description="${description}"` },
  });
}
