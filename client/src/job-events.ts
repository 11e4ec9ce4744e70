// The events of GET /job/{job_id}/events (streamJobEvents) and GET /events (streamEvents), typed by the contract's
// JobEvent: its `event` names the schema of its `data`. The `end` event's job comes as getJob gives it (with its id),
// and `withEvent` folds events into a job (status, best value, progress history), so a waiter or a page shows the
// job live without asking for it again.
import type { EventSourceMessage } from 'eventsource-parser';
import { type components, withProgress } from '@jes/contract';
import { bestOf } from './best-value.ts';
import { unwrap } from './result.ts';
import type { Job } from './types.ts';
import { isTerminal } from './wait.ts';

type Schemas = components['schemas'];

/** One event of a stream: its id (resume after it with `lastEventId`), its kind and its data. */
export interface StreamEvent<E extends Schemas['JobEvent']['event'], D> {
  id: Schemas['JobEvent']['id'];
  event: E;
  data: D;
}

/** An event of a job's stream (`jobEvents`); the stream ends after `end`. */
export type JobEvent =
  | StreamEvent<'status', Schemas['JobStatusEvent']>
  | StreamEvent<'execution', Schemas['ExecutionStatusEvent']>
  | StreamEvent<'progress', Schemas['ExecutionProgressEvent']>
  | StreamEvent<'end', Job>;

/** An event of the stream of all the user's jobs (`events`): a job's status changed. */
export type UserEvent = StreamEvent<'status', Schemas['JobStatusEvent']>;

function parsed(message: EventSourceMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch {
    return undefined;
  }
}

/** A job stream's message as its event; undefined for an event this client does not know (the contract: ignore it). */
export function jobEvent(message: EventSourceMessage): JobEvent | undefined {
  const data = parsed(message);
  if (typeof data !== 'object' || data === null || message.id === undefined) return undefined;
  const id = message.id;
  switch (message.event) {
    case 'status':
      return { id, event: 'status', data: data as Schemas['JobStatusEvent'] };
    case 'execution':
      return { id, event: 'execution', data: data as Schemas['ExecutionStatusEvent'] };
    case 'progress':
      return { id, event: 'progress', data: data as Schemas['ExecutionProgressEvent'] };
    case 'end': {
      const { job } = data as Schemas['JobEnvelope'];
      return typeof job === 'object' && job !== null ? { id, event: 'end', data: unwrap(job) } : undefined;
    }
    default:
      return undefined;
  }
}

/** The user stream's message as its event, or undefined for one this client does not know. */
export function userEvent(message: EventSourceMessage): UserEvent | undefined {
  const event = jobEvent(message);
  return event?.event === 'status' ? event : undefined;
}

/** How far along a status is: a replayed older event never takes a job back. */
function stage(status: string): number {
  if (isTerminal(status) || status === 'SUCCESS') return 3;
  return ['PENDING', 'PREPARING', 'RUNNING'].indexOf(status);
}

/**
 * The job with `event` applied: its status, an execution's status, an execution's best value and progress. Only
 * forward: an event older than what the job shows (a stream replays a job's events from its first) changes nothing.
 * The `end` event's job replaces it.
 */
export function withEvent(job: Job, event: JobEvent): Job {
  if (event.event === 'end') return event.data;
  if (event.event === 'status')
    return stage(event.data.status) > stage(job.status) ? { ...job, status: event.data.status } : job;
  const execution = job.executions[event.data.solver];
  if (!execution) return job;
  let next = execution;
  if (event.event === 'execution') {
    if (stage(event.data.status) > stage(execution.status)) next = { ...execution, status: event.data.status };
  } else {
    const { best_value: value, progress, seconds } = event.data;
    const best = execution.best_value === undefined ? value : bestOf(job.problem_id)(execution.best_value, value);
    next = { ...execution, best_value: best, progress: Math.max(progress, execution.progress ?? 0) };
    // The history, where the job has one (GET /job/{job_id} shows it, listings do not), grows by newer points only.
    const history = execution.progress_history;
    if (history && seconds > (history.at(-1)?.seconds ?? -1))
      next.progress_history = [...withProgress(history, { seconds, best_value: value })];
  }
  return next === execution ? job : { ...job, executions: { ...job.executions, [event.data.solver]: next } };
}
