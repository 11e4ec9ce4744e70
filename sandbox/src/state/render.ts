// The sandbox's records in the contract's shapes, as a deployment renders its rows (server/src/jobs/render.ts):
// a job keyed by id with its executions keyed by solver, and a data file. Instants are written by @jes/contract.
// A job's executions' `data` and `progress_history` are left out of listings, as a deployment leaves them out.
import { type components, documentedTimestamp, type ErrorBody, errorBody, rfc3339, toMillisecond } from '@jes/contract';
import type { DataFileRecord } from './data-files.ts';
import { type ExecutionState, jobAt, type JobRecord } from './jobs.ts';

type Job = components['schemas']['Job'];
type Execution = components['schemas']['Execution'];
type DataFile = components['schemas']['DataFile'];

const date = (ms: number | null) => (ms === null ? null : new Date(ms));
const seconds = (from: number, to: number) => toMillisecond(Math.max(0, (to - from) / 1000));

function renderExecution(e: ExecutionState, created: number, now: number, withData: boolean): Execution {
  const execution: Execution = {
    status: e.status,
    started_at: documentedTimestamp(date(e.runningAt)),
    end_at: documentedTimestamp(date(e.endedAt)),
    duration_seconds: e.runningAt === null ? null : seconds(e.runningAt, e.endedAt ?? now),
    timestamps: {
      created: rfc3339(new Date(created))!,
      running: rfc3339(date(e.runningAt)),
      ended: rfc3339(date(e.endedAt)),
    },
  };
  const { outcome } = e.planned;
  if (withData && e.status === 'SUCCESS' && outcome.status === 'SUCCESS')
    execution.data = outcome.data as Execution['data'] & object;
  if (e.status === 'ERROR' && outcome.status === 'ERROR') execution.error = outcome.error;
  if (e.progress !== undefined) execution.progress = e.progress;
  if (e.bestValue !== undefined) execution.best_value = e.bestValue;
  // Like `data`, only in GET /job/{job_id} and the `end` event, not in listings (nor webhooks' jobs).
  if (withData && e.history) execution.progress_history = [...e.history];
  return execution;
}

/** The job as GET /job/{job_id} shows it at `now` (a listing: without the outputs' data). */
export function renderJob(record: JobRecord, now: number, withData = true): Job {
  const state = jobAt(record, now);
  const count = (...statuses: string[]) => state.executions.filter((e) => statuses.includes(e.status)).length;
  const { id, input } = record;
  const job: Job = {
    status: state.status,
    started_at: documentedTimestamp(new Date(record.acceptedAt)),
    end_at: documentedTimestamp(date(state.endedAt)),
    executions: Object.fromEntries(
      state.executions.map((e) => [e.planned.solver, renderExecution(e, record.acceptedAt, now, withData)]),
    ),
    problem_id: record.problemId,
    input: input.dataFileId
      ? { mode: input.mode, data_file_identifier: input.dataFileId, bytes: input.bytes }
      : { mode: input.mode, bytes: input.bytes },
    summary: {
      total: state.executions.length,
      pending: count('PENDING', 'PREPARING'),
      running: count('RUNNING'),
      succeeded: count('SUCCESS'),
      failed: count('ERROR'),
      cancelled: count('CANCELLED'),
    },
    cancel_requested_at: record.cancelRequestedAt !== null ? rfc3339(new Date(record.cancelRequestedAt)) : null,
    timestamps: {
      submitted: rfc3339(new Date(record.acceptedAt))!,
      running: rfc3339(date(state.runningAt)),
      ended: rfc3339(date(state.endedAt)),
    },
    links: {
      self: `/job/${id}`,
      output: `/job/${id}/output`,
      cancel: `/job/${id}/cancel`,
      events: `/job/${id}/events`,
    },
  };
  if (state.status === 'ERROR') {
    const failed = state.executions.flatMap((e) => (e.planned.outcome.status === 'ERROR' ? [e] : []));
    job.error = jobError(failed);
  }
  return job;
}

/** The error of a job none of whose executions succeeded, as a deployment words it. */
function jobError(failed: ExecutionState[]): components['schemas']['Problem'] {
  const errors = failed.map((e) => ({
    solver: e.planned.solver,
    error: (e.planned.outcome as { error: ErrorBody }).error,
  }));
  const only = errors.length === 1 ? errors[0]!.error : undefined;
  if (only && only.code === 'data_file_invalid') return only;
  const reasons = errors.map((e) => `${e.solver}: ${e.error.detail}`).join('; ');
  return errorBody('solver_failed', `No execution succeeded${reasons ? `: ${reasons}` : '.'}`);
}

/** A data file's record at `now`: PROCESSING until its validation's instant, then READY or INVALID. */
export function renderDataFile(file: DataFileRecord, now: number): DataFile {
  const validated = now >= file.validatedAt;
  const verdict = validated ? file.verdict : undefined;
  const ready = verdict && 'prepared' in verdict ? verdict : undefined;
  const rendered: DataFile = {
    status: !verdict ? 'PROCESSING' : ready ? 'READY' : 'INVALID',
    problem_id: file.problemId,
    name: file.name,
    bytes: file.size,
    format: (ready?.format ?? null) as DataFile['format'],
    num_nodes: ready?.prepared.n ?? null,
    num_edges: ready?.prepared.edges ?? null,
    created_at: documentedTimestamp(new Date(file.uploadedAt)),
    timestamps: {
      uploaded: rfc3339(new Date(file.uploadedAt))!,
      validated: validated ? rfc3339(new Date(file.validatedAt)) : null,
    },
    links: { self: `/data_file/${file.id}` },
  };
  if (file.description !== undefined) rendered.description = file.description;
  if (verdict && 'error' in verdict) rendered.error = verdict.error;
  return rendered;
}
