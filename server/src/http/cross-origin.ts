// CORS, so that a page on another origin (JES_CORS_ORIGINS) can call the API with the client. Mounted before
// routing, authentication and rate limits: a preflight carries no token and counts against nothing, and every
// answer after it, problems included (401, 404, 429, 503), carries the headers that let the page read it.
// Tokens travel in Authorization, never in cookies, so credentials are never allowed, even for a list.
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config/config.ts';
import type { ContractDocument } from '../core/contract.ts';

/** Request headers a page may send beyond the CORS-safelisted ones: those the contract and the client use. */
export const allowedHeaders = [
  'Authorization',
  'Content-Type',
  'Content-Encoding',
  'Prefer',
  'Idempotency-Key',
  // A stream resumed by a page's client (EventSource sends it too, but cannot cross origins with a token).
  'Last-Event-ID',
  'X-Request-Id',
];

/** Response headers of the contract a page may read beyond the safelisted ones (express-rate-limit's draft-8 names). */
export const exposedHeaders = [
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Location',
  'Preference-Applied',
  'Idempotent-Replayed',
  // A deprecated operation's answers (deprecation.ts): a page's client can warn as a server-side one does.
  'Deprecation',
  'Sunset',
];

/** Seconds a browser may reuse a preflight's answer (Chromium caps it at 7200). */
const preflightMaxAge = 600;

/** A CORS preflight as the Fetch standard defines it; any other OPTIONS is routed (and answered 405). */
const isPreflight = (req: Request) =>
  req.method === 'OPTIONS' &&
  req.headers.origin !== undefined &&
  req.headers['access-control-request-method'] !== undefined;

export function crossOrigin(
  origins: NonNullable<Config['corsOrigins']>,
  paths: ContractDocument['paths'],
): RequestHandler {
  const used = (item: Record<string, unknown>) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => m in item);
  const methods = new Set(Object.values(paths).flatMap(used));
  const handler = cors({
    // A list is matched exactly and the request's origin reflected (with Vary: Origin); another origin gets no
    // Access-Control-Allow-Origin, which its browser takes as a refusal.
    origin: origins,
    credentials: false,
    methods: [...methods].map((m) => m.toUpperCase()),
    allowedHeaders,
    exposedHeaders,
    maxAge: preflightMaxAge,
  });
  return function crossOriginHeaders(req: Request, res: Response, next: NextFunction) {
    if (req.method === 'OPTIONS' && !isPreflight(req)) return next();
    handler(req, res, next);
  };
}
