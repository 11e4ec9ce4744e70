// The stateful sandbox's answers, by operationId: what a request the contract accepts does to the state and what
// it answers, with a deployment's codes and words (server/src/routes). Operations that read no state (the use
// cases, health) are left to Prism's examples, which are the contract's data.
import { preferredWait, terminalJob } from '@jes/contract';
import { fingerprint } from '@jes/contract/node';
import type { Answer } from '../conventions.ts';
import type { Streams } from '../event-streams.ts';
import type { Operation } from '../mock.ts';
import { dataFileId, heldBytesOf, validate } from './data-files.ts';
import { sandboxUseCases } from './inputs.ts';
import { jobAt, type JobRecord } from './jobs.ts';
import { page, pageQuery } from './listings.ts';
import { waitForChange } from './long-polls.ts';
import { renderDataFile, renderJob } from './render.ts';
import { answer, type Handler, idempotency, json, noContent, refusal, type StateRequest } from './request.ts';
import { contractSolvers, startJobHandler } from './start-job.ts';
import { streamEventsHandler, streamJobEventsHandler } from './streams.ts';
import type { WebhookSender } from './webhook-deliveries.ts';
import { webhookHandlers } from './webhooks.ts';
import { tokenSeconds, type User } from './store.ts';

const noJob = (request: StateRequest, id: string) =>
  refusal(request, 'job_not_found', `No job ${id} exists for this user.`);
const noFile = (request: StateRequest, id: string) =>
  refusal(request, 'data_file_not_found', `No data file ${id} exists for this user.`);

/** The request's job of its user, or the 404. */
function jobOf(request: StateRequest): JobRecord | Answer {
  const id = request.params.job_id!;
  return request.user!.jobs.get(id) ?? noJob(request, id);
}

const statusAt = (request: StateRequest) => (job: JobRecord) => jobAt(job, request.state.clock.now()).status;

function login(request: StateRequest): Answer {
  const { username } = request.body as { username: string };
  const token = request.state.login(username);
  return json(
    200,
    { access_token: token, token_type: 'Bearer', expires_in: tokenSeconds },
    { 'Cache-Control': 'no-store' },
  );
}

function listJobs(request: StateRequest): Answer {
  const now = request.state.clock.now();
  const { rows, hasMore } = page(
    request.user!.jobs.values(),
    pageQuery(request.query),
    statusAt(request),
    (job) => job.problemId,
  );
  return json(200, {
    job: Object.fromEntries(rows.map((job) => [job.id, renderJob(job, now, false)])),
    ids: rows.map((job) => job.id),
    has_more: hasMore,
  });
}

async function getJob(request: StateRequest): Promise<Answer> {
  const { state } = request;
  let job = jobOf(request);
  if ('status' in job) return job;
  const asked = preferredWait(request.headers.prefer as string | undefined);
  // A long poll beyond the room for them is answered at once, and says so by the Preference-Applied it lacks.
  const slot = asked === undefined ? undefined : state.waitSlot(request.user!);
  const headers: Record<string, string> = slot ? { 'Preference-Applied': `wait=${asked}` } : {};
  try {
    if (slot && asked) {
      const found = await waitForChange(state, job, asked * 1000, request.signal);
      if (!found) return noJob(request, job.id);
      job = found;
    }
  } finally {
    slot?.();
  }
  return json(200, { job: { [job.id]: renderJob(job, state.clock.now()) } }, headers);
}

function cancelJob(request: StateRequest): Answer {
  const job = jobOf(request);
  if ('status' in job) return job;
  const now = request.state.clock.now();
  const status = jobAt(job, now).status;
  if (terminalJob.has(status))
    return refusal(request, 'job_already_terminal', `Job ${job.id} is ${status} and can no longer be cancelled.`);
  job.cancelRequestedAt ??= now;
  request.state.changed(job);
  return json(202, { job: { [job.id]: renderJob(job, now) } });
}

function deleteJob(request: StateRequest): Answer {
  const job = jobOf(request);
  if ('status' in job) return job;
  const status = jobAt(job, request.state.clock.now()).status;
  if (!terminalJob.has(status))
    return refusal(
      request,
      'job_not_finished',
      `Job ${job.id} is ${status}; cancel it or wait for it to end, then delete it.`,
      { retryAfter: 2 },
    );
  request.state.dropJob(job);
  return noContent();
}

function getJobOutput(request: StateRequest): Answer {
  const job = jobOf(request);
  if ('status' in job) return job;
  const state = jobAt(job, request.state.clock.now());
  if (!terminalJob.has(state.status))
    return refusal(
      request,
      'job_not_finished',
      `Job ${job.id} is ${state.status}; its output is available once it has ended.`,
      { retryAfter: 2 },
    );
  const outputs = Object.fromEntries(
    state.executions.map((e) => [
      e.planned.solver,
      e.status === 'SUCCESS' && e.planned.outcome.status === 'SUCCESS' ? e.planned.outcome.data : null,
    ]),
  );
  return json(200, { job: job.id, status: state.status, outputs });
}

