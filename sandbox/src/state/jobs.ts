// A job as the sandbox keeps it: planned whole when it is accepted (when each execution starts and ends, and how:
// SUCCESS with its answer, ERROR with its problem), so that its state at any instant is read off the plan, and a
// cancel is the one event that changes the plan. Statuses follow from the executions as on a deployment
// (@jes/contract's deriveJobStatus).
import {
  deriveJobStatus,
  type ErrorBody,
  type ExecutionStatus,
  type JobStatus,
  type ProgressPoint,
  terminalJob,
  withProgress,
} from '@jes/contract';

/** A better value the run finds, and when (wall ms). */
export interface PlannedImprovement {
  at: number;
  value: number;
}

export interface PlannedExecution {
  solver: string;
  timeLimitSeconds: number;
  /** When it starts running (wall ms), or null when it never runs (its data file turned out INVALID). */
  startAt: number | null;
  /** When it ends, unless cancelled before. */
  endAt: number;
  outcome:
    | { status: 'SUCCESS'; data: Record<string, unknown>; value: number; improvements: PlannedImprovement[] }
    | { status: 'ERROR'; error: ErrorBody };
}

export interface JobRecord {
  id: string;
  owner: string;
  problemId: string;
  acceptedAt: number;
  input: { mode: 'inline' | 'data_file'; dataFileId?: string; bytes: number; text?: Buffer };
  executions: PlannedExecution[];
  cancelRequestedAt: number | null;
  /** Bytes it holds in memory (its inline input and its outputs), for the caps. */
  heldBytes: number;
}

/** One execution at an instant. */
export interface ExecutionState {
  planned: PlannedExecution;
  status: ExecutionStatus;
  runningAt: number | null;
  endedAt: number | null;
  progress?: number;
  bestValue?: number;
  /** The better values found by then (the contract's progress_history), when any was. */
  history?: readonly ProgressPoint[];
}

/** The improvements of a run found by `t`, as its progress history (seconds since it started, to the ms). */
export function historyAt(e: PlannedExecution, t: number): readonly ProgressPoint[] {
  if (e.outcome.status !== 'SUCCESS' || e.startAt === null) return [];
  let history: readonly ProgressPoint[] = [];
  for (const found of e.outcome.improvements) {
    if (found.at > t) break;
    history = withProgress(history, { seconds: (found.at - e.startAt) / 1000, best_value: found.value });
  }
  return history;
}

/** The state with its best value and history by `t`, when the run found any. */
function withBest(state: ExecutionState, t: number): ExecutionState {
  const history = historyAt(state.planned, t);
  return history.length ? { ...state, bestValue: history.at(-1)!.best_value, history } : state;
}

export interface JobState {
  record: JobRecord;
  status: JobStatus;
  runningAt: number | null;
  endedAt: number | null;
  executions: ExecutionState[];
}

function executionAt(e: PlannedExecution, cancelAt: number | null, t: number): ExecutionState {
  const cancelled = cancelAt !== null && cancelAt <= t && cancelAt < e.endAt;
  const ran = e.startAt !== null && e.startAt <= t && (!cancelled || e.startAt <= cancelAt!);
  const runningAt = ran ? e.startAt : null;
  if (cancelled) {
    const state: ExecutionState = { planned: e, status: 'CANCELLED', runningAt, endedAt: cancelAt };
    return ran ? withBest(state, cancelAt!) : state;
  }
  if (t >= e.endAt) return withBest({ planned: e, status: e.outcome.status, runningAt, endedAt: e.endAt }, e.endAt);
  if (!ran) return { planned: e, status: 'PENDING', runningAt: null, endedAt: null };
  const limitMs = Math.max(1, e.endAt - e.startAt!);
  const state: ExecutionState = {
    planned: e,
    status: 'RUNNING',
    runningAt,
    endedAt: null,
    progress: Math.min(1, (t - e.startAt!) / limitMs),
  };
  return withBest(state, t);
}

/** The job at instant `t` (wall ms). */
export function jobAt(record: JobRecord, t: number): JobState {
  const executions = record.executions.map((e) => executionAt(e, record.cancelRequestedAt, t));
  const runningAt = Math.min(...executions.map((e) => e.runningAt ?? Infinity));
  const cancelRequested = record.cancelRequestedAt !== null && record.cancelRequestedAt <= t;
  const status = deriveJobStatus(executions, runningAt !== Infinity, cancelRequested);
  const endedAt = terminalJob.has(status) ? Math.max(...executions.map((e) => e.endedAt ?? 0)) : null;
  return { record, status, runningAt: runningAt === Infinity ? null : runningAt, endedAt, executions };
}

/** The next instant after `t` at which the job's state changes, or undefined once it has ended. */
export function nextChange(record: JobRecord, t: number): number | undefined {
  const instants = record.executions.flatMap((e) => [e.startAt ?? Infinity, e.endAt]).filter((at) => at > t);
  const next = Math.min(...instants);
  return Number.isFinite(next) ? next : undefined;
}

/** Whether the job has ended at `t`. */
export const ended = (record: JobRecord, t: number): boolean => terminalJob.has(jobAt(record, t).status);
