// While the process drains (SIGTERM with JES_DRAIN_SECONDS), every answer closes its connection: a client or a
// balancer holding a keep-alive connection would otherwise go on sending on it after /readyz turned 503, and meet
// the connection's cut at the stop. Its next request opens a new connection, which the balancer sends elsewhere.
import type { RequestHandler } from 'express';

export function closeWhileDraining(draining: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (draining()) res.setHeader('Connection', 'close');
    next();
  };
}
