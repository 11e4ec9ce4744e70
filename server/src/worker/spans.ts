// The spans of a worker's work, in the trace of the request that asked for it (the traceparent stored with the job
// or the data file; another process's, as often as not): an execution's wait in the queue (`job.queued`, from the
// execution's creation to its claim, by the database's clock), then its run (`execution {solver}`, with the solve in
// its thread as `solve {solver}` inside); a data file's validation (`data_file.validate`). With tracing off they are
// the API's no-ops.
import { type Attributes, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Claimed } from '../store/queue.ts';
import type { ClaimedValidation } from '../store/validations.ts';
import { contextOf, failed, inSpan, tracer } from '../tracing/spans.ts';
import { RunCancelledError } from './errors.ts';

const executionAttributes = (execution: Claimed): Attributes => ({
  'jes.job_id': execution.job_id,
  'jes.problem_id': execution.problem_id,
  'jes.solver': execution.solver,
  'jes.input_mode': execution.input_mode,
});

/**
 * Runs an execution (`run`) in its span, after the span of its wait in the queue: both children of the request that
 * started the job. A job that was not traced has no queue span (it would be a trace of its own): its execution's
 * span, then a root, says the wait as `jes.queue.wait_ms`.
 */
export function traceExecution(execution: Claimed, run: () => Promise<void>): Promise<void> {
  const parent = contextOf(execution.traceparent);
  const attributes = executionAttributes(execution);
  const claimedAt = Date.now();
  if (execution.traceparent)
    tracer.startSpan('job.queued', { startTime: claimedAt - execution.queued_ms, attributes }, parent).end(claimedAt);
  return inSpan(
    `execution ${execution.solver}`,
    { kind: SpanKind.CONSUMER, attributes: { ...attributes, 'jes.queue.wait_ms': execution.queued_ms } },
    run,
    parent,
  );
}

/**
 * Says how the execution whose span is active ended: SUCCESS, ERROR (the span failed, with the error's detail),
 * CANCELLED, or what became of a run that records nothing (handed back, lease lost).
 */
export function executionEnded(outcome: string, detail?: string): void {
  const span = trace.getActiveSpan();
  span?.setAttribute('jes.execution.outcome', outcome);
  if (outcome === 'ERROR') span?.setStatus({ code: SpanStatusCode.ERROR, ...(detail ? { message: detail } : {}) });
}

/**
 * Runs the solve itself (`solve`: from handing it to a thread to its result) in its span; a run stopped by a cancel
 * (RunCancelledError) is no failure of the span.
 */
export const traceSolve = <T>(execution: Claimed, solve: () => Promise<T>): Promise<T> =>
  tracer.startActiveSpan(
    `solve ${execution.solver}`,
    { attributes: { 'jes.time_limit_seconds': execution.time_limit_seconds } },
    async (span) => {
      try {
        return await solve();
      } catch (error) {
        if (error instanceof RunCancelledError) span.setAttribute('jes.cancelled', true);
        else failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );

/** Runs a data file's validation (`validate`) in its span, in the trace of the upload. */
export const traceValidation = <T>(file: ClaimedValidation, validate: () => Promise<T>): Promise<T> =>
  inSpan(
    'data_file.validate',
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'jes.data_file_id': file.id,
        'jes.problem_id': file.problem_id,
        'jes.data_file.bytes': file.bytes,
        'jes.data_file.attempt': file.attempt,
      },
    },
    validate,
    contextOf(file.traceparent),
  );
