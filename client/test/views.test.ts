// The command line's views of a QUBO job: the contract's finished-job and output examples made over into answers to
// its 4-variable QUBO (the contract has no QUBO job example, and the sandbox answers with the max-cut ones), shown
// as a person reads them: the lowest energy is the best, the answer is an energy with its lower bound.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { bestValue, type Job, type JobOutput, type QuboOutput } from '../src/index.ts';
import { progressLine } from '../src/cli/progress.ts';
import { jobsView, jobView, outputView } from '../src/cli/views.ts';
import { repoRoot } from './support/processes.ts';

const examples = parse(readFileSync(join(repoRoot, 'openapi.yaml'), 'utf8')).components.examples;
const exact: QuboOutput = { energy: -11, assignment: [1, 0, 0, 1], optimal: true, lower_bound: -11 };
const annealing: QuboOutput = { energy: -8, assignment: [0, 0, 1, 0], optimal: false, time_to_best_seconds: 0.004 };

/** The contract's finished job, as a QUBO job whose exact solver found -11 and whose other one found -8. */
function quboJob(): Job {
  const [id, job] = Object.entries<Job>(structuredClone(examples.JobFinished.value.job))[0]!;
  job.problem_id = 'qubo';
  job.executions.exact!.data = exact;
  job.executions.exact!.best_value = -11;
  job.executions['local-search']!.data = annealing;
  job.executions['local-search']!.best_value = -8;
  return { ...job, id };
}

describe('a QUBO job in the views', () => {
  it('its best value is the lowest energy, while it runs (best_value) and once ended (data)', () => {
    const job = quboJob();
    expect(bestValue(job)).toBe(-11);
    for (const e of Object.values(job.executions)) delete e.data;
    expect(bestValue(job)).toBe(-11);
    expect(progressLine(job)).toMatch(/^K7Q2M9X4TB1R FINISHED +lowest energy +-11 +elapsed /);
  });

  it('jes status shows the lowest energy and each solver’s energy', () => {
    const view = jobView(quboJob());
    expect(view).toMatch(/^Use case +qubo$/m);
    expect(view).toMatch(/^Lowest energy +-11$/m);
    expect(view).not.toMatch(/cut/i);
    expect(view).toMatch(/^SOLVER +STATUS +DURATION +ENERGY +OPTIMAL +NOTE$/m);
    expect(view).toMatch(/^exact +SUCCESS +0\.002 s +-11 +yes/m);
    expect(view).toMatch(/^local-search +SUCCESS +5\.0 s +-8 +no/m);
  });

  it('jes jobs lists a QUBO job beside a max-cut one, each with its own best', () => {
    const maxcut = Object.entries<Job>(examples.JobFinished.value.job).map(([id, job]) => ({ ...job, id }))[0]!;
    const list = jobsView([quboJob(), maxcut]);
    expect(list).toMatch(/^JOB +STATUS +USE CASE +INPUT +SUBMITTED +BEST$/m);
    expect(list).toMatch(/^K7Q2M9X4TB1R +FINISHED +qubo +inline +\S+ +-11$/m);
    expect(list).toMatch(/^K7Q2M9X4TB1R +FINISHED +maxcut +inline +\S+ +53$/m);
  });

  it('jes output shows each energy, whether it is proven, and the lower bound; a failed solver says so', () => {
    const output: JobOutput = { job: 'K7Q2M9X4TB1R', status: 'FINISHED', outputs: { exact, annealing, random: null } };
    const view = outputView(output);
    expect(view).toMatch(/^SOLVER +ENERGY +OPTIMAL +LOWER BOUND +TIME TO BEST$/m);
    expect(view).toMatch(/^exact +-11 +yes +-11 +- *$/m);
    expect(view).toMatch(/^annealing +-8 +no +- +0\.004 s$/m);
    expect(view).toMatch(/^random +- +- +- +did not succeed$/m);
    expect(view).toContain('assignment (the value, 0 or 1, of each variable) is in: jes output K7Q2M9X4TB1R --json');
    expect(view).not.toMatch(/cut|partition/i);
  });

  it('jes output of a max-cut job is unchanged, and one where no solver succeeded says only that', () => {
    expect(outputView(examples.JobOutput.value)).toMatch(/^SOLVER +CUT +OPTIMAL +UPPER BOUND +TIME TO BEST$/m);
    const none = outputView({ job: 'K7Q2M9X4TB1R', status: 'ERROR', outputs: { exact: null } });
    expect(none).toBe('Job K7Q2M9X4TB1R ERROR\n\nSOLVER  RESULT\nexact   did not succeed\n');
  });
});
