// Each execution's best value over time, from the job as the page knows it: its `progress_history` (the moments a
// better value was first found, in seconds since the execution started running), extended by the live `progress`
// events of its stream, and drawn against the seconds since the JOB started running, so that solvers that started
// at different moments line up. All times are the service's: the browser's clock plays no part, and a job that ended
// before the page opened shows its whole curve. A service that keeps no history (one older than contract 1.7) gives
// a point per read instead: the best value at the execution's duration then, and its answer's time_to_best_seconds.
import type { Execution, Job } from '@jes/client';
import { type ProgressPoint, withProgress } from '@jes/contract';

export type Point = [seconds: number, value: number];

/** One solver's line: its points against the seconds since the job started running. */
export interface Line {
  solver: string;
  /** Seconds from the job's start to the execution's: where its own seconds begin. */
  offset: number;
  /** [seconds since the job started, seconds since the solver started, value], in order of time. */
  points: [number, number, number][];
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);
const rounded = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Two histories of one execution as one: every moment of either, in order, each a change of value. Of two values
 * found in the same millisecond (a history may hold both) the later is kept: the earlier never stood.
 */
export function mergedHistory(a: readonly ProgressPoint[], b: readonly ProgressPoint[]): readonly ProgressPoint[] {
  const bySeconds = new Map([...a, ...b].map((p) => [p.seconds, p]));
  return [...bySeconds.values()]
    .sort((p, q) => p.seconds - q.seconds)
    .reduce<readonly ProgressPoint[]>((history, point) => withProgress(history, point), []);
}

/**
 * What a read of an execution says of its history: the history, with its answer's value at its time_to_best_seconds
 * (the same point, where the service recorded it; a value found in the solver's last moments, before any progress
 * report, is in the answer only); from an older service without histories, the best value at the duration then.
 */
function historyOf(e: Execution): readonly ProgressPoint[] {
  const found = e.data?.time_to_best_seconds;
  const answer =
    e.best_value !== undefined && typeof found === 'number' ? [{ seconds: found, best_value: e.best_value }] : [];
  if (e.progress_history) return answer.length > 0 ? mergedHistory(e.progress_history, answer) : e.progress_history;
  if (answer.length > 0 || e.best_value === undefined || e.duration_seconds === null) return answer;
  return [{ seconds: e.duration_seconds, best_value: e.best_value }];
}

/** The job as read, each execution's history merged with what the page already had of it (live points, reads). */
export function withHistories(before: Job | undefined, read: Job): Job {
  const executions = Object.fromEntries(
    Object.entries<Execution>(read.executions).map(([solver, e]) => {
      const known = before?.executions[solver]?.progress_history ?? [];
      const own = historyOf(e);
      const history = mergedHistory(known, own);
      // A point the page heard after the service answered this read (a progress event overtook it) stays the best.
      const last = history.at(-1);
      const later = last !== undefined && last.seconds > (own.at(-1)?.seconds ?? -1);
      const heard = later
        ? { best_value: last.best_value, duration_seconds: Math.max(e.duration_seconds ?? 0, last.seconds) }
        : {};
      return [solver, { ...e, progress_history: [...history], ...heard }];
    }),
  );
  return { ...read, executions };
}

/**
 * Each solver's line (every execution's, in the job's order, so a solver keeps its colour; empty until it reports a
 * value) against the seconds since the job started running: its history, then its last value held to
 * its duration (how long that best stood: to its end once it has ended, to the latest read while it runs).
 */
export function linesOf(job: Job): Line[] {
  const start = ms(job.timestamps?.running ?? job.timestamps?.submitted);
  return Object.entries<Execution>(job.executions).map(([solver, e]) => {
    // Through withHistories, a page's job has its histories whole; one read elsewhere, not yet.
    const history = mergedHistory(e.progress_history ?? [], historyOf(e));
    if (history.length === 0) return { solver, offset: 0, points: [] };
    const started = ms(e.timestamps?.running);
    const offset = Number.isNaN(start) || Number.isNaN(started) ? 0 : Math.max(0, rounded((started - start) / 1000));
    const points: [number, number, number][] = history.map((p) => [
      rounded(offset + p.seconds),
      p.seconds,
      p.best_value,
    ]);
    const last = history.at(-1)!;
    const held = e.duration_seconds;
    if (held !== null && held > last.seconds) points.push([rounded(offset + held), held, last.best_value]);
    return { solver, offset, points };
  });
}
