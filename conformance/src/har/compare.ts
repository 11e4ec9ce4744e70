// How an answer now differs from the recorded one, in three kinds. Status: another HTTP status, or an answer then
// and none now. Schema: it conformed to the contract then (as the run judged it) and does not now, or the other
// way. Semantics, when the status is the same: another problem `code`; a job, execution or data file that had
// reached a terminal status then and another one now; a max-cut or QUBO answer whose cut or energy is not its
// partition's or assignment's now (recomputed as the semantics checks do) while it was then; and the
// keys and types of the body (shape.ts). Values are not compared: ids, timestamps, request ids and durations vary.
// Nor is what depends on the moment a request came, not on the deployment: a read answered `job_not_finished` then
// and the output now (a poll behind the recording is repeated instead: replay.ts), a cancel accepted once and too
// late once, or that found the job's executions elsewhere (and what that job ended as).
import { cutValue, energy } from '@jes/contract';
import { parseEventStream, eventsAsJson, isEventStream } from '../event-stream.ts';
import type { Reply } from '../http.ts';
import { terminalJobStatuses } from '../jobs.ts';
import { sameValue } from '../same-value.ts';
import type { RecordedEntry } from './har.ts';
import type { IdMap } from './ids.ts';
import { shapeDifferences, shapeOf } from './shape.ts';

export type DifferenceKind = 'status' | 'schema' | 'semantics';

export interface Difference {
  kind: DifferenceKind;
  message: string;
}

const terminal: Record<string, ReadonlySet<string>> = {
  job: terminalJobStatuses,
  execution: new Set(['SUCCESS', 'ERROR', 'CANCELLED']),
  'data file': new Set(['READY', 'INVALID']),
};
/**
 * Statuses of what holds what it holds by the moment: not ended yet (jobs, executions, data files, webhook deliveries
 * `pending`), or stopped wherever it was (CANCELLED: an execution keeps the progress it had made, if any).
 */
const unsettled: ReadonlySet<string> = new Set([
  'PENDING',
  'PREPARING',
  'RUNNING',
  'PROCESSING',
  'pending',
  'CANCELLED',
]);
const isUnsettled = (status: string) => unsettled.has(status);
/** How far along a status is (the repeated polls wait for the new answer to get as far). */
const stage = (kind: string, status: string) =>
  terminal[kind]!.has(status) ? 2 : status === 'RUNNING' ? 1 : status === 'PREPARING' ? 0.5 : 0;

