// No request can end the process. A rejection nobody handled or an exception nobody caught while a request was
// being served is logged with that request's id, and the request is answered (500 internal_error) if it has
// not been; the process goes on serving. An unhandled rejection outside any request is logged and survived too;
// an uncaught exception outside any request ends the process, as its state is unknown.
import type { Logger } from 'pino';
import { errorHandler } from '../http/error-handler.ts';
import { requestContext } from '../http/request-context.ts';

function answer(error: unknown): boolean {
  const context = requestContext.getStore();
  if (!context) return false;
  const { req, res } = context;
  if (res.headersSent) {
    req.log.error({ err: error }, 'a failure escaped a request after its answer began');
    // Half an answer cannot be finished honestly; one already complete is left alone (its socket may be reused).
    if (!res.writableEnded) res.destroy();
  } else {
    errorHandler(error, req, res, () => {});
  }
  return true;
}

export function guardProcess(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    if (!answer(reason)) logger.error({ err: reason }, 'unhandled rejection outside any request');
  });
  process.on('uncaughtException', (error) => {
    if (answer(error)) return;
    logger.fatal({ err: error }, 'uncaught exception outside any request; stopping');
    process.exit(70);
  });
}
