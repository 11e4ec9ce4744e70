// Rate limits per policy, announced with the IETF draft-8 RateLimit-Policy / RateLimit headers; past a limit,
// 429 rate_limited with Retry-After. Logins are limited three ways, so that neither a new address per try nor a
// new username per try gets around them: per client address and username, failures per username from any
// address, and failures per address for any username. The rest is counted per user: every request on `default`,
// and the job starts and uploads that started a job or stored a file on `submit` too (refusals, replays and bytes
// already stored start nothing: they count on `default` alone).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Config, RateLimit, RatePolicy } from '../config/config.ts';
import { ApiError } from '../core/api-error.ts';
import type { HttpMetrics } from '../metrics/http.ts';
import { type KnownAddresses, knownAddresses } from './known-addresses.ts';

/** Which requests a policy counts: all, failed ones only (logins), or those that started or stored something. */
type Counted = 'all' | 'failures' | 'starts';

/**
 * A start or an upload that started a job or stored a file: not a refusal, not the replay of an earlier answer
 * (Idempotent-Replayed), not an upload of bytes stored already (200).
 */
const startedSomething = (req: Request, res: Response) =>
  res.getHeader('Idempotent-Replayed') === undefined &&
  (req.path === '/data_file' ? res.statusCode === 201 : res.statusCode === 200);

function limiter(
  name: RatePolicy,
  policy: RateLimit,
  key: (req: Request) => string,
  counted: Counted = 'all',
  exempt?: (req: Request) => boolean,
  metrics?: HttpMetrics,
) {
  return rateLimit({
    ...(exempt ? { skip: exempt } : {}),
    windowMs: policy.windowSeconds * 1000,
    limit: policy.limit,
    identifier: name,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: key,
    skipSuccessfulRequests: counted === 'failures',
    // Counted while in flight, then given back unless it started something.
    skipFailedRequests: counted === 'starts',
    ...(counted === 'starts' ? { requestWasSuccessful: startedSomething } : {}),
    handler: (req: Request, _res: Response, next: NextFunction) => {
      metrics?.refused(name);
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = Math.max(
        1,
        Math.ceil(((resetTime?.getTime() ?? Date.now() + policy.windowSeconds * 1000) - Date.now()) / 1000),
      );
      next(
        new ApiError(
          'rate_limited',
          `Rate limit "${name}" reached (${policy.limit} requests per ${policy.windowSeconds} s); retry in ${retryAfter} s.`,
          { headers: { 'Retry-After': String(retryAfter) } },
        ),
      );
    },
  });
}

/** A policy that counts nothing (health checks, and every policy when rate limiting is off). */
export const passThrough: RequestHandler = (_req, _res, next) => next();

export interface Limiters {
  /** The three login policies, in the order they apply. */
  login: RequestHandler[];
  /** Where each user has logged in from: there, login_account does not apply. */
  known: KnownAddresses;
  /** Job starts and uploads that start a job or store a file; every one counts on `default` too. */
  submit: RequestHandler;
  default: RequestHandler;
}

export const address = (req: Request) => ipKeyGenerator(req.ip ?? '');
/** The username as sent, when it is one: anything else (a number, a 5,000-deep array) counts as no name. */
const username = (req: Request) => (typeof req.body?.username === 'string' ? req.body.username.slice(0, 128) : '');

/** `metrics`: where refusals are counted, by policy. */
export function rateLimiters(limits: Config['rateLimits'], metrics?: HttpMetrics): Limiters {
  const known = knownAddresses();
  if (!limits) return { login: [], known, submit: passThrough, default: passThrough };
  return {
    known,
    // By address first: a flood of names from one address stops there, before a key is kept per name.
    login: [
      limiter('login_address', limits.login_address, address, 'failures', undefined, metrics),
      limiter(
        'login_account',
        limits.login_account,
        username,
        'failures',
        (req) => known.knows(username(req), address(req)),
        metrics,
      ),
      limiter('login', limits.login, (req) => `${address(req)}:${username(req)}`, 'all', undefined, metrics),
    ],
    submit: limiter('submit', limits.submit, (req) => req.user, 'starts', undefined, metrics),
    default: limiter('default', limits.default, (req) => req.user, 'all', undefined, metrics),
  };
}
