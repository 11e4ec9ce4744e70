// The request log: `req.log` is a child logger carrying the request id, made only when something logs
// (building one per request costs more than the rest of a cached GET); one line per request at `info`.
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    log: Logger;
  }
}

export function requestLog(app: Express, logger: Logger): RequestHandler {
  // On the app's request prototype, once: the first read makes the request's own logger and keeps it.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request) {
      const child = logger.child({ reqId: this.id });
      Object.defineProperty(this, 'log', { value: child, configurable: true });
      return child;
    },
  });
  if (!logger.isLevelEnabled('info')) return (_req, _res, next) => next();
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on('finish', () =>
      req.log.info(
        {
          method: req.method,
          url: req.originalUrl,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        'request',
      ),
    );
    next();
  };
}
