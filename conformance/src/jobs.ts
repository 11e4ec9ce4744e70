// Steps many checks share: starting a job, polling it with backoff until it ends, uploading a data file
// and waiting for its validation. Each stops the check (CheckAbort) when the deployment answers otherwise.
import type { CheckContext } from './context.ts';
import { CheckAbort, type Reply, type RequestSpec } from './http.ts';
import { longInput } from './inputs.ts';
import type { UseCaseInfo } from './use-cases.ts';

export const terminalJobStatuses: ReadonlySet<string> = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

/** The single job of a `{"job": {"<id>": {...}}}` envelope, with its id. */
export function jobOf(reply: Reply): { id: string; job: any } | undefined {
  const entries = Object.entries(reply.json?.job ?? {});
  return entries.length === 1 && typeof reply.json.job === 'object'
    ? { id: entries[0]![0], job: entries[0]![1] }
    : undefined;
}

/** The single data file of a `{"data_file": {"<id>": {...}}}` envelope, with its identifier. */
export function dataFileOf(reply: Reply): { id: string; file: any } | undefined {
  const entries = Object.entries(reply.json?.data_file ?? {});
  return entries.length === 1 ? { id: entries[0]![0], file: entries[0]![1] } : undefined;
}

/** Starts a job of the use case `problemId` and returns its id (stops the check on anything but 200). */
export async function startJob(
  ctx: CheckContext,
  problemId: string,
  body: unknown,
  query?: RequestSpec['query'],
  what = 'starting a job',
): Promise<{ id: string; reply: Reply }> {
  const reply = ctx.require(
    await ctx.send({ method: 'POST', path: `/problem/${problemId}`, json: body, ...(query ? { query } : {}) }),
    200,
    what,
  );
  const id = reply.json?.job;
  if (typeof id !== 'string') throw new CheckAbort(`${what}: the answer has no job id`, reply.exchange);
  return { id, reply };
}

/**
 * Starts a job that runs until cancelled (the use case's heuristic with a long time limit, on an input of
 * copies of its example) and cancels it when the run ends.
 */
export async function startLongJob(ctx: CheckContext, useCase: UseCaseInfo): Promise<string> {
  const { id } = await startJob(
    ctx,
    useCase.id,
    longInput(useCase.example),
    { solver: useCase.heuristic.name, time_limit_seconds: 60 },
    `starting a long ${useCase.id} job`,
  );
  ctx.fixtures.atEnd(() => ctx.send({ method: 'POST', path: `/job/${id}/cancel` }));
  return id;
}

/** Reads the job until `done(job)` (default: a terminal status), polling with backoff from 100 ms to 2 s. */
export async function pollJob(
  ctx: CheckContext,
  id: string,
  options: { timeoutMs?: number; done?: (job: any) => boolean } = {},
): Promise<{ job: any; reply: Reply; statuses: string[] }> {
  const { timeoutMs = 60_000, done = (job: any) => terminalJobStatuses.has(job.status) } = options;
  const deadline = Date.now() + timeoutMs;
  const statuses: string[] = [];
  for (let interval = 100; ; interval = Math.min(2000, interval * 1.5)) {
    const reply = ctx.require(await ctx.send({ method: 'GET', path: `/job/${id}` }), 200, `reading job ${id}`);
    const found = jobOf(reply);
    if (!found) throw new CheckAbort(`reading job ${id}: the answer does not hold exactly one job`, reply.exchange);
    if (statuses.at(-1) !== found.job.status) statuses.push(found.job.status);
    if (done(found.job)) return { job: found.job, reply, statuses };
    if (Date.now() > deadline)
      throw new CheckAbort(`job ${id} is still ${found.job.status} after ${timeoutMs / 1000} s`, reply.exchange);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** A multipart upload of a data file: the file part, then `fields` (problem_id, name, description). */
export function uploadForm(text: string, name: string, fields: Record<string, string>): FormData {
  const form = new FormData();
  form.set('file', new Blob([text], { type: 'text/plain' }), name);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
}

/** The form of an upload of `text` for the use case `problemId`, named `name`. */
export function uploadFormFor(problemId: string, text: string, name: string): FormData {
  return uploadForm(text, name, { problem_id: problemId, name });
}

/**
 * Uploads `text` for a use case as `name` (stops the check unless it answers 201 or 200 with an identifier) and
 * deletes the file when the run ends.
 */
export async function upload(
  ctx: CheckContext,
  problemId: string,
  text: string,
  name: string,
  headers?: Record<string, string>,
): Promise<{ id: string; reply: Reply }> {
  const reply = await ctx.send({
    method: 'POST',
    path: '/data_file',
    body: uploadFormFor(problemId, text, name),
    ...(headers ? { headers } : {}),
  });
  if (reply.status !== 201 && reply.status !== 200) ctx.require(reply, 201, 'uploading a data file');
  const id = reply.json?.data_file_identifier;
  if (typeof id !== 'string')
    throw new CheckAbort('uploading a data file: the answer has no data_file_identifier', reply.exchange);
  ctx.fixtures.atEnd(() => ctx.send({ method: 'DELETE', path: `/data_file/${id}` }));
  return { id, reply };
}

/** Reads a data file until it is no longer PROCESSING; resolves to its record. */
export async function validated(ctx: CheckContext, id: string): Promise<any> {
  for (let interval = 50, waited = 0; ; waited += interval, interval = Math.min(1000, interval * 2)) {
    const read = ctx.require(
      await ctx.send({ method: 'GET', path: `/data_file/${id}` }),
      200,
      `reading data file ${id}`,
    );
    const file = dataFileOf(read)?.file;
    if (file?.status !== 'PROCESSING') return file;
    if (waited > 30_000) throw new CheckAbort(`data file ${id} is still PROCESSING after 30 s`, read.exchange);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Uploads `text` for a use case and waits until it is no longer PROCESSING; returns its identifier and record. */
export async function uploadDataFile(
  ctx: CheckContext,
  problemId: string,
  text: string,
  label: string,
): Promise<{ id: string; file: any; reply: Reply }> {
  const { id, reply } = await upload(ctx, problemId, text, ctx.unique(label));
  return { id, file: await validated(ctx, id), reply };
}
