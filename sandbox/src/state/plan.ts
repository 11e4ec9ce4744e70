// A job's plan, made when it is accepted: after a short PENDING, each execution runs (a heuristic to its time
// limit, as a deployment's do; the exact solver for a moment) and ends with its answer; a solver given an input
// past its `max_nodes` fails as a deployment's does (solver_limit_exceeded); a job started from a data file waits
// for the file's validation, and fails with it if the file is INVALID; `Prefer: scenario=solver-error` makes every
// execution fail (solver_failed) after running a while. Simulated seconds, `speed` times faster. A run's better
// values (answers.ts) are planned too, over its first half: its progress history and progress events.
import { type ErrorBody, errorBody, toMillisecond } from '@jes/contract';
import { answers } from './answers.ts';
import type { Clock } from './clock.ts';
import type { Prepared, SandboxUseCase } from './inputs.ts';
import type { JobRecord, PlannedExecution } from './jobs.ts';
import { createRandom, type Random } from './random.ts';

/** A solver as the contract lists it for its use case (GET /problem/{problem_id}). */
export interface SolverInfo {
  name: string;
  exact: boolean;
  default: boolean;
  default_time_limit_seconds: number;
  max_nodes?: number;
}

export interface JobToPlan {
  id: string;
  owner: string;
  useCase: SandboxUseCase;
  /** Each with its `seed` param, when the request gives one (the same input, solver and seed: the same answer). */
  solvers: { solver: SolverInfo; timeLimitSeconds: number; seed?: number | undefined }[];
  input: JobRecord['input'];
  /** The input, or the problem of the data file it came from (shown at `readyAt`). */
  prepared: Prepared | { error: ErrorBody };
  /** When the input is known to be valid or not: a data file's validation (wall ms); the job cannot run before. */
  readyAt: number;
  /** Every execution fails after running a while (`Prefer: scenario=solver-error`). */
  solverError?: boolean;
}

export function planJob(job: JobToPlan, clock: Clock, random: Random): JobRecord {
  const acceptedAt = clock.now();
  const startAt = Math.max(acceptedAt + clock.wallMs(0.5 + random.float()), job.readyAt);
  const { prepared } = job;
  const solve = 'error' in prepared ? undefined : answers(prepared);
  let outputBytes = 0;
  const executions = job.solvers.map(({ solver, timeLimitSeconds, seed }): PlannedExecution => {
    const planned = { solver: solver.name, timeLimitSeconds };
    if ('error' in prepared)
      return { ...planned, startAt: null, endAt: job.readyAt, outcome: { status: 'ERROR', error: prepared.error } };
    if (solver.max_nodes !== undefined && prepared.n > solver.max_nodes) {
      const { units, thing } = job.useCase;
      const detail = `The ${solver.name} solver accepts at most ${solver.max_nodes} ${units}; this ${thing} has ${prepared.n}. Choose another solver.`;
      return {
        ...planned,
        startAt,
        endAt: startAt + clock.wallMs(0.1),
        outcome: { status: 'ERROR', error: errorBody('solver_limit_exceeded', detail) },
      };
    }
    if (job.solverError)
      return {
        ...planned,
        startAt,
        endAt: startAt + clock.wallMs(Math.min(timeLimitSeconds, 1) / 2),
        outcome: {
          status: 'ERROR',
          error: errorBody(
            'solver_failed',
            'The solver failed (the sandbox was asked to: Prefer: scenario=solver-error).',
          ),
        },
      };
    const seconds = solver.exact ? Math.min(timeLimitSeconds, 0.5 + 1.5 * random.float()) : timeLimitSeconds;
    const runMs = clock.wallMs(seconds);
    const { x, value, optimal, improvements, iterations } = solve!(seed === undefined ? random : createRandom(seed));
    // An output's assignment is an array of numbers: 8 bytes an entry, and its JSON text about 2.
    outputBytes += 10 * x.length;
    const data = job.useCase.output(x, value, optimal, {
      iterations,
      time_to_best_seconds: toMillisecond(runMs / 2000),
    });
    // The values found are spread over the first half of the run: the answer's at its time_to_best_seconds.
    const found = improvements.map((i) => ({ at: startAt + Math.round((i.fraction * runMs) / 2), value: i.value }));
    return {
      ...planned,
      startAt,
      endAt: startAt + runMs,
      outcome: { status: 'SUCCESS', data, value, improvements: found },
    };
  });
  return {
    id: job.id,
    owner: job.owner,
    problemId: job.useCase.id,
    acceptedAt,
    input: job.input,
    executions,
    cancelRequestedAt: null,
    heldBytes: 1024 + (job.input.text?.length ?? 0) + outputBytes,
  };
}
