// Human-readable views of jobs, outputs, use cases, data files, a job's events and the webhook.
import {
  bestValue,
  formatProblem,
  isQuboOutput,
  objectiveOf,
  type DataFile,
  type Job,
  type JobEvent,
  type JobOutput,
  type UseCase,
  type Webhook,
  type WebhookDelivery,
} from '../index.ts';
import { failureText } from './errors.ts';
import { fields, none, seconds, table, text } from './format.ts';
import { wordsFor } from './use-case-words.ts';

/** Seconds from submission to the end (or to now while the job runs). */
export function elapsedSeconds(job: Job, now = Date.now()): number {
  const end = job.timestamps.ended ? Date.parse(job.timestamps.ended) : now;
  return Math.max(0, (end - Date.parse(job.timestamps.submitted)) / 1000);
}

function inputText(job: Job): string {
  const size = `${job.input.bytes} bytes`;
  return job.input.mode === 'data_file'
    ? `data file ${job.input.data_file_identifier ?? ''} (${size})`
    : `inline (${size})`;
}

export function jobView(job: Job): string {
  const words = wordsFor(job.problem_id);
  const head = fields([
    ['Job', job.id],
    ['Status', job.status],
    ['Use case', job.problem_id],
    ['Input', inputText(job)],
    ['Submitted', job.timestamps.submitted],
    ['Ended', job.timestamps.ended ?? undefined],
    ['Elapsed', seconds(elapsedSeconds(job))],
    [words.best, text(bestValue(job))],
    ['Error', job.error ? failureText(job.error) : undefined],
  ]);
  const rows = Object.entries(job.executions).map(([solver, e]) => [
    solver,
    e.status,
    seconds(e.duration_seconds),
    text(e.data ? objectiveOf(e.data) : e.best_value),
    e.data ? text(e.data.optimal) : none,
    e.error
      ? formatProblem(e.error)
      : e.progress !== undefined
        ? `${Math.round(e.progress * 100)}% of the time limit`
        : '',
  ]);
  return `${head}\n${table(['SOLVER', 'STATUS', 'DURATION', words.column, 'OPTIMAL', 'NOTE'], rows)}`;
}

/** Jobs of any use case: BEST is each job's best cut or lowest energy. */
export function jobsView(jobs: Job[]): string {
  return table(
    ['JOB', 'STATUS', 'USE CASE', 'INPUT', 'SUBMITTED', 'BEST'],
    jobs.map((job) => [
      job.id,
      job.status,
      job.problem_id,
      job.input.mode,
      job.timestamps.submitted,
      text(bestValue(job)),
    ]),
  );
}

/**
 * Each solver's answer. The output does not name its use case, so its shape does: a QUBO answer (`energy`) or a
 * cut; when no solver succeeded there is no answer to show but that.
 */
export function outputView(output: JobOutput): string {
  const answers = Object.values(output.outputs).filter((data) => data !== null);
  const head = `Job ${output.job} ${output.status}\n\n`;
  const failed = [none, none, none, 'did not succeed'];
  if (answers.length === 0)
    return `${head}${table(
      ['SOLVER', 'RESULT'],
      Object.keys(output.outputs).map((solver) => [solver, 'did not succeed']),
    )}`;
  if (answers.every(isQuboOutput)) {
    const rows = Object.entries(output.outputs).map(([solver, data]) =>
      data && isQuboOutput(data)
        ? [solver, text(data.energy), text(data.optimal), text(data.lower_bound), seconds(data.time_to_best_seconds)]
        : [solver, ...failed],
    );
    const headings = ['SOLVER', 'ENERGY', 'OPTIMAL', 'LOWER BOUND', 'TIME TO BEST'];
    return `${head}${table(headings, rows)}\nEach solver's assignment (the value, 0 or 1, of each variable) is in: jes output ${output.job} --json\n`;
  }
  const rows = Object.entries(output.outputs).map(([solver, data]) =>
    data && !isQuboOutput(data)
      ? [solver, text(data.cut_value), text(data.optimal), text(data.upper_bound), seconds(data.time_to_best_seconds)]
      : [solver, ...failed],
  );
  const headings = ['SOLVER', 'CUT', 'OPTIMAL', 'UPPER BOUND', 'TIME TO BEST'];
  return `${head}${table(headings, rows)}\nEach solver's partition (the part, 0 or 1, of each node) is in: jes output ${output.job} --json\n`;
}

