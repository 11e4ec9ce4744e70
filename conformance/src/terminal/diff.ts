// What of an ended job must never change, and how two readings of it are compared: the contract says a terminal
// status never changes (JobStatus), and with it what the job ended with (its executions, their results, the
// instants, the summary). Readings come in three forms that show different parts of a job (a job read alone, a
// listing's item, its output), so each pair is compared on what both show, after leaving out the few fields that
// may change after the end, each with its reason below. Values are compared normalised: key order does not count,
// and an RFC 3339 instant is its instant (`…T14:03:07.412Z` and `…T14:03:07.412+00:00` are one).

/**
 * How an answer shows a job: `job` whole (GET /job/{job_id}, the 202 of a cancel, a stream's `end` event),
 * `listed` as a page of GET /job shows it (without `data` and `progress_history`, as the contract says), `output`
 * as GET /job/{job_id}/output does (its status and each solver's output).
 */
export type JobForm = 'job' | 'listed' | 'output';

/** One field that differs between two readings: its path (`executions.exact.data.cut_value`), then and now. */
export interface Difference {
  path: string;
  then: unknown;
  now: unknown;
}

const instant = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i;

/** A leaf as it is compared: an RFC 3339 instant as its milliseconds' ISO form, anything else as it is. */
function leaf(value: unknown): unknown {
  if (typeof value === 'string' && instant.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy without the members `drop` names (`*` for every member of an object on the way). */
function without(value: unknown, drop: readonly string[][]): unknown {
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const path of drop) {
    const [head, ...rest] = path;
    if (rest.length === 0) {
      if (head === '*') for (const key of Object.keys(copy)) delete copy[key];
      else delete copy[head!];
      continue;
    }
    for (const key of head === '*' ? Object.keys(copy) : [head!])
      if (key in copy) copy[key] = without(copy[key], [rest]);
  }
  return copy;
}

/**
 * Left out of every comparison, because they may change after the end without the job changing:
 * - `links`: where to find the job, not what it is; a deployment may add one (`events` came with contract 1.7.0)
 *   or move its paths (another prefix behind a new gateway) while the job stays what it ended as.
 * - `request_id` of the job's and its executions' `error`: the contract defines a problem's `request_id` as the id of
 *   the request answered (the X-Request-Id header), so a deployment may fill it in anew on each read.
 * Kept (the contract says no more of them than of the rest): `progress` and `best_value` as they were at the end,
 * `duration_seconds` (the run's length once it has ended), `cancel_requested_at` (an ended job cannot be cancelled).
 */
const mayChange = [['links'], ['error', 'request_id'], ['executions', '*', 'error', 'request_id']];

/** What a listing leaves out of each execution (the contract's listJobs and Execution.progress_history say so). */
const notListed = [
  ['executions', '*', 'data'],
  ['executions', '*', 'progress_history'],
];

/** The part of a reading of form `form` that can be compared with one of form `other`. */
function comparable(job: any, form: JobForm, other: JobForm): unknown {
  if (form === 'output' || other === 'output') {
    // An output shows the status and the results; the results are compared with another output only (lifecycle
    // holds an output to its job's executions).
    return form === 'output' && other === 'output'
      ? { status: job?.status, outputs: job?.outputs }
      : { status: job?.status };
  }
  return without(job, form === 'job' && other === 'job' ? mayChange : [...mayChange, ...notListed]);
}

/** Every leaf that differs between `then` and `now` (objects by member, arrays by index), in path order. */
function differences(then: unknown, now: unknown, path: string, into: Difference[]): void {
  if (isObject(then) && isObject(now)) {
    const keys = [...new Set([...Object.keys(then), ...Object.keys(now)])].sort();
    for (const key of keys) differences(then[key], now[key], path ? `${path}.${key}` : key, into);
  } else if (Array.isArray(then) && Array.isArray(now)) {
    for (let i = 0; i < Math.max(then.length, now.length); i++) differences(then[i], now[i], `${path}[${i}]`, into);
  } else {
    // A leaf, or a leaf against an object or an array (the whole member differs then).
    const composite = [then, now].some((v) => isObject(v) || Array.isArray(v));
    if (composite ? JSON.stringify(then) !== JSON.stringify(now) : leaf(then) !== leaf(now))
      into.push({ path, then, now });
  }
}

/** What differs between a reading of a job of form `thenForm` and a later one of form `nowForm` (empty: nothing). */
export function jobDifferences(then: unknown, thenForm: JobForm, now: unknown, nowForm: JobForm): Difference[] {
  const found: Difference[] = [];
  differences(comparable(then, thenForm, nowForm), comparable(now, nowForm, thenForm), '', found);
  return found;
}
