// The status changes of all a user's jobs, numbered across them (GET /events), as a deployment numbers them with a
// counter per user. The sandbox's jobs know their whole future (job-events.ts), but a number, once given, must never
// change: so the changes are numbered as time passes, when a stream reads them (those before `now`, in the order
// they happened), into a log kept on the user. A deleted job's changes leave the log: they are left out, as on a
// deployment, and the log stays bounded by the jobs the user holds.
import { jobEvents, type PlannedEvent } from './job-events.ts';
import type { JobRecord } from './jobs.ts';

export interface LoggedChange {
  seq: number;
  record: JobRecord;
  event: PlannedEvent & { type: 'status' };
}

export interface UserEventLog {
  /** The last number given. */
  seq: number;
  /** Every change before this instant (wall ms) is numbered. */
  before: number;
  changes: LoggedChange[];
}

export const emptyLog = (): UserEventLog => ({ seq: 0, before: -Infinity, changes: [] });

/** The status changes of `record` at or after `from` and before `to`. */
function statusChanges(record: JobRecord, from: number, to: number): (PlannedEvent & { type: 'status' })[] {
  const events = jobEvents(record);
  if (!events.length || events.at(-1)!.at < from) return [];
  return events.filter((e): e is PlannedEvent & { type: 'status' } => e.type === 'status' && e.at >= from && e.at < to);
}

/**
 * Numbers the changes of `jobs` (the user's, oldest first) that happened before `now`, and drops those of jobs
 * `held` no longer holds; returns the log.
 */
export function logUntil(
  log: UserEventLog,
  jobs: Iterable<JobRecord>,
  now: number,
  held: (record: JobRecord) => boolean,
): UserEventLog {
  if (now <= log.before) return log;
  const found: { order: number; record: JobRecord; event: PlannedEvent & { type: 'status' } }[] = [];
  let order = 0;
  for (const record of jobs) {
    for (const event of statusChanges(record, log.before, now)) found.push({ order, record, event });
    order++;
  }
  // In the order they happened; within one instant, by job (oldest first) and then within the job.
  found.sort((a, b) => a.event.at - b.event.at || a.order - b.order || a.event.seq - b.event.seq);
  for (const { record, event } of found) log.changes.push({ seq: ++log.seq, record, event });
  log.before = now;
  if (log.changes.some((change) => !held(change.record))) log.changes = log.changes.filter((c) => held(c.record));
  return log;
}

/** The instant of the next change of any of `jobs` at or after `now`, if one is planned. */
export function nextUserChange(jobs: Iterable<JobRecord>, now: number): number | undefined {
  let next = Infinity;
  for (const record of jobs) {
    const events = jobEvents(record);
    if (!events.length || events.at(-1)!.at < now) continue;
    const found = events.find((e) => e.type === 'status' && e.at >= now);
    if (found && found.at < next) next = found.at;
  }
  return Number.isFinite(next) ? next : undefined;
}
