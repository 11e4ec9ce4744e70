// A server span per request, first in the pipeline: it continues the caller's trace (a W3C `traceparent`), is the
// active span for everything the request does (its statements, the job it starts: the job keeps its context), and
// ends when the answer is sent, named `{METHOD} {route}` after the contract's path template once routing has
// matched one (the method alone otherwise), with the contract's operationId as `jes.operation_id` and OpenTelemetry's
// HTTP attributes. With tracing off, every call is the API's no-op and nothing else is done.
import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { tracer } from '../tracing/spans.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The trace id of the request's span, when tracing is on: problems carry it as `trace_id`. */
    traceId?: string;
  }
}

/** The route of the request: the contract's path template (routeFirst), or the Express route of a page or file. */
function routeOf(req: Request): string | undefined {
  if (req.operation) return req.operation.path;
  const path: unknown = req.route?.path;
  return typeof path === 'string' ? path : undefined;
}

function ended(span: Span, req: Request, res: Response): void {
  const route = routeOf(req);
  if (route) span.updateName(`${req.method} ${route}`).setAttribute('http.route', route);
  if (req.operation?.id) span.setAttribute('jes.operation_id', req.operation.id);
  // The request's id is given after this span began (requestId): with it, one id finds the trace.
  span.setAttributes({ 'http.response.status_code': res.statusCode, 'jes.request_id': req.id });
  // A server span is failed by a 5xx only: a 4xx is the client's (OpenTelemetry's HTTP conventions).
  if (res.statusCode >= 500) {
    span.setAttribute('error.type', String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  if (!res.writableFinished) span.setAttribute('error.type', 'aborted');
  span.end();
}

export function traceRequest(req: Request, res: Response, next: NextFunction): void {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER }, parent);
  const spanContext = span.spanContext();
  if (!trace.isSpanContextValid(spanContext)) return next();
  if (span.isRecording())
    span.setAttributes({
      'http.request.method': req.method,
      'url.path': req.path,
      'url.scheme': req.protocol,
      'server.address': req.hostname,
      'server.port': req.socket.localPort,
      'network.protocol.version': req.httpVersion,
      'client.address': req.ip,
      'network.peer.address': req.socket.remoteAddress,
      'user_agent.original': req.get('user-agent'),
    });
  req.traceId = spanContext.traceId;
  const active = trace.setSpan(parent, span);
  // Listeners added from here on (the request's log line, this span's end) run in the request's context.
  context.bind(active, res);
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    ended(span, req, res);
  };
  res.once('finish', end).once('close', end);
  context.with(active, next);
}
