// The spans the server makes, through @opentelemetry/api alone: until sdk.ts registers a tracer provider (tracing
// is off unless the OTEL variables ask for it), every call here is the API's no-op, and nothing of the SDK is loaded.
// The API is process-wide by design (a provider registered once, the active span carried by async context), so
// these helpers use it as such rather than being handed a tracer.
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { serverVersion } from '../core/version.ts';

export const tracer = trace.getTracer('@jes/server', serverVersion);

/** Marks `span` as failed by `error` (an exception event and an error status). */
export function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Runs `fn` in a new span, the active one while it runs: a child of `parent` (the active context unless told).
 * The span ends when `fn` settles; a rejection marks it failed and is passed on.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Whether a span is active and recorded: what a detail span (a statement) needs to be worth making. */
export const recording = (): boolean => trace.getActiveSpan()?.isRecording() ?? false;

/** Sets `attributes` on the active span, if any. */
export function annotate(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** The active span's context as a W3C `traceparent` (to store with work another process picks up), or null. */
export function activeTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context a stored `traceparent` names (its span the parent of the spans made in it); the root when none. */
export const contextOf = (traceparent: string | null | undefined): Context =>
  traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;

/** The trace id of the active span, when there is one with a valid context (tracing is on). */
export function activeTraceId(): string | undefined {
  const found = trace.getActiveSpan()?.spanContext();
  return found && isSpanContextValid(found) ? found.traceId : undefined;
}

/**
 * The fields a log line gets while a span is active (pino's mixin, start/logger.ts): trace_id and span_id. A new
 * object each time, even empty: pino merges the line's own fields into it.
 */
export function logFields(): { trace_id?: string; span_id?: string } {
  const found = trace.getActiveSpan()?.spanContext();
  return found && isSpanContextValid(found) ? { trace_id: found.traceId, span_id: found.spanId } : {};
}
