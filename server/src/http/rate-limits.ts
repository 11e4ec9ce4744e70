// Rate limits per policy (login per client address and username; submit and default per user), announced
// with the IETF draft-8 RateLimit-Policy / RateLimit headers; past a limit, 429 rate_limited with Retry-After.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Config, RateLimit } from '../config.ts';
import { HttpProblem } from './problems.ts';

function limiter(name: string, policy: RateLimit, key: (req: Request) => string): RequestHandler {
  return rateLimit({
    windowMs: policy.windowSeconds * 1000,
    limit: policy.limit,
    identifier: name,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: key,
    handler: (req: Request, _res: Response, next: NextFunction) => {
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + policy.windowSeconds * 1000) - Date.now()) / 1000));
      next(new HttpProblem('rate_limited', `Rate limit "${name}" reached (${policy.limit} requests per ${policy.windowSeconds} s); retry in ${retryAfter} s.`, { headers: { 'Retry-After': String(retryAfter) } }));
    },
  });
}

/** A policy that counts nothing (health checks, and every policy when rate limiting is off). */
export const passThrough: RequestHandler = (_req, _res, next) => next();

export interface Limiters {
  login: RequestHandler;
  submit: RequestHandler;
  default: RequestHandler;
}

export function rateLimiters(limits: Config['rateLimits']): Limiters {
  if (!limits) return { login: passThrough, submit: passThrough, default: passThrough };
  return {
    login: limiter('login', limits.login, (req) => `${ipKeyGenerator(req.ip ?? '')}:${String(req.body?.username ?? '')}`),
    submit: limiter('submit', limits.submit, (req) => req.user),
    default: limiter('default', limits.default, (req) => req.user),
  };
}
