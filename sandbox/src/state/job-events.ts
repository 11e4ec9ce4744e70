// A job's events (GET /job/{job_id}/events), read off its plan as its state is: the job's `status` changes (the
// first its PENDING at acceptance), each execution's `execution` changes, and its `progress`, the better values the
// run finds (at most one event per execution every progressEveryMs, as a deployment's worker sends them). Numbered
// 1, 2, … within the job. The list holds the future too; a stream sends only what happened before its `now`, and a
// cancel (the one change to a plan) alters only what happens from its instant on: what was sent stays true.
import { type components, progressEveryMs, rfc3339, terminalJob } from '@jes/contract';
import { jobAt, type JobRecord, type PlannedExecution, type PlannedImprovement } from './jobs.ts';

type JobStatusEvent = components['schemas']['JobStatusEvent'];
type ExecutionStatusEvent = components['schemas']['ExecutionStatusEvent'];
type ExecutionProgressEvent = components['schemas']['ExecutionProgressEvent'];

export type PlannedEvent = { seq: number; at: number } & (
  | { type: 'status'; data: JobStatusEvent; terminal: boolean }
  | { type: 'execution'; data: ExecutionStatusEvent }
  | { type: 'progress'; data: ExecutionProgressEvent }
);

type Unnumbered = PlannedEvent extends infer E ? (E extends PlannedEvent ? Omit<E, 'seq'> : never) : never;

const iso = (ms: number) => rfc3339(new Date(ms))!;

/** When the run stops: its planned end, or the cancel that comes first. */
function stopOf(e: PlannedExecution, cancelAt: number | null): number {
  return cancelAt !== null && cancelAt < e.endAt ? cancelAt : e.endAt;
}

/**
 * The progress events of one run: a better value is sent when found, unless one was sent less than
 * progressEveryMs before; then the best by the end of that pause is sent, if the run still runs.
 */
function progressOf(jobId: string, e: PlannedExecution, cancelAt: number | null): Unnumbered[] {
  if (e.outcome.status !== 'SUCCESS' || e.startAt === null) return [];
  const { startAt } = e;
  const stop = stopOf(e, cancelAt);
  if (stop < startAt) return [];
  const runMs = Math.max(1, e.endAt - startAt);
  const events: Unnumbered[] = [];
  let last = -Infinity;
  let pending: PlannedImprovement | undefined;
  const emit = (at: number, found: PlannedImprovement) => {
    events.push({
      type: 'progress',
      at,
      data: {
        job_id: jobId,
        solver: e.solver,
        seconds: Math.round(found.at - startAt) / 1000,
        best_value: found.value,
        progress: Math.min(1, (at - startAt) / runMs),
      },
    });
    last = at;
    pending = undefined;
  };
  for (const found of e.outcome.improvements) {
    if (found.at > stop) break;
    if (pending && last + progressEveryMs < found.at) emit(last + progressEveryMs, pending);
    if (found.at >= last + progressEveryMs) emit(found.at, found);
    else pending = found;
  }
  if (pending && last + progressEveryMs <= stop) emit(last + progressEveryMs, pending);
  return events;
}

/** Every event of the job, in order, from its acceptance to its end (as planned now). */
function plannedEvents(record: JobRecord): Unnumbered[] {
  const { id, executions, cancelRequestedAt: cancelAt } = record;
  const progress = new Map<number, Unnumbered[]>();
  for (const e of executions)
    for (const event of progressOf(id, e, cancelAt)) progress.set(event.at, [...(progress.get(event.at) ?? []), event]);
  const changes = new Set<number>([record.acceptedAt]);
  for (const e of executions) {
    if (e.startAt !== null) changes.add(e.startAt);
    changes.add(e.endAt);
  }
  if (cancelAt !== null) changes.add(cancelAt);
  const instants = [...new Set([...changes, ...progress.keys()])].sort((a, b) => a - b);

  const events: Unnumbered[] = [
    {
      type: 'status',
      at: record.acceptedAt,
      data: { job_id: id, status: 'PENDING', at: iso(record.acceptedAt) },
      terminal: false,
    },
  ];
  let job: string = 'PENDING';
  const runs = executions.map(() => 'PENDING' as string);
  const status = (t: number, next: string) => {
    events.push({
      type: 'status',
      at: t,
      data: { job_id: id, status: next as JobStatusEvent['status'], at: iso(t) },
      terminal: terminalJob.has(next),
    });
    job = next;
  };
  const execution = (t: number, i: number, next: string) => {
    const data = {
      job_id: id,
      solver: executions[i]!.solver,
      status: next as ExecutionStatusEvent['status'],
      at: iso(t),
    };
    events.push({ type: 'execution', at: t, data });
    runs[i] = next;
  };
  for (const t of instants) {
    if (changes.has(t)) {
      const state = jobAt(record, t);
      // What started first (an execution that ran and ended within one instant still shows it ran), then the job.
      state.executions.forEach((e, i) => {
        if (runs[i] === 'PENDING' && e.status !== 'PENDING' && e.runningAt !== null) execution(t, i, 'RUNNING');
      });
      if (
        job === 'PENDING' &&
        state.status !== 'PENDING' &&
        (state.runningAt !== null || !terminalJob.has(state.status))
      )
        status(t, 'RUNNING');
      events.push(...(progress.get(t) ?? []));
      state.executions.forEach((e, i) => {
        if (runs[i] !== e.status) execution(t, i, e.status);
      });
      if (job !== state.status) status(t, state.status);
    } else events.push(...(progress.get(t) ?? []));
    if (terminalJob.has(job)) break;
  }
  return events;
}

const planned = new WeakMap<JobRecord, { cancelAt: number | null; events: readonly PlannedEvent[] }>();

/** The job's events, numbered from 1; worked out once per plan (again after a cancel). */
export function jobEvents(record: JobRecord): readonly PlannedEvent[] {
  const kept = planned.get(record);
  if (kept && kept.cancelAt === record.cancelRequestedAt) return kept.events;
  const events = plannedEvents(record).map((event, i) => ({ ...event, seq: i + 1 }) as PlannedEvent);
  planned.set(record, { cancelAt: record.cancelRequestedAt, events });
  return events;
}
