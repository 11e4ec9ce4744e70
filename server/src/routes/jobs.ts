// Jobs: start (inline or from a data file), list, read (with the Prefer: wait long poll), cancel, input, output,
// delete.
import { Router } from 'express';
import { type operations, preferredWait, terminalJob } from '@jes/contract';
import { useCase as knownUseCase } from '../http/known-use-case.ts';
import { idempotentRequest, replayed, sendAnswer } from '../http/idempotency.ts';
import { InputError, OPEN_BRACE, peekFirstByte } from '@jes/contract/inputs';
import { ApiError } from '../core/api-error.ts';
import type { AppDeps } from './deps.ts';
import { pageLimit, queryList, timeLimitQuery } from '../http/query.ts';
import { requireRoom } from '../http/disk-room.ts';
import { sendJsonInSlices, writeChunks } from '../http/sliced-writes.ts';
import { waitSlots } from '../http/wait-slots.ts';
import { renderJob } from '../jobs/render.ts';
import { newJob, type StartJobQuery } from '../jobs/start-job.ts';
import { KeyInUse } from '../store/idempotency-keys.ts';
import * as dataFiles from '../store/data-files.ts';
import * as jobs from '../store/jobs.ts';
import { readInlineInput } from '../store/validations.ts';
import { findUseCase } from '../use-cases.ts';
import { JobViews } from '../jobs/views.ts';

type StartJobBody = operations['startJob']['requestBody']['content']['application/json'];

