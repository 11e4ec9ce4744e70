// Middlewares that every request passes through, run one after another as one layer of Express's router. Each
// layer costs a request a trip through the router (its path matched, its next() bookkeeping), whether or not the
// middleware has anything to do; a cached GET passed through some twenty of them, and that trip cost more than
// the middlewares' own work. The order and the error handling are Express's: a middleware that throws, rejects
// or calls next(error) ends the series and the error goes to the error handler.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function series(...handlers: RequestHandler[]): RequestHandler {
  return function inSeries(req: Request, res: Response, done: NextFunction) {
    let at = 0;
    const next = (error?: unknown): void => {
      if (error) return done(error);
      const handler = handlers[at++];
      if (!handler) return done();
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
