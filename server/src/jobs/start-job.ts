// startJob without HTTP: the use case checks the inline input (once, here) or the job refers to a data file of
// the same use case; the solvers chosen (or the use case's defaults for the input's size) become the executions;
// the job is created with its input (prepared, or its JSON text). Routes call it for every use case's path.
import { randomInt } from 'node:crypto';
import type { operations } from '@jes/contract';
import { InputError } from '@jes/contract/inputs';
import { ApiError } from '../core/api-error.ts';
import { readDataFile } from '../store/data-files.ts';
import type { Database } from '../store/database.ts';
import type { NewExecution, NewJob } from '../store/jobs.ts';
import type { CheckedInline, InputSize, UseCase } from '../core/use-case.ts';
import { findSolver } from '../use-cases.ts';
import { activeTraceparent } from '../tracing/spans.ts';

type Body = operations['startJob']['requestBody']['content']['application/json'];
type DataFileRequest = Extract<Body, { data_file_identifier: string }>;
type SolverChoice = NonNullable<DataFileRequest['solvers']>[number];
export type StartJobQuery = { solver: string[] | undefined; time_limit_seconds: number | undefined };

export interface StartJobRequest {
  owner: string;
  useCase: UseCase;
  body: Body;
  /** The body's bytes as sent (decoded): what an inline job measures. */
  raw: Buffer;
  query: StartJobQuery;
  maxActiveJobs: number;
}

/** The largest seed (the contract's SolverChoice.params.seed maximum, which the validator enforces). */
const maxSeed = 2 ** 31 - 1;

function executionsFor(
  useCase: UseCase,
  choices: SolverChoice[] | undefined,
  size: InputSize | undefined,
  timeLimit: number | undefined,
): NewExecution[] {
  const named: SolverChoice[] = choices ?? useCase.defaultSolvers(size).map((name) => ({ name }));
  const chosen = named.map((c, i, all) => {
    const solver = findSolver(useCase, c.name);
    if (!solver)
      throw new ApiError(
        'solver_not_found',
        `Use case "${useCase.id}" has no solver "${c.name}". Its solvers are listed by GET /problem/${useCase.id}.`,
      );
    if (all.findIndex((other) => other.name === c.name) !== i) {
      throw new ApiError('invalid_request', `Solver "${c.name}" is chosen twice; a job runs each solver once.`, {
        errors: [{ pointer: `/solvers/${i}/name`, detail: 'already chosen' }],
      });
    }
    return { solver, params: (c.params ?? {}) as Record<string, unknown> };
  });
  return chosen.map(({ solver, params }) => ({
    solver: solver.name,
    params,
    timeLimitSeconds: timeLimit ?? solver.defaultTimeLimitSeconds,
    seed: params.seed === undefined ? randomInt(maxSeed + 1) : (params.seed as number),
  }));
}

/** The job to create: from a data file of the same use case, or from the inline input, accepted once. */
export async function newJob(db: Database, request: StartJobRequest): Promise<NewJob> {
  const { owner, useCase, body, query } = request;
  const querySolvers: SolverChoice[] | undefined = query.solver?.map((name) => ({ name }));
  // The request's trace (tracing on) travels with the job to the worker that runs it.
  const common = {
    owner,
    problemId: useCase.id,
    maxActiveJobs: request.maxActiveJobs,
    traceparent: activeTraceparent(),
  };
  if ('data_file_identifier' in body) {
    const id = body.data_file_identifier;
    const bodyLimit = body.time_limit_seconds;
    if ((body.solvers && querySolvers) || (bodyLimit !== undefined && query.time_limit_seconds !== undefined)) {
      throw new ApiError(
        'invalid_request',
        'Choose solvers and the time limit either in the query or in the body, not both.',
        {
          errors: [
            {
              pointer: body.solvers && querySolvers ? '/solvers' : '/time_limit_seconds',
              detail: 'also given in the query',
            },
          ],
        },
      );
    }
    const file = await readDataFile(db, owner, id);
    if (!file) throw new ApiError('data_file_not_found', `No data file ${id} exists for this user.`);
    if (file.problem_id !== useCase.id) {
      throw new ApiError(
        'data_file_problem_mismatch',
        `Data file ${id} was uploaded for use case "${file.problem_id}", not "${useCase.id}".`,
        { errors: [{ pointer: '/data_file_identifier', detail: `uploaded for use case "${file.problem_id}"` }] },
      );
    }
    // The size of a file still being validated is unknown.
    const size = file.num_nodes === null ? undefined : { nodes: file.num_nodes, edges: file.num_edges ?? 0 };
    return {
      ...common,
      inputMode: 'data_file',
      dataFileId: id,
      inputBytes: file.bytes,
      input: null,
      inputPrepared: false,
      executions: executionsFor(useCase, body.solvers ?? querySolvers, size, bodyLimit ?? query.time_limit_seconds),
    };
  }
  let checked: CheckedInline<unknown>;
  try {
    checked = useCase.checkInline(body);
  } catch (error) {
    if (error instanceof InputError) throw new ApiError('invalid_input', error.message, { errors: error.errors });
    throw error;
  }
  // Stored as the smaller of the two: the prepared input (read back without parsing) or the JSON text (a dense
  // matrix's text is smaller than its graph, and storing the larger cost PGlite more than parsing saves). The
  // prepared input is built only to be stored; the text is the request's own bytes, not copied.
  const prepared = checked.encodedBytes <= request.raw.length;
  return {
    ...common,
    inputMode: 'inline',
    dataFileId: null,
    inputBytes: request.raw.length,
    input: prepared ? useCase.encode(checked.prepare()) : request.raw,
    inputPrepared: prepared,
    executions: executionsFor(useCase, querySolvers, checked.size, query.time_limit_seconds),
  };
}
