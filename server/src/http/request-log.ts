// The request log: `req.log` is a child logger carrying the request id, made only when something logs
// (building one per request costs more than the rest of a cached GET); one line per request at `info`.
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    log: Logger;
  }
}

export function requestLog(logger: Logger) {
  const lines = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction) => {
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ reqId: req.id })), configurable: true });
    if (lines) {
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
    }
    next();
  };
}