export function problemsView(useCases: UseCase[]): string {
  return table(
    ['ID', 'NAME', 'SOLVERS', 'INLINE LIMIT', 'DATA FILE FORMATS'],
    useCases.map((u) => [
      u.id,
      u.name,
      u.solvers.map((s) => s.name).join(', '),
      `${u.max_inline_bytes} bytes`,
      u.data_file_formats.join(', '),
    ]),
  );
}

/** Data files of any use case: SIZE is nodes or variables, PAIRS edges or coupled pairs of variables. */
export function dataFilesView(files: DataFile[]): string {
  return table(
    ['IDENTIFIER', 'NAME', 'STATUS', 'FORMAT', 'SIZE', 'PAIRS', 'BYTES', 'UPLOADED'],
    files.map((f) => [
      f.id,
      f.name,
      f.status,
      text(f.format),
      text(f.num_nodes),
      text(f.num_edges),
      String(f.bytes),
      f.timestamps.uploaded,
    ]),
  );
}

export function dataFileView(file: DataFile): string {
  const [size, pairs] = wordsFor(file.problem_id).size;
  return fields([
    ['Identifier', file.id],
    ['Name', file.name],
    ['Description', file.description],
    ['Status', file.status],
    ['Use case', file.problem_id],
    ['Format', text(file.format)],
    [size, text(file.num_nodes)],
    [pairs, text(file.num_edges)],
    ['Bytes', String(file.bytes)],
    ['Uploaded', file.timestamps.uploaded],
    ['Validated', file.timestamps.validated ?? undefined],
    ['Error', file.error ? failureText(file.error) : undefined],
  ]);
}

/** One line of `jes watch`: when, what kind, which solver, what changed (progress events carry no instant). */
export function eventLine(event: Exclude<JobEvent, { event: 'end' }>, problemId: string): string {
  const head = (at: string, kind: string, solver = '') => `${at.padEnd(24)}  ${kind.padEnd(9)}  ${solver.padEnd(14)}`;
  switch (event.event) {
    case 'status':
      return `${head(event.data.at, 'status')}  ${event.data.status}`;
    case 'execution':
      return `${head(event.data.at, 'execution', event.data.solver)}  ${event.data.status}`;
    case 'progress': {
      const { solver, best_value: best, seconds: after, progress } = event.data;
      const word = wordsFor(problemId).best.toLowerCase();
      // `seconds` is when the value was found; `progress`, how much of the time limit had gone when it was told.
      return `${head('', 'progress', solver)}  ${word} ${best} found at ${seconds(after)}, ${Math.round(progress * 100)}% of the time limit used`;
    }
  }
}

export function webhookView(webhook: Webhook): string {
  return fields([
    ['URL', webhook.url ?? 'none set (jes webhook set <url>)'],
    ['Events', webhook.events.join(', ')],
    ['Secret', webhook.secret],
    [
      'Previous secret',
      webhook.previous_secret_expires_at ? `valid until ${webhook.previous_secret_expires_at}` : undefined,
    ],
  ]);
}

export function deliveriesView(deliveries: WebhookDelivery[]): string {
  return table(
    ['ID', 'TYPE', 'JOB', 'STATUS', 'ATTEMPTS', 'CREATED', 'NEXT ATTEMPT', 'LAST ERROR'],
    deliveries.map((d) => [
      d.id,
      d.type,
      d.job_id,
      d.status,
      String(d.attempts),
      d.created_at,
      text(d.next_attempt_at),
      text(d.last_error),
    ]),
  );
}
