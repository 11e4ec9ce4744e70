// Human-readable views of jobs, outputs, use cases and data files.
import { formatProblem, type DataFile, type Job, type JobOutput, type UseCase } from '../index.ts';
import { failureText } from './errors.ts';
import { fields, none, seconds, table, text } from './format.ts';

/** The best objective so far: the best succeeded cut, else the best value a running solver reports. */
export function bestValue(job: Job): number | undefined {
  const values = Object.values(job.executions)
    .map((e) => e.data?.cut_value ?? e.best_value)
    .filter((v): v is number => v !== undefined);
  return values.length > 0 ? Math.max(...values) : undefined;
}

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
  const head = fields([
    ['Job', job.id],
    ['Status', job.status],
    ['Use case', job.problem_id],
    ['Input', inputText(job)],
    ['Submitted', job.timestamps.submitted],
    ['Ended', job.timestamps.ended ?? undefined],
    ['Elapsed', seconds(elapsedSeconds(job))],
    ['Best cut', job.problem_id === 'maxcut' ? text(bestValue(job)) : undefined],
    ['Error', job.error ? failureText(job.error) : undefined],
  ]);
  const rows = Object.entries(job.executions).map(([solver, e]) => [
    solver,
    e.status,
    seconds(e.duration_seconds),
    text(e.data?.cut_value ?? e.best_value),
    e.data ? text(e.data.optimal) : none,
    e.error
      ? formatProblem(e.error)
      : e.progress !== undefined
        ? `${Math.round(e.progress * 100)}% of the time limit`
        : '',
  ]);
  return `${head}\n${table(['SOLVER', 'STATUS', 'DURATION', 'CUT', 'OPTIMAL', 'NOTE'], rows)}`;
}

export function jobsView(jobs: Job[]): string {
  return table(
    ['JOB', 'STATUS', 'USE CASE', 'INPUT', 'SUBMITTED', 'BEST CUT'],
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

export function outputView(output: JobOutput): string {
  const rows = Object.entries(output.outputs).map(([solver, data]) =>
    data
      ? [solver, text(data.cut_value), text(data.optimal), text(data.upper_bound), seconds(data.time_to_best_seconds)]
      : [solver, none, none, none, 'did not succeed'],
  );
  return `Job ${output.job} ${output.status}\n\n${table(['SOLVER', 'CUT', 'OPTIMAL', 'UPPER BOUND', 'TIME TO BEST'], rows)}\nEach solver's partition (the part, 0 or 1, of each node) is in: jes output ${output.job} --json\n`;
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

export function dataFilesView(files: DataFile[]): string {
  return table(
    ['IDENTIFIER', 'NAME', 'STATUS', 'FORMAT', 'NODES', 'EDGES', 'BYTES', 'UPLOADED'],
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
  return fields([
    ['Identifier', file.id],
    ['Name', file.name],
    ['Description', file.description],
    ['Status', file.status],
    ['Use case', file.problem_id],
    ['Format', text(file.format)],
    ['Nodes', text(file.num_nodes)],
    ['Edges', text(file.num_edges)],
    ['Bytes', String(file.bytes)],
    ['Uploaded', file.timestamps.uploaded],
    ['Validated', file.timestamps.validated ?? undefined],
    ['Error', file.error ? failureText(file.error) : undefined],
  ]);
}
