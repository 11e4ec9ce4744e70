// GET /metrics, outside the contract: the process's metrics in Prometheus' text format. Open, or behind a bearer
// token (JES_METRICS_TOKEN) compared in constant time; no user token, no rate limit, so a scraper never counts
// against anyone. Mounted on the API app, or on the ops listener (start/ops-listener.ts) when JES_METRICS_PORT is set.
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { challenge } from '../auth/authenticate.ts';
import { ApiError } from '../core/api-error.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** Digests of equal length, so that the comparison takes as long whatever the token's length or content. */
const digest = (text: string) => createHash('sha256').update(text).digest();

function allowed(token: string | undefined): (req: Request) => void {
  if (token === undefined) return () => {};
  const expected = digest(token);
  return (req) => {
    const header = req.get('authorization');
    if (!header)
      throw new ApiError('missing_token', 'GET /metrics needs an Authorization: Bearer <JES_METRICS_TOKEN> header.', {
        headers: { 'WWW-Authenticate': challenge },
      });
    const given = /^Bearer +([^\s]+) *$/i.exec(header)?.[1] ?? '';
    if (!timingSafeEqual(digest(given), expected))
      throw new ApiError('invalid_token', 'The metrics token is not the one this server was given.', {
        headers: { 'WWW-Authenticate': `${challenge}, error="invalid_token"` },
      });
  };
}

export function metricsRoutes(metrics: Metrics, token: string | undefined): Router {
  const check = allowed(token);
  return Router().get('/metrics', async function getMetrics(req: Request, res: Response) {
    check(req);
    const text = await metrics.registry.metrics();
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}
