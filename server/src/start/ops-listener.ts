// The ops listener (JES_METRICS_PORT): a second, small HTTP server on HOST:that port for what operators and their
// tools ask, apart from the API: /metrics, and whatever other routers start-up gives it (health, readiness). It is
// the only HTTP a worker process serves. Anything else answers 404 as a problem, by the app's one error handler.
import { createServer, type Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { type Config, ConfigError } from '../config/config.ts';
import { ApiError } from '../core/api-error.ts';
import { errorHandler } from '../http/error-handler.ts';
import { requestId } from '../http/request-id.ts';
import { requestMetrics } from '../http/request-metrics.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { type Listening, listen } from './listen.ts';

export interface OpsListener {
  listening: Listening;
  close(): Promise<void>;
}

export async function startOpsListener(
  config: Config,
  logger: Logger,
  routers: RequestHandler[],
  metrics?: Metrics,
): Promise<OpsListener> {
  const app = express();
  app.disable('x-powered-by');
  if (metrics) app.use(requestMetrics(metrics.http));
  app.use(requestId, ...routers, (req, _res, next) =>
    next(new ApiError('not_found', `No operation at ${req.path} on this listener; it serves operators' tools only.`)),
  );
  app.use(errorHandler);
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  const server: Server = createServer(
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, keepAliveTimeout: keepAliveTimeoutMs },
    app,
  );
  // A scraper's few connections; not the API's thousand.
  server.maxConnections = 64;
  // A clash names this listener's setting, not PORT.
  const listening = await listen(server, config.host, config.metrics.port ?? 0).catch((error: unknown) => {
    throw error instanceof ConfigError ? new ConfigError(error.message.replaceAll('PORT', 'JES_METRICS_PORT')) : error;
  });
  logger.debug(`ops listener on ${listening.url}`);
  return {
    listening,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
