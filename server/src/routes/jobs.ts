// Jobs: start (inline or from a data file), list, read (with the Prefer: wait long poll), cancel, output, delete.
import { randomInt } from 'node:crypto';
import { type Request, Router } from 'express';
import type { AppDeps } from '../app.ts';
import { idempotentRequest, replayed, sendAnswer } from '../http/idempotency.ts';
import { HttpProblem } from '../problems.ts';
import { pageLimit, queryList, queryNumber } from '../http/query.ts';
import { renderJob } from '../jobs/render.ts';
import { terminalJob } from '../jobs/status.ts';
import { checkInline } from '../maxcut/inline.ts';
import { InputError } from '../maxcut/input-error.ts';
import { readDataFile } from '../store/data-files.ts';
import { KeyInUse } from '../store/idempotency-keys.ts';
import { createJob, deleteEndedJob, listJobs, type NewExecution, requestCancel } from '../store/jobs.ts';
import { JobViews } from '../jobs/views.ts';
import { defaultSolvers, solverByName } from '../solvers/index.ts';
import type { Solver } from '../solvers/solver.ts';

interface SolverChoice {
  name: string;
  params?: Record<string, unknown>;
}

/** The largest seed (the contract's SolverChoice.params.seed maximum, which the validator enforces). */
const maxSeed = 2 ** 31 - 1;

function executionsFor(
  choices: SolverChoice[] | undefined,
  numNodes: number | null,
  timeLimit: number | undefined,
): NewExecution[] {
  const chosen: { solver: Solver; params: Record<string, unknown> }[] = choices
    ? choices.map((c, i) => {
        const solver = solverByName(c.name);
        if (!solver)
          throw new HttpProblem(
            'solver_not_found',
            `Use case "maxcut" has no solver "${c.name}". Its solvers are listed by GET /problem/maxcut.`,
          );
        if (choices.findIndex((other) => other.name === c.name) !== i) {
          throw new HttpProblem('invalid_request', `Solver "${c.name}" is chosen twice; a job runs each solver once.`, {
            errors: [{ pointer: `/solvers/${i}/name`, detail: 'already chosen' }],
          });
        }
        return { solver, params: c.params ?? {} };
      })
    : // The size of a data file still being validated is unknown: run what works for any size.
      defaultSolvers({ n: numNodes ?? Infinity }).map((solver) => ({ solver, params: {} }));
  return chosen.map(({ solver, params }) => ({
    solver: solver.name,
    params,
    timeLimitSeconds: timeLimit ?? solver.defaultTimeLimitSeconds,
    seed: params.seed === undefined ? randomInt(maxSeed + 1) : (params.seed as number),
  }));
}

/** N of `Prefer: wait=N`, at most 60; undefined without it. */
function preferredWait(req: Request): number | undefined {
  const match = /(?:^|[,;\s])wait\s*=\s*(\d+)/i.exec(req.get('prefer') ?? '');
  return match ? Math.min(60, Number(match[1])) : undefined;
}