function getJobInput(request: StateRequest): Answer {
  const job = jobOf(request);
  if ('status' in job) return job;
  const { input } = job;
  if (input.mode === 'inline') return answer(200, { 'Content-Type': 'application/json; charset=utf-8' }, input.text);
  const fileId = input.dataFileId!;
  const file = request.user!.files.get(fileId);
  const started = `Data file ${fileId}, which job ${job.id} was started from,`;
  if (!file) return refusal(request, 'data_file_not_found', `${started} has been deleted.`);
  const now = request.state.clock.now();
  if (now >= file.validatedAt && 'error' in file.verdict)
    return refusal(
      request,
      'data_file_not_found',
      `${started} is INVALID: its bytes are not kept (its error says why).`,
    );
  // A file's first byte tells JSON from text, as its validation tells it.
  const jsonFile = /^\s*\{/.test(file.bytes!.subarray(0, 64).toString('latin1'));
  const type = jsonFile ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
  return answer(200, { 'Content-Type': type }, file.bytes);
}

async function uploadDataFile(request: StateRequest): Promise<Answer> {
  const { state } = request;
  const user = request.user!;
  const fields = request.fields as { problem_id: string; name: string; description?: string };
  const bytes = request.file ?? Buffer.alloc(0);
  const id = dataFileId(bytes);
  const print = fingerprint([JSON.stringify([fields.problem_id, id, fields.name, fields.description ?? null])]);
  const { key, answered } = idempotency(state, user, request, print);
  if (answered) return answered;
  const envelope = (created: boolean, file: NonNullable<ReturnType<User['files']['get']>>) =>
    json(
      created ? 201 : 200,
      {
        detail: created ? 'Data file uploaded' : 'Data file already uploaded',
        data_file_identifier: file.id,
        data_file: { [file.id]: renderDataFile(file, state.clock.now()) },
      },
      created ? { Location: `/data_file/${file.id}` } : {},
    );
  const existing = user.files.get(id);
  let uploaded: Answer;
  if (existing) {
    if (existing.problemId !== fields.problem_id)
      return refusal(
        request,
        'data_file_problem_mismatch',
        `These bytes are already uploaded for use case "${existing.problemId}", as data file ${id}; delete it to upload them for "${fields.problem_id}".`,
        {
          errors: [{ pointer: '/problem_id', detail: `the same bytes are data file ${id} of "${existing.problemId}"` }],
        },
      );
    uploaded = envelope(false, existing);
  } else {
    const verdict = await validate(sandboxUseCases[fields.problem_id]!, bytes);
    const heldBytes = heldBytesOf(bytes, verdict);
    if (!state.makeRoom(user, heldBytes, false)) {
      const quota = state.limits.maxBytesPerUser;
      const detail = `Your data files may hold ${quota} bytes in all; they hold ${user.bytes}. Delete some (DELETE /data_file/{id}) to upload more.`;
      return refusal(request, 'storage_quota_exceeded', detail, {
        extra: { max_bytes: quota, used_bytes: user.bytes },
      });
    }
    const now = state.clock.now();
    const file = {
      id,
      owner: user.name,
      problemId: fields.problem_id,
      name: fields.name,
      description: fields.description,
      uploadedAt: now,
      validatedAt: now + state.clock.wallMs(0.5 + state.random.float()),
      size: bytes.length,
      bytes,
      verdict,
      heldBytes,
    };
    state.addFile(user, file);
    uploaded = envelope(true, file);
  }
  if (key !== undefined) state.remember(user, key, print, uploaded);
  return uploaded;
}

function listDataFiles(request: StateRequest): Answer {
  const now = request.state.clock.now();
  const { rows, hasMore } = page(
    request.user!.files.values(),
    pageQuery(request.query),
    (file) => renderDataFile(file, now).status,
    (file) => file.problemId,
  );
  return json(200, {
    data_file: Object.fromEntries(rows.map((file) => [file.id, renderDataFile(file, now)])),
    ids: rows.map((file) => file.id),
    has_more: hasMore,
  });
}

function getDataFile(request: StateRequest): Answer {
  const id = request.params.data_file_identifier!;
  const file = request.user!.files.get(id);
  if (!file) return noFile(request, id);
  return json(200, { data_file: { [id]: renderDataFile(file, request.state.clock.now()) } });
}

function deleteDataFile(request: StateRequest): Answer {
  const id = request.params.data_file_identifier!;
  const user = request.user!;
  const file = user.files.get(id);
  if (!file) return noFile(request, id);
  const now = request.state.clock.now();
  const using = [...user.jobs.values()].find(
    (job) => job.input.dataFileId === id && !terminalJob.has(jobAt(job, now).status),
  );
  if (using) return refusal(request, 'data_file_in_use', `Job ${using.id}, which has not ended, uses data file ${id}.`);
  request.state.dropFile(user, file);
  return noContent();
}

/** The handlers by operationId; an operation without one is answered by Prism's example. */
export function stateHandlers(
  operations: readonly Operation[],
  streams: Streams,
  webhooks: { sender: WebhookSender; allowHosts: ReadonlySet<string> },
): Record<string, Handler> {
  const startJob = startJobHandler(contractSolvers(operations));
  return {
    login,
    startJob,
    startMaxCutJob: startJob,
    startQuboJob: startJob,
    listJobs,
    getJob,
    cancelJob,
    deleteJob,
    getJobOutput,
    getJobInput,
    uploadDataFile,
    listDataFiles,
    getDataFile,
    deleteDataFile,
    streamJobEvents: streamJobEventsHandler(streams),
    streamEvents: streamEventsHandler(streams),
    ...webhookHandlers(webhooks.sender, webhooks.allowHosts),
  };
}
