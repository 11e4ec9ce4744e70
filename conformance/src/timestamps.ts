// The contract's timestamps: `MM/DD/YYYY, HH:MM:SS` in UTC, `end_at` "" until the end, the RFC 3339
// `timestamps` members naming the same instants. What is wrong with one job or data file record.
import { shown } from './answer-text.ts';

const format = /^(0[1-9]|1[0-2])\/(0[1-9]|[12][0-9]|3[01])\/([0-9]{4}), ([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])$/;

/** Milliseconds since the epoch of a documented timestamp read as UTC; undefined if it has another form. */
export function parseTimestamp(value: unknown): number | undefined {
  const m = typeof value === 'string' ? format.exec(value) : null;
  if (!m) return undefined;
  const [, month, day, year, hour, minute, second] = m.map(Number) as number[];
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
}

const terminalJob = new Set(['FINISHED', 'ERROR', 'CANCELLED']);
const terminalExecution = new Set(['SUCCESS', 'ERROR', 'CANCELLED']);

/** Problems with a `started_at`/`end_at` pair of a record whose status is (or is not) terminal. */
function pairProblems(where: string, record: any, ended: boolean, startRequired: boolean): string[] {
  const problems: string[] = [];
  const start = parseTimestamp(record.started_at);
  if (start === undefined && (startRequired || record.started_at !== ''))
    problems.push(`${where}: started_at ${shown(record.started_at)} is not MM/DD/YYYY, HH:MM:SS`);
  if (!ended) {
    if (record.end_at !== '')
      problems.push(
        `${where}: end_at is ${shown(record.end_at)} while it is ${record.status}; it must be "" until the end`,
      );
    return problems;
  }
  const end = parseTimestamp(record.end_at);
  if (end === undefined)
    problems.push(`${where}: end_at ${shown(record.end_at)} of a ${record.status} record is not MM/DD/YYYY, HH:MM:SS`);
  else if (start !== undefined && end < start)
    problems.push(`${where}: end_at ${record.end_at} is before started_at ${record.started_at}`);
  return problems;
}

/**
 * The documented timestamp and the RFC 3339 one name the same second (so the first is in UTC), within a
 * second either way (truncated or rounded). How far apart they are is counted from the second the twin falls
 * in, as the documented form writes it, so a stamp off by whole hours reads as exactly that many seconds.
 */
function sameInstant(where: string, name: string, documented: unknown, rfc3339: unknown): string[] {
  const a = parseTimestamp(documented);
  const b = typeof rfc3339 === 'string' ? Date.parse(rfc3339) : NaN;
  if (a === undefined || Number.isNaN(b)) return [];
  const apart = (a - Math.floor(b / 1000) * 1000) / 1000;
  return Math.abs(a - b) < 1000 + 1
    ? []
    : [
        `${where}: ${name} "${String(documented)}" and ${String(rfc3339)} are ${apart} s apart; they are the same instant in UTC`,
      ];
}

export function jobTimestampProblems(id: string, job: any): string[] {
  const where = `job ${id} (${job.status})`;
  const problems = pairProblems(where, job, terminalJob.has(job.status), true);
  problems.push(...sameInstant(where, 'started_at', job.started_at, job.timestamps?.submitted));
  if (job.end_at) problems.push(...sameInstant(where, 'end_at', job.end_at, job.timestamps?.ended));
  const jobEnd = parseTimestamp(job.end_at);
  for (const [solver, execution] of Object.entries<any>(job.executions ?? {})) {
    const at = `${where}, execution ${solver} (${execution.status})`;
    problems.push(...pairProblems(at, execution, terminalExecution.has(execution.status), false));
    const end = parseTimestamp(execution.end_at);
    if (jobEnd !== undefined && end !== undefined && end > jobEnd)
      problems.push(`${at}: ended at ${execution.end_at}, after its job (${job.end_at})`);
  }
  return problems;
}

export function dataFileTimestampProblems(id: string, file: any): string[] {
  const where = `data file ${id}`;
  if (parseTimestamp(file.created_at) === undefined)
    return [`${where}: created_at ${shown(file.created_at)} is not MM/DD/YYYY, HH:MM:SS`];
  return sameInstant(where, 'created_at', file.created_at, file.timestamps?.uploaded);
}
