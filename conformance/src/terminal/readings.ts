// What one answer says about the run's jobs and data files, for terminal_states (watch.ts): a job as it
// reads (whole, listed, or its output), a job or data file that is there (any answer that could only come from
// it), one that is not (404 with its code), one deleted (204), a data file made (its upload), or a job that has
// not ended (409 job_not_finished). Read from every exchange of the run, whichever check sent it.
import type { JobForm } from './diff.ts';
import type { Exchange } from '../types.ts';

export type Kind = 'job' | 'data_file';

export type Reading =
  | { what: 'shown'; id: string; form: JobForm; value: any }
  | { what: 'there'; kind: Kind; id: string }
  | { what: 'absent'; kind: Kind; id: string }
  | { what: 'deleted'; kind: Kind; id: string }
  | { what: 'made'; kind: 'data_file'; id: string }
  | { what: 'unended'; id: string };

/** The code of a resource's own 404 (the other codes of a 404 are about something else: a data file a job used…). */
export const notFoundCode: Record<Kind, string> = { job: 'job_not_found', data_file: 'data_file_not_found' };

const members = (value: unknown): [string, any][] =>
  value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];

/** The path of the request below the deployment's base URL (`/job/ABC/output`). */
function pathBelow(exchange: Exchange, baseUrl: string): string {
  const path = new URL(exchange.request.url).pathname;
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return path.startsWith(base) ? path.slice(base.length) : path;
}

/** The id in `/job/{id}…` or `/data_file/{id}…`. */
function idIn(path: string, kind: Kind): string | undefined {
  const segment = new RegExp(`^/${kind}/([^/]+)`).exec(path)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Every job of an envelope or a page, as `form`. */
const jobsShown = (body: any, form: JobForm): Reading[] =>
  members(body?.job)
    .filter(([, job]) => job && typeof job === 'object')
    .map(([id, value]) => ({ what: 'shown', id, form, value }));

/** What the exchange's answer says (nothing for an exchange without an answer, or of an operation not about them). */
export function readingsOf(exchange: Exchange, baseUrl: string): Reading[] {
  const answer = exchange.response;
  if (!answer) return [];
  const { status, json } = answer;
  const path = pathBelow(exchange, baseUrl);
  const job = idIn(path, 'job');
  const file = idIn(path, 'data_file');
  const code = (json as { code?: unknown } | undefined)?.code;
  const absent = (kind: Kind, id: string | undefined): Reading[] =>
    status === 404 && code === notFoundCode[kind] && id !== undefined ? [{ what: 'absent', kind, id }] : [];
  const there = (kind: Kind, id: string | undefined): Reading[] =>
    id === undefined ? [] : [{ what: 'there', kind, id }];
  switch (exchange.operationId) {
    case 'getJob':
      return status === 200 ? jobsShown(json, 'job') : absent('job', job);
    case 'cancelJob':
      if (status === 202) return jobsShown(json, 'job');
      return status === 409 ? there('job', job) : absent('job', job);
    case 'getJobOutput':
      if (status === 200) {
        const output = json as any;
        const id = typeof output?.job === 'string' ? output.job : job;
        return id === undefined ? [] : [{ what: 'shown', id, form: 'output', value: output }];
      }
      if (status === 409 && code === 'job_not_finished' && job !== undefined) return [{ what: 'unended', id: job }];
      return absent('job', job);
    case 'getJobInput':
      return status === 200 ? there('job', job) : absent('job', job);
    case 'streamJobEvents': {
      if (status !== 200) return absent('job', job);
      // The `end` event's data is the job as GET /job/{job_id} answers it at its end.
      const ends = Array.isArray(json) ? json.filter((e: any) => e?.event === 'end') : [];
      return [...there('job', job), ...ends.flatMap((e: any) => jobsShown(e.data, 'job'))];
    }
    case 'deleteJob':
      if (status === 204 && job !== undefined) return [{ what: 'deleted', kind: 'job', id: job }];
      if (status === 409 && code === 'job_not_finished' && job !== undefined) return [{ what: 'unended', id: job }];
      return status === 409 ? there('job', job) : absent('job', job);
    case 'listJobs':
      return status === 200 ? jobsShown(json, 'listed') : [];
    case 'getDataFile':
      return status === 200 ? there('data_file', file) : absent('data_file', file);
    case 'deleteDataFile':
      if (status === 204 && file !== undefined) return [{ what: 'deleted', kind: 'data_file', id: file }];
      return status === 409 ? there('data_file', file) : absent('data_file', file);
    case 'listDataFiles':
      return status === 200 ? members((json as any)?.data_file).flatMap(([id]) => there('data_file', id)) : [];
    case 'uploadDataFile': {
      const id = (json as any)?.data_file_identifier;
      return (status === 200 || status === 201) && typeof id === 'string'
        ? [{ what: 'made', kind: 'data_file', id }]
        : [];
    }
    default:
      return [];
  }
}
