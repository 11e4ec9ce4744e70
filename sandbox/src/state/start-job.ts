// startJob, startMaxCutJob and startQuboJob from the state, in a deployment's order (server/src/jobs/start-job.ts
// and routes/jobs.ts): a retry under a known Idempotency-Key is answered first; then the input (a data file of the
// same use case, or the inline body checked by @jes/contract/inputs: 422 invalid_input with pointers), the solvers
// (404 solver_not_found, 400 when one is chosen twice), a data file that proved INVALID (422), the cap on active
// jobs (429); then the job is planned (plan.ts) and its id answered.
import { fingerprint } from '@jes/contract/node';
import { InputError } from '@jes/contract/inputs';
import { type Answer, preferences } from '../conventions.ts';
import type { Operation } from '../mock.ts';
import { sandboxUseCases } from './inputs.ts';
import { ended } from './jobs.ts';
import { planJob, type SolverInfo } from './plan.ts';
import { idempotency, json, refusal, type StateRequest } from './request.ts';

type SolverChoice = { name: string; params?: Record<string, unknown> };
type DataFileBody = { data_file_identifier: string; solvers?: SolverChoice[]; time_limit_seconds?: number };

/** Each use case's solvers as the contract lists them (the examples of GET /problem/{problem_id}'s own paths). */
export function contractSolvers(operations: readonly Operation[]): Record<string, SolverInfo[]> {
  const solvers: Record<string, SolverInfo[]> = {};
  for (const op of operations) {
    const id = /^\/problem\/([a-z0-9_-]+)$/.exec(op.path)?.[1];
    if (!id || op.method !== 'get') continue;
    const examples = op.responses.find((r) => r.code === '200')?.contents?.flatMap((c) => c.examples ?? []) ?? [];
    const value = examples.map((e) => ('value' in e ? (e.value as { solvers?: SolverInfo[] }) : {}))[0];
    if (value?.solvers) solvers[id] = value.solvers;
  }
  return solvers;
}

/** The solvers run when none is chosen: the first default one that takes an input of this size (any size if unknown). */
function defaults(solvers: SolverInfo[], n: number | undefined): SolverInfo[] {
  const fits = (s: SolverInfo) => s.default && (s.max_nodes === undefined || (n !== undefined && n <= s.max_nodes));
  return solvers.filter(fits).slice(0, 1);
}

