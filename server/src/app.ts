// The HTTP application: createApp(deps) builds it and never listens. Order of the pipeline: the request's metrics
// (counted when it ends, whatever answers it), request id, its context and log line, the security headers (so every
// page, file and problem carries them), Connection: close while the process drains; CORS when origins are configured
// (a preflight is answered there, before anything else); what lies outside the contract (/openapi.yaml, the docs,
// /readyz, /metrics unless the ops listener serves them); routing (404 and 405 need no token; from there on,
// the answers of a deprecated operation carry its deprecation headers); bearer authentication; the rate-limit
// policy; the use case of /problem/{problem_id} (404 problem_not_found, whatever the body); only then the body (the
// login's, before its own rate limits, which count per username; JSON counted before it is parsed, as a webhook's;
// or the streamed upload); the contract validator (requests, and responses unless switched off); the routes; the one
// error handler. So a request without a token never has its body read, and an unknown use case is 401 without a
// token (its path has an operation), 404 with one. What every request passes through runs as one layer of Express's
// router (series). Before it all, when tracing is on, the request's span (http/trace-request.ts).
import express, { type Request, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { authenticate } from './auth/authenticate.ts';
import { deprecationHeaders } from '@jes/contract';
import { contractPath } from '@jes/contract/node';
import { contract } from './core/contract.ts';
import { crossOrigin } from './http/cross-origin.ts';
import { errorHandler } from './http/error-handler.ts';
import { serializeFrozenOnce } from './http/frozen-json.ts';
import { jsonBody, storableValues } from './http/json-body.ts';
import { useCaseFirst } from './http/known-use-case.ts';
import { type Limiters, passThrough, rateLimiters } from './http/rate-limits.ts';
import { withRequestContext } from './http/request-context.ts';
import { requestId } from './http/request-id.ts';
import { closeWhileDraining } from './http/draining.ts';
import { requestLog } from './http/request-log.ts';
import { requestMetrics } from './http/request-metrics.ts';
import { requireHost } from './http/request-target.ts';
import { routeFirst } from './http/route-first.ts';
import { securityHeaders } from './http/security-headers.ts';
import { series } from './http/series.ts';
import { traceRequest } from './http/trace-request.ts';
import { streamUpload } from './http/upload.ts';
import { docsDir } from './config/paths.ts';
import { dataFileRoutes } from './routes/data-files.ts';
import { docsRoutes } from './routes/docs.ts';
import { healthRoutes } from './routes/health.ts';
import { eventRoutes } from './routes/events.ts';
import { jobRoutes } from './routes/jobs.ts';
import { loginRoutes } from './routes/login.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { problemRoutes } from './routes/problems.ts';
import { readinessRoutes } from './routes/readiness.ts';
import { webhookRoutes } from './routes/webhook.ts';
import { largestInlineBytes } from './use-cases.ts';
import type { AppDeps } from './routes/deps.ts';

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];

export type { AppDeps } from './routes/deps.ts';
export type AppOptions = Omit<AppDeps, 'limiters'>;

/**
 * The rate-limit policies an authenticated request counts against (login has its own, before authentication):
 * `default`, and for a job start or an upload `submit` too. Made once, not per request.
 */
function policies(limiters: Limiters): (req: Request) => RequestHandler {
  const submit = series(limiters.default, limiters.submit);
  return (req) => {
    if (req.path === '/healthz' || req.path === '/login') return passThrough;
    if (req.method === 'POST' && (req.path === '/data_file' || /^\/problem\/[^/]+$/.test(req.path))) return submit;
    return limiters.default;
  };
}

export function createApp(options: AppOptions): express.Express {
  const deps: AppDeps = { ...options, limiters: rateLimiters(options.config.rateLimits, options.metrics?.http) };
  const { metrics } = deps;
  const policyOf = policies(deps.limiters);
  // The contract's deprecated operations and the headers of their answers, worked out once.
  const deprecations = deprecationHeaders(contract);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  serializeFrozenOnce(app);
  const draining = deps.draining ?? (() => false);
  app.use(
    series(
      traceRequest,
      ...(metrics ? [requestMetrics(metrics.http)] : []),
      requestId,
      withRequestContext,
      requestLog(app, deps.logger),
      securityHeaders(deps.config.dashboardOrigins),
      closeWhileDraining(draining),
    ),
  );
  // Unset, nothing is mounted: no CORS headers at all, and OPTIONS is routed like any other method (405).
  if (deps.config.corsOrigins) app.use(crossOrigin(deps.config.corsOrigins, contract.paths));

  // Outside the contract: the contract itself, its rendered reference and the guides; readiness (no token, no limit);
  // the metrics, unless the ops listener (JES_METRICS_PORT) serves them.
  app.get('/openapi.yaml', (_req, res) => res.type('application/yaml').sendFile(contractPath));
  if (metrics && deps.config.metrics.port === undefined) app.use(metricsRoutes(metrics, deps.config.metrics.token));
  app.use(docsRoutes(docsDir));
  app.use(readinessRoutes({ db: deps.db, draining }));

  app.use(
    series(
      requireHost,
      routeFirst(contract.paths, deprecations),
      // Login and health are public: authenticate and the policy let them through.
      authenticate(deps.tokens),
      (req, res, next) => policyOf(req)(req, res, next),
      useCaseFirst,
    ),
  );
  // Login's small body is read before its rate limits, as they count per username.
  app.post('/login', ...jsonBody(64 * 1024), ...deps.limiters.login, storableValues);
  // An inline job keeps the bytes it was sent: they are what the job stores.
  app.post('/problem/:problem_id', ...jsonBody(largestInlineBytes, true), storableValues);
  app.post('/data_file', streamUpload(deps.db, deps.config.storageQuotaBytes, deps.space));
  app.put('/webhook', ...jsonBody(16 * 1024), storableValues);

  const validator = OpenApiValidator.middleware({
    // The document already read (parsing the file again cost 0.2 s of a core at every start), a copy the validator
    // may change. It is @jes/contract's, linted against the OpenAPI schema before it ships: checking it again at every
    // start (validateApiSpec) compiled that schema, another half second.
    apiSpec: structuredClone(contract) as unknown as ValidatorOptions['apiSpec'],
    validateApiSpec: false,
    // Parameters are always coerced from strings by the validator; bodies are not ("6" is not a number).
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: deps.config.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    fileUploader: false,
    validateFormats: true,
    ajvFormats: { mode: 'full' },
  });
  app.use(series(...(validator as RequestHandler[])));
  app.use(
    series(
      jobRoutes(deps),
      eventRoutes(deps),
      dataFileRoutes(deps),
      problemRoutes(),
      loginRoutes(deps),
      healthRoutes(deps),
      webhookRoutes(deps),
    ),
  );
  app.use(errorHandler);
  return app;
}
