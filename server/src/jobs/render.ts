// Rows to the contract's shapes: a job keyed by id, its executions keyed by solver, and a data file.
import { type components, documentedTimestamp, rfc3339, toMillisecond } from '@jes/contract';
import type { DataFileRow } from '../store/data-files.ts';
import type { ExecutionRow, JobView } from '../store/jobs.ts';

type Job = components['schemas']['Job'];
type Execution = components['schemas']['Execution'];
type DataFile = components['schemas']['DataFile'];

const seconds = (from: Date, to: Date) => toMillisecond(Math.max(0, (to.getTime() - from.getTime()) / 1000));

function renderExecution(e: ExecutionRow, now: Date, withData: boolean): Execution {
  const execution: Execution = {
    status: e.status as Execution['status'],
    started_at: documentedTimestamp(e.running_at),
    end_at: documentedTimestamp(e.ended_at),
    duration_seconds: e.running_at ? seconds(e.running_at, e.ended_at ?? now) : null,
    timestamps: { created: rfc3339(e.created_at)!, running: rfc3339(e.running_at), ended: rfc3339(e.ended_at) },
  };
  if (withData && e.status === 'SUCCESS' && e.data) execution.data = e.data as Execution['data'] & object;
  if (e.status === 'ERROR' && e.error) execution.error = e.error;
  if (e.status === 'RUNNING' && e.progress !== null) execution.progress = Math.min(1, Math.max(0, e.progress));
  // While it runs and once it has ended (a listing carries no data; a cancelled execution keeps its best).
  if (e.best_value !== null) execution.best_value = e.best_value;
  // Like `data`, only where the job is read alone (GET /job/{id} and the `end` event); listings read none.
  if (withData && e.progress_history?.length) execution.progress_history = e.progress_history;
  return execution;
}

export function renderJob({ job, executions }: JobView, withData = true, now = new Date()): Job {
  const count = (...statuses: string[]) => executions.filter((e) => statuses.includes(e.status)).length;
  const rendered: Job = {
    status: job.status as Job['status'],
    started_at: documentedTimestamp(job.submitted_at),
    end_at: documentedTimestamp(job.ended_at),
    executions: Object.fromEntries(executions.map((e) => [e.solver, renderExecution(e, now, withData)])),
    problem_id: job.problem_id,
    input: job.data_file_id
      ? { mode: job.input_mode, data_file_identifier: job.data_file_id, bytes: job.input_bytes }
      : { mode: job.input_mode, bytes: job.input_bytes },
    summary: {
      total: executions.length,
      pending: count('PENDING', 'PREPARING'),
      running: count('RUNNING'),
      succeeded: count('SUCCESS'),
      failed: count('ERROR'),
      cancelled: count('CANCELLED'),
    },
    cancel_requested_at: rfc3339(job.cancel_requested_at),
    timestamps: {
      submitted: rfc3339(job.submitted_at)!,
      running: rfc3339(job.running_at),
      ended: rfc3339(job.ended_at),
    },
    links: {
      self: `/job/${job.id}`,
      output: `/job/${job.id}/output`,
      cancel: `/job/${job.id}/cancel`,
      events: `/job/${job.id}/events`,
    },
  };
  if (job.status === 'ERROR' && job.error) rendered.error = job.error;
  return rendered;
}

export function renderDataFile(row: DataFileRow): DataFile {
  const file: DataFile = {
    status: row.status,
    problem_id: row.problem_id,
    name: row.name,
    bytes: row.bytes,
    format: row.format as DataFile['format'],
    num_nodes: row.num_nodes,
    num_edges: row.num_edges,
    created_at: documentedTimestamp(row.created_at),
    timestamps: { uploaded: rfc3339(row.created_at)!, validated: rfc3339(row.validated_at) },
    links: { self: `/data_file/${row.id}` },
  };
  if (row.description !== null) file.description = row.description;
  if (row.status === 'INVALID' && row.error) file.error = row.error;
  return file;
}