export function startJobHandler(solversOf: Record<string, SolverInfo[]>) {
  return function startJob(request: StateRequest): Answer {
    const { state, query, path } = request;
    const user = request.user!;
    const useCaseId = request.params.problem_id ?? /^\/problem\/([^/]+)$/.exec(path)![1]!;
    const useCase = sandboxUseCases[useCaseId]!;
    const listed = solversOf[useCaseId] ?? [];
    const querySolvers = query.getAll('solver');
    const queryLimit = query.get('time_limit_seconds');
    const read = {
      solver: querySolvers.length ? querySolvers : undefined,
      time_limit_seconds: queryLimit === null ? undefined : Number(queryLimit),
    };
    const print = fingerprint([useCaseId, JSON.stringify(read), request.raw ?? Buffer.alloc(0)]);
    const { key, answered } = idempotency(state, user, request, print);
    if (answered) return answered;

    const now = state.clock.now();
    const body = request.body as Record<string, unknown>;
    let choices: SolverChoice[] | undefined = read.solver?.map((name) => ({ name }));
    let timeLimit = read.time_limit_seconds;
    let prepared;
    let size: number | undefined;
    let readyAt = now;
    let input;
    if ('data_file_identifier' in body) {
      const fileBody = body as DataFileBody;
      if ((fileBody.solvers && choices) || (fileBody.time_limit_seconds !== undefined && timeLimit !== undefined)) {
        const pointer = fileBody.solvers && choices ? '/solvers' : '/time_limit_seconds';
        return refusal(
          request,
          'invalid_request',
          'Choose solvers and the time limit either in the query or in the body, not both.',
          {
            errors: [{ pointer, detail: 'also given in the query' }],
          },
        );
      }
      const id = fileBody.data_file_identifier;
      const file = user.files.get(id);
      if (!file) return refusal(request, 'data_file_not_found', `No data file ${id} exists for this user.`);
      if (file.problemId !== useCaseId)
        return refusal(
          request,
          'data_file_problem_mismatch',
          `Data file ${id} was uploaded for use case "${file.problemId}", not "${useCaseId}".`,
          { errors: [{ pointer: '/data_file_identifier', detail: `uploaded for use case "${file.problemId}"` }] },
        );
      choices = fileBody.solvers ?? choices;
      timeLimit = fileBody.time_limit_seconds ?? timeLimit;
      const validated = now >= file.validatedAt;
      // The size of a file still being validated is unknown.
      if (validated && 'prepared' in file.verdict) size = file.verdict.prepared.n;
      if (validated && 'error' in file.verdict)
        return refusal(request, 'data_file_invalid', `Data file ${id} failed validation; see GET /data_file/${id}.`);
      prepared = 'prepared' in file.verdict ? file.verdict.prepared : { error: file.verdict.error };
      readyAt = file.validatedAt;
      input = { mode: 'data_file' as const, dataFileId: id, bytes: file.size };
    } else {
      try {
        prepared = useCase.inline(body);
      } catch (error) {
        if (error instanceof InputError)
          return refusal(request, 'invalid_input', error.message, { errors: error.errors });
        throw error;
      }
      size = prepared.n;
      const raw = request.raw ?? Buffer.alloc(0);
      input = { mode: 'inline' as const, bytes: raw.length, text: raw };
    }

    const named: SolverChoice[] = choices ?? defaults(listed, size).map((s) => ({ name: s.name }));
    const solvers = [];
    for (const [i, choice] of named.entries()) {
      const solver = listed.find((s) => s.name === choice.name);
      if (!solver)
        return refusal(
          request,
          'solver_not_found',
          `Use case "${useCaseId}" has no solver "${choice.name}". Its solvers are listed by GET /problem/${useCaseId}.`,
        );
      if (named.findIndex((other) => other.name === choice.name) !== i)
        return refusal(
          request,
          'invalid_request',
          `Solver "${choice.name}" is chosen twice; a job runs each solver once.`,
          {
            errors: [{ pointer: `/solvers/${i}/name`, detail: 'already chosen' }],
          },
        );
      const seed = typeof choice.params?.seed === 'number' ? choice.params.seed : undefined;
      solvers.push({ solver, timeLimitSeconds: timeLimit ?? solver.default_time_limit_seconds, seed });
    }

    const active = [...user.jobs.values()].filter((job) => !ended(job, now)).length;
    const max = state.limits.maxActiveJobsPerUser;
    const busy = `You have ${active} jobs that have not ended; the limit is ${max}. Wait for one to end or cancel one.`;
    if (active >= max) return refusal(request, 'too_many_active_jobs', busy, { retryAfter: 5 });
    const id = state.newJobId();
    // Prefer: scenario=solver-error: every execution fails as a solver that breaks does (docs/sandbox.md, Scenarios).
    const solverError = preferences([request.headers.prefer ?? []].flat().join(', ')).scenario === 'solver-error';
    const record = planJob(
      { id, owner: user.name, useCase, solvers, input, prepared, readyAt, solverError },
      state.clock,
      state.random,
    );
    if (!state.makeRoom(user, record.heldBytes, true)) {
      const full = `The sandbox holds as much as it may of your jobs that have not ended (${state.limits.maxBytesPerUser} bytes, ${state.limits.maxJobsPerUser} jobs at most); wait for one to end or cancel one.`;
      return refusal(request, 'too_many_active_jobs', full, { retryAfter: 5 });
    }
    state.addJob(record);
    const answer = json(200, { detail: 'Job created', job: id }, { Location: `/job/${id}` });
    if (key !== undefined) state.remember(user, key, print, answer);
    return answer;
  };
}