/** The body of a recorded answer as the suite reads it: JSON, an event stream's events, or undefined. */
export function recordedJson(entry: RecordedEntry): unknown {
  const { text = '', mimeType } = entry.response.content;
  if (isEventStream({ 'content-type': mimeType })) return eventsAsJson(parseEventStream(text));
  if (!/json/i.test(mimeType)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every status an answer tells of jobs, executions and data files, by `kind id[/solver]` (ids as `id` maps them). */
export function statusesIn(json: unknown, id: (raw: string) => string = (raw) => raw): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (body: any, depth: number) => {
    if (!body || typeof body !== 'object' || depth > 3) return;
    if (Array.isArray(body)) return body.forEach((item) => visit(item?.data, depth + 1));
    if (body.job && typeof body.job === 'object')
      for (const [jobId, job] of Object.entries<any>(body.job)) {
        if (typeof job?.status === 'string') found.set(`job ${id(jobId)}`, job.status);
        for (const [solver, execution] of Object.entries<any>(job?.executions ?? {}))
          if (typeof execution?.status === 'string') found.set(`execution ${id(jobId)}/${solver}`, execution.status);
      }
    if (typeof body.job === 'string' && typeof body.status === 'string' && body.outputs)
      found.set(`job ${id(body.job)}`, body.status);
    if (body.data_file && typeof body.data_file === 'object')
      for (const [fileId, file] of Object.entries<any>(body.data_file))
        if (typeof file?.status === 'string') found.set(`data file ${id(fileId)}`, file.status);
  };
  visit(json, 0);
  return found;
}

const codeOf = (json: unknown) => (json as { code?: unknown } | undefined)?.code;

/** The contract's answer to a read of what has not ended yet (getJobOutput's 409): a moment's, not a deployment's. */
const notYet = (status: number, json: unknown) => status === 409 && codeOf(json) === 'job_not_finished';

/**
 * Whether the new answer is behind the recorded one, a poll to repeat: something not yet as far along as the
 * recorded answer told (RUNNING now, FINISHED then), or `job_not_finished` now where the recorded read succeeded.
 */
export function behind(entry: RecordedEntry, then: unknown, now: Reply, recorded: (id: string) => string): boolean {
  if (notYet(now.status, now.json) && entry.response.status >= 200 && entry.response.status < 300) return true;
  return now.status === entry.response.status && further(statusesIn(then), statusesIn(now.json, recorded));
}

function further(then: Map<string, string>, now: Map<string, string>): boolean {
  for (const [key, status] of then) {
    const current = now.get(key);
    const kind = key.slice(0, key.lastIndexOf(' '));
    if (current !== undefined && stage(kind, current) < stage(kind, status)) return true;
  }
  return false;
}

/** The inputs of the run's jobs by recorded job id: a max-cut graph or a QUBO, for recomputing their answers. */
export type Inputs = Map<string, { adj_matrix?: number[][]; q_matrix?: number[][] }>;

/** `jobId/solver` of each answer whose cut or energy is not that of its partition or assignment. */
function wrongAnswers(json: unknown, inputs: Inputs, recorded: (id: string) => string): Map<string, string> {
  const wrong = new Map<string, string>();
  const judge = (jobId: string, solver: string, data: any) => {
    const input = inputs.get(recorded(jobId));
    if (!data || typeof data !== 'object' || !input) return;
    if (input.adj_matrix && Array.isArray(data.partition) && data.partition.length === input.adj_matrix.length) {
      const cut = cutValue(input.adj_matrix, data.partition);
      if (!sameValue(data.cut_value, cut))
        wrong.set(`${recorded(jobId)}, ${solver}`, `cut_value ${data.cut_value}, but its partition cuts ${cut}`);
    }
    if (input.q_matrix && Array.isArray(data.assignment) && data.assignment.length === input.q_matrix.length) {
      const value = energy(input.q_matrix, data.assignment);
      if (!sameValue(data.energy, value))
        wrong.set(`${recorded(jobId)}, ${solver}`, `energy ${data.energy}, but its assignment has energy ${value}`);
    }
  };
  const visit = (body: any, depth: number) => {
    if (!body || typeof body !== 'object' || depth > 3) return;
    if (Array.isArray(body)) return body.forEach((item) => visit(item?.data, depth + 1));
    if (body.job && typeof body.job === 'object')
      for (const [jobId, job] of Object.entries<any>(body.job))
        for (const [solver, execution] of Object.entries<any>(job?.executions ?? {}))
          judge(jobId, solver, execution?.data);
    if (typeof body.job === 'string' && body.outputs && typeof body.outputs === 'object')
      for (const [solver, output] of Object.entries<any>(body.outputs)) judge(body.job, solver, output);
  };
  visit(json, 0);
  return wrong;
}

const shown = (status: number) => (status === 0 ? 'no answer' : String(status));

export interface Compared {
  entry: RecordedEntry;
  /** The recorded answer's body (recordedJson). */
  then: unknown;
  /** The new answer, or why none came. */
  now: { reply: Reply; violations: string[] } | { error: string };
  ids: IdMap;
  inputs: Inputs;
  /** Recorded ids of jobs a cancel raced (filled in as they are met). */
  raced: Set<string>;
}

/** A cancel's two answers (cancelJob): accepted (202), or too late, the job had ended (409 job_already_terminal). */
const cancelAnswer = (status: number, json: unknown) =>
  status === 202 || (status === 409 && codeOf(json) === 'job_already_terminal');

export function differences({ entry, then, now, ids, inputs, raced }: Compared): Difference[] {
  const status = 'reply' in now ? now.reply.status : 0;
  // A cancel that raced the job's end, won once and lost once: the moment differs, not the deployment. What the
  // job ended as differs with it, so its statuses are not compared from here on.
  if (
    entry._operationId === 'cancelJob' &&
    'reply' in now &&
    status !== entry.response.status &&
    cancelAnswer(entry.response.status, then) &&
    cancelAnswer(status, now.reply.json)
  ) {
    raced.add(new URL(entry.request.url).pathname.split('/')[2] ?? '');
    return [];
  }
  // A read the run made before the job had ended, and the replay after: the replay was slower, or the deployment faster.
  if (entry.request.method === 'GET' && notYet(entry.response.status, then) && status >= 200 && status < 300) return [];
  if (status !== entry.response.status) {
    const code = 'reply' in now && typeof codeOf(now.reply.json) === 'string' ? ` ${codeOf(now.reply.json)}` : '';
    const why = 'error' in now ? ` (${now.error})` : '';
    return [{ kind: 'status', message: `${shown(entry.response.status)} then, ${shown(status)}${code} now${why}` }];
  }
  if (!('reply' in now)) return [];
  const found: Difference[] = [];
  const before = entry._violations ?? [];
  const after = now.violations.map((v) => ids.back(v));
  if (!before.length && after.length)
    found.push({
      kind: 'schema',
      message: `conformed then, not now: ${after[0]}${after.length > 1 ? ` (and ${after.length - 1} more)` : ''}`,
    });
  if (before.length && !after.length) found.push({ kind: 'schema', message: `conforms now, not then: ${before[0]}` });
  const semantics = (message: string) => found.push({ kind: 'semantics', message });
  const json = now.reply.json;
  if (codeOf(then) !== codeOf(json) && (typeof codeOf(then) === 'string' || typeof codeOf(json) === 'string'))
    semantics(`problem code ${String(codeOf(then) ?? 'none')} then, ${String(codeOf(json) ?? 'none')} now`);
  const reached = statusesIn(json, (id) => ids.recorded(id));
  const told = statusesIn(then);
  // A cancel that found the job further along now, or not as far (an execution SUCCESS then, RUNNING now): it raced
  // the job's executions, so what the job ends as is the moment's.
  if (entry._operationId === 'cancelJob' && [...told].some(([key, status]) => (reached.get(key) ?? status) !== status))
    raced.add(new URL(entry.request.url).pathname.split('/')[2] ?? '');
  for (const [key, status] of told) {
    const kind = key.slice(0, key.lastIndexOf(' '));
    const current = reached.get(key);
    const job = key.slice(kind.length + 1).split('/')[0]!;
    if (terminal[kind]!.has(status) && current !== undefined && current !== status && !raced.has(job))
      semantics(`${key}: ${status} then, ${current} now`);
  }
  const wrongThen = wrongAnswers(then, inputs, (id) => id);
  for (const [key, message] of wrongAnswers(json, inputs, (id) => ids.recorded(id)))
    if (!wrongThen.has(key)) semantics(`job ${key}: ${message} (right then)`);
  const isId = (key: string) => ids.isId(key);
  const shapes = shapeDifferences(shapeOf(then, isId, isUnsettled), shapeOf(json, isId, isUnsettled));
  for (const message of shapes.slice(0, 5)) semantics(`keys and types: ${message}`);
  if (shapes.length > 5) semantics(`keys and types: ${shapes.length - 5} more differences`);
  return found;
}