export function jobRoutes({ db, config, events, space }: AppDeps): Router {
  const views = new JobViews(events);
  const waits = waitSlots(config.http.maxWaitsPerUser, Math.floor(config.http.maxConnections / 2));
  const router = Router();

  // startJob, and every use case's own path (the start…Job operations of the contract's /problem/<id>
  // paths): the use case is the path's, known already (useCaseFirst, http/known-use-case.ts).
  router.post('/problem/:problem_id', async function startJob(req, res) {
    const useCase = knownUseCase(req.params.problem_id!);
    // A new job is not stored into the disk's reserve: that room is for the outcomes of the jobs that run.
    requireRoom(space, req.rawBody?.length ?? 0);
    const query: StartJobQuery = {
      solver: queryList(req.query.solver),
      time_limit_seconds: timeLimitQuery(req.query.time_limit_seconds),
    };
    // The same request: the use case, the query as it is read, and the body's bytes as sent (decoded).
    const idempotent = idempotentRequest(req, [useCase.id, JSON.stringify(query), req.rawBody!]);
    // Looked up first: a replay answers even when the user has meanwhile reached the active-job cap.
    if (idempotent && (await replayed(db, req, res, idempotent))) return;
    const job = await newJob(db, {
      owner: req.user,
      useCase,
      body: req.body as StartJobBody,
      raw: req.rawBody!,
      query,
      maxActiveJobs: config.maxActiveJobs,
    });
    const answer = (id: string) => ({ status: 200, body: { detail: 'Job created', job: id }, location: `/job/${id}` });
    try {
      sendAnswer(res, answer(await jobs.createJob(db, job, idempotent && { request: idempotent, answer })));
    } catch (error) {
      // A retry that raced its first attempt: the first one committed meanwhile, so there is an answer to replay.
      if (error instanceof KeyInUse && (await replayed(db, req, res, idempotent!))) return;
      throw error;
    }
  });

  router.get('/job', async function listJobs(req, res) {
    const q = req.query as { starting_after?: string; status?: string; problem_id?: string };
    const { views, hasMore } = await jobs.listJobs(db, req.user, {
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
    const asked = preferredWait(req.get('prefer'));
    // A long poll beyond the room for them is answered at once, and says so by the Preference-Applied it lacks.
    const slot = asked === undefined ? undefined : waits.take(req.user);
    const wait = slot ? asked : undefined;
    if (wait !== undefined) res.set('Preference-Applied', `wait=${wait}`);
    const missing = () => new ApiError('job_not_found', `No job ${id} exists for this user.`);
    // Listening starts before the first read: a change announced while the job is read wakes the wait at once.
    const watch = wait === undefined ? undefined : events.watch(id);
    try {
      let view = await views.read(db, req.user, id);
      if (!view) throw missing();
      if (watch && !terminalJob.has(view.job.status)) {
        const initial = view.job.status;
        const deadline = performance.now() + wait! * 1000;
        const gone = new AbortController();
        res.on('close', () => gone.abort());
        // A wake-up is a hint to re-read, not a change: the loop goes on until the status differs, the wait is
        // over, the client is gone, or the server shuts down (then the job is answered as it stands). A job deleted
        // meanwhile (DELETE /job, retention) is gone: 404.
        while (view.job.status === initial && performance.now() < deadline && !gone.signal.aborted && !events.closing) {
          await watch.next(deadline - performance.now(), gone.signal);
          view = await views.read(db, req.user, id);
          if (!view) throw missing();
        }
      }
      res.json(views.answer(view));
    } finally {
      watch?.close();
      slot?.();
    }
  });

  router.post('/job/:job_id/cancel', async function cancelJob(req, res) {
    const id = req.params.job_id!;
    const view = await jobs.requestCancel(db, req.user, id);
    // This process's own write: its next read must show it, before (or without) the announcement's arrival.
    views.forget(id);
    res.status(202).json({ job: { [id]: renderJob(view) } });
  });

  router.delete('/job/:job_id', async function deleteJob(req, res) {
    const id = req.params.job_id!;
    await jobs.deleteEndedJob(db, req.user, id);
    views.forget(id);
    res.status(204).end();
  });

  router.get('/job/:job_id/output', async function getJobOutput(req, res) {
    const id = req.params.job_id!;
    let view = await views.read(db, req.user, id);
    // "Not finished" is said from the database, never from a cache that may have missed the end.
    if (view && !terminalJob.has(view.job.status)) view = await views.read(db, req.user, id, { fresh: true });
    if (!view) throw new ApiError('job_not_found', `No job ${id} exists for this user.`);
    if (!terminalJob.has(view.job.status)) {
      throw new ApiError(
        'job_not_finished',
        `Job ${id} is ${view.job.status}; its output is available once it has ended.`,
        { retryAfterSeconds: 2 },
      );
    }
    await sendJsonInSlices(res, {
      job: id,
      status: view.job.status,
      outputs: Object.fromEntries(view.executions.map((e) => [e.solver, e.status === 'SUCCESS' ? e.data : null])),
    });
  });

  router.get('/job/:job_id/input', async function getJobInput(req, res) {
    const id = req.params.job_id!;
    const view = await views.read(db, req.user, id);
    if (!view) throw new ApiError('job_not_found', `No job ${id} exists for this user.`);
    const { data_file_id: fileId, problem_id: problemId } = view.job;
    if (fileId === null) {
      const stored = await readInlineInput(db, id);
      if (!stored) throw new ApiError('job_not_found', `No job ${id} exists for this user.`);
      if (!stored.prepared) return res.type('application/json').send(Buffer.from(stored.bytes));
      const useCase = findUseCase(problemId)!;
      return sendJsonInSlices(res, useCase.inline(useCase.decode(stored.bytes)));
    }
    // The file as uploaded, chunk by chunk (up to the data-file limit: never whole in memory).
    const file = await dataFiles.readDataFile(db, req.user, fileId);
    if (!file)
      throw new ApiError(
        'data_file_not_found',
        `Data file ${fileId}, which job ${id} was started from, has been deleted.`,
      );
    if (file.status === 'INVALID')
      throw new ApiError(
        'data_file_not_found',
        `Data file ${fileId}, which job ${id} was started from, is INVALID: its bytes are not kept (its error says why).`,
      );
    // A file not validated (yet, or ever) has no format: its first byte tells JSON as validation tells it; a blank
    // one is text.
    let chunks: AsyncIterable<Uint8Array> = dataFiles.readChunks(db, req.user, fileId);
    let json = file.format === 'json';
    if (file.format === null) {
      try {
        const peeked = await peekFirstByte(chunks);
        json = peeked.first === OPEN_BRACE;
        chunks = peeked.chunks;
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        chunks = dataFiles.readChunks(db, req.user, fileId);
      }
    }
    res.type(json ? 'application/json' : 'text/plain').set('Content-Length', String(file.bytes));
    let sent = 0;
    const counted = async function* () {
      for await (const chunk of chunks) {
        sent += chunk.length;
        yield chunk;
      }
    };
    // A client that went away stops the reading; a slow one is waited for. A file deleted meanwhile ends its chunks
    // early: the connection is cut, so the client sees the answer broken off (it waited for the missing bytes).
    if (!(await writeChunks(res, counted()))) return;
    if (sent === file.bytes) res.end();
    else res.destroy();
  });

  return router;
}