export function jobRoutes({ db, config, events }: AppDeps): Router {
  const views = new JobViews(events);
  const router = Router();

  router.post('/problem/:problem_id', async function startJob(req, res) {
    // A known use case: useCaseFirst (http/known-use-case.ts) refused any other before the body was read.
    const problemId = req.params.problem_id!;
    const body = req.body as Record<string, unknown>;
    const query = {
      solver: queryList(req.query.solver),
      time_limit_seconds: queryNumber(req.query.time_limit_seconds),
    };
    // The same request: the use case, the query as it is read, and the body's bytes as sent (decoded).
    const idempotent = idempotentRequest(req, [problemId, JSON.stringify(query), req.rawBody!]);
    // Looked up first: a replay answers even when the user has meanwhile reached the active-job cap.
    if (idempotent && (await replayed(db, req, res, idempotent))) return;
    const querySolvers = query.solver?.map((name) => ({ name }));
    let executions: NewExecution[];
    let job: Parameters<typeof createJob>[1];
    if ('data_file_identifier' in body) {
      const id = body.data_file_identifier as string;
      const bodySolvers = body.solvers as SolverChoice[] | undefined;
      const bodyLimit = body.time_limit_seconds as number | undefined;
      if ((bodySolvers && querySolvers) || (bodyLimit !== undefined && query.time_limit_seconds !== undefined)) {
        throw new HttpProblem(
          'invalid_request',
          'Choose solvers and the time limit either in the query or in the body, not both.',
          {
            errors: [
              {
                pointer: bodySolvers && querySolvers ? '/solvers' : '/time_limit_seconds',
                detail: 'also given in the query',
              },
            ],
          },
        );
      }
      const file = await readDataFile(db, req.user, id);
      if (!file) throw new HttpProblem('data_file_not_found', `No data file ${id} exists for this user.`);
      if (file.problem_id !== problemId) {
        throw new HttpProblem(
          'data_file_problem_mismatch',
          `Data file ${id} was uploaded for use case "${file.problem_id}", not "${problemId}".`,
          {
            errors: [{ pointer: '/data_file_identifier', detail: `uploaded for use case "${file.problem_id}"` }],
          },
        );
      }
      executions = executionsFor(bodySolvers ?? querySolvers, file.num_nodes, bodyLimit ?? query.time_limit_seconds);
      job = {
        owner: req.user,
        problemId,
        inputMode: 'data_file',
        dataFileId: id,
        inputBytes: file.bytes,
        input: null,
        executions,
        maxActiveJobs: config.maxActiveJobs,
      };
    } else {
      const raw = req.rawBody!;
      let numNodes: number;
      try {
        numNodes = checkInline(body as { num_nodes: number; adj_matrix: number[][] });
      } catch (error) {
        if (error instanceof InputError)
          throw new HttpProblem('invalid_input', error.message, { errors: error.errors });
        throw error;
      }
      executions = executionsFor(querySolvers, numNodes, query.time_limit_seconds);
      job = {
        owner: req.user,
        problemId,
        inputMode: 'inline',
        dataFileId: null,
        inputBytes: raw.length,
        input: raw.toString('utf8'),
        executions,
        maxActiveJobs: config.maxActiveJobs,
      };
    }
    const answer = (id: string) => ({ status: 200, body: { detail: 'Job created', job: id }, location: `/job/${id}` });
    try {
      sendAnswer(res, answer(await createJob(db, job, idempotent && { request: idempotent, answer })));
    } catch (error) {
      // A retry that raced its first attempt: the first one committed meanwhile, so there is an answer to replay.
      if (error instanceof KeyInUse && (await replayed(db, req, res, idempotent!))) return;
      throw error;
    }
  });

  router.get('/job', async (req, res) => {
    const q = req.query as { starting_after?: string; status?: string; problem_id?: string };
    const { views, hasMore } = await listJobs(db, req.user, {
      limit: pageLimit(req.query.limit),
      startingAfter: q.starting_after,
      status: q.status,
      problemId: q.problem_id,
    });
    res.json({
      job: Object.fromEntries(views.map((v) => [v.job.id, renderJob(v, false)])),
      ids: views.map((v) => v.job.id),
      has_more: hasMore,
    });
  });

  router.get('/job/:job_id', async function getJob(req, res) {
    const id = req.params.job_id!;
    const wait = preferredWait(req);
    if (wait !== undefined) res.set('Preference-Applied', `wait=${wait}`);
    const missing = () => new HttpProblem('job_not_found', `No job ${id} exists for this user.`);
    let view = await views.read(db, req.user, id);
    if (!view) throw missing();
    if (wait !== undefined && !terminalJob.has(view.job.status)) {
      const initial = view.job.status;
      const deadline = performance.now() + wait * 1000;
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      // A wake-up is a hint to re-read, not a change: the loop goes on until the status differs, the wait is
      // over, the client is gone, or the server shuts down (then the job is answered as it stands). A job deleted
      // meanwhile (DELETE /job, retention) is gone: 404.
      while (view.job.status === initial && performance.now() < deadline && !gone.signal.aborted && !events.closing) {
        await events.waitForChange(id, deadline - performance.now(), gone.signal);
        view = await views.read(db, req.user, id);
        if (!view) throw missing();
      }
    }
    res.json({ job: { [id]: renderJob(view) } });
  });

  router.post('/job/:job_id/cancel', async (req, res) => {
    const id = req.params.job_id!;
    res.status(202).json({ job: { [id]: renderJob(await requestCancel(db, req.user, id)) } });
  });

  router.delete('/job/:job_id', async function deleteJob(req, res) {
    const id = req.params.job_id!;
    await deleteEndedJob(db, req.user, id);
    views.forget(id);
    res.status(204).end();
  });

  router.get('/job/:job_id/output', async (req, res) => {
    const id = req.params.job_id!;
    const view = await views.read(db, req.user, id);
    if (!view) throw new HttpProblem('job_not_found', `No job ${id} exists for this user.`);
    if (!terminalJob.has(view.job.status)) {
      throw new HttpProblem(
        'job_not_finished',
        `Job ${id} is ${view.job.status}; its output is available once it has ended.`,
        { headers: { 'Retry-After': '2' } },
      );
    }
    res.json({
      job: id,
      status: view.job.status,
      outputs: Object.fromEntries(view.executions.map((e) => [e.solver, e.status === 'SUCCESS' ? e.data : null])),
    });
  });

  return router;
}
