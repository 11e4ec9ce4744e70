// Each execution's best value against the seconds since it started, from the job as the page reads it, with the
// service's own clock: at each read while it runs, its `duration_seconds` and `best_value`; once it has ended, its
// answer's `time_to_best_seconds` and its last duration with the final value. So a job that ended before the page
// opened still shows when each best was found and how long it stood, and the browser's clock plays no part.
// (The service keeps no history: a later version of the API may give one.)
import type { Execution, Job } from '@jes/client';

export type Point = [seconds: number, value: number];

/** Each solver's points, in order of time. */
export type Trace = Record<string, Point[]>;

function followed(points: Point[], e: Execution): Point[] {
  const at = e.duration_seconds;
  const value = e.best_value;
  if (at === null || value === undefined) return points;
  const found = e.data?.time_to_best_seconds;
  // The answer says when its value was found: what was read since is that value, not what the reads lagged at.
  const before = found === undefined ? points : [...points.filter(([s]) => s < found), [found, value] as Point];
  const last = before.at(-1)?.[0] ?? -1;
  return at > last ? [...before, [at, value]] : before;
}

/** The trace with what this read of the job adds to it. */
export function traced(trace: Trace, job: Job): Trace {
  return Object.fromEntries(
    Object.entries<Execution>(job.executions).map(([solver, e]) => [solver, followed(trace[solver] ?? [], e)]),
  );
}
