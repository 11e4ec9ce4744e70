// lifecycle: the flow the contract describes, end to end, for every use case the deployment lists. Log in;
// read each use case's record; start a job of its example inline and poll it (with backoff) to FINISHED and
// read its output; upload the example as a JSON data file, start a job from it and compare its answer; then
// (stateful) cancel a running job to CANCELLED, and refuse what the states forbid (see cancellation.ts). The
// jobs and files are the run's shared ones (fixtures.ts): other checks read them too.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { answered, shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { sizeOf } from '../inputs.ts';
import { terminalJobStatuses, uploadFormFor } from '../jobs.ts';
import type { Reply } from '../http.ts';
import { sameValue } from '../same-value.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { type Check, tokenInstead } from './check.ts';
import { cancellation } from './cancellation.ts';

const rank = (status: string) =>
  status === 'PENDING' ? 0 : status === 'RUNNING' ? 1 : terminalJobStatuses.has(status) ? 2 : -1;

/** The statuses a poll saw go forward only: PENDING, RUNNING, then one terminal status. */
export function checkProgression(ctx: CheckContext, id: string, statuses: string[], reply: Reply): void {
  const ranks = statuses.map(rank);
  const ok = ranks.every((r, i) => r >= 0 && (i === 0 || r > ranks[i - 1]!));
  ctx.expect(
    ok,
    `job ${id} went through ${statuses.join(' → ')}; expected PENDING, RUNNING, then one terminal status, in that order`,
    reply.exchange,
  );
}

/** The output endpoint agrees with the job: one entry per execution, its data on SUCCESS, null otherwise. */
export async function checkOutput(ctx: CheckContext, id: string, job: any): Promise<any> {
  const reply = await ctx.send({ method: 'GET', path: `/job/${id}/output` });
  if (!ctx.expectStatus(reply, 200, `the output of ended job ${id}`)) return undefined;
  const { outputs } = reply.json ?? {};
  ctx.expect(
    reply.json?.job === id && reply.json?.status === job.status,
    `the output names job ${shown(reply.json?.job)} (${shown(reply.json?.status)}), expected "${id}" (${shown(job.status)})`,
    reply.exchange,
  );
  for (const [solver, execution] of Object.entries<any>(job.executions ?? {})) {
    const expected = execution.status === 'SUCCESS' ? execution.data : null;
    ctx.expect(
      JSON.stringify(outputs?.[solver]) === JSON.stringify(expected),
      `the output of ${solver} differs from the job's ${execution.status} execution`,
      reply.exchange,
    );
  }
  ctx.expect(
    Object.keys(outputs ?? {}).length === Object.keys(job.executions ?? {}).length,
    'the output lists other solvers than the job',
    reply.exchange,
  );
  return outputs;
}

async function login(ctx: CheckContext): Promise<void> {
  if (ctx.options.username === undefined || ctx.options.password === undefined)
    return ctx.note(`logging in (POST /login) left out: ${tokenInstead}`);
  const reply = ctx.require(
    await ctx.send({
      method: 'POST',
      path: '/login',
      auth: 'none',
      json: { username: ctx.options.username, password: ctx.options.password },
    }),
    200,
    'logging in',
  );
  ctx.expect(
    reply.json?.token_type === 'Bearer' && reply.json?.expires_in > 0,
    `the login answer has token_type ${shown(reply.json?.token_type)} and expires_in ${shown(reply.json?.expires_in)}; expected "Bearer" and a positive number of seconds`,
    reply.exchange,
  );
  const use = await ctx.send({
    method: 'GET',
    path: '/problem',
    auth: { authorization: `Bearer ${reply.json.access_token}`, of: 'user' },
  });
  ctx.expectStatus(use, 200, 'a request with the token just issued');
}

/** Each listed use case reads at its own path (GET /problem/{id}) as the listing has it. */
async function records(ctx: CheckContext, useCases: UseCaseInfo[]): Promise<void> {
  for (const useCase of useCases) {
    const reply = await ctx.send({ method: 'GET', path: `/problem/${useCase.id}` });
    if (!ctx.expectStatus(reply, 200, `reading the ${useCase.id} use case that GET /problem lists`)) continue;
    ctx.expect(
      isDeepStrictEqual(reply.json, useCase.record),
      `GET /problem/${useCase.id} differs from the record GET /problem lists for ${useCase.id}`,
      reply.exchange,
    );
  }
}

/** The exact solver's answer (if the use case has one) claims optimal: true (whether it is, the semantics checks say). */
function exactAnswer(ctx: CheckContext, useCase: UseCaseInfo, outputs: any, reply: Reply): void {
  const exact = useCase.exact;
  if (!exact || !outputs) return;
  ctx.expect(
    outputs[exact.name]?.optimal === true,
    `${useCase.id}: ${exact.name} (exact) answered the example with optimal: ${shown(outputs[exact.name]?.optimal)}, expected true`,
    reply.exchange,
  );
}

async function inline(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { id, job, started: start, statuses, reply } = await ctx.fixtures.finishedJob(ctx, useCase);
  const started = start.reply;
  const location = started.headers.location ?? '';
  ctx.expect(
    location === `/job/${id}` || location.endsWith(`/job/${id}`),
    `Location is ${shown(started.headers.location)}, expected /job/${id}`,
    started.exchange,
  );
  checkProgression(ctx, id, statuses, reply);
  await ctx.stateful(
    'the job is of the use case whose path started it',
    'the sandbox answers its example job whatever the input',
    async () =>
      void ctx.expect(
        job.problem_id === useCase.id,
        `job ${id}, started at /problem/${useCase.id}, is of ${shown(job.problem_id)}`,
        reply.exchange,
      ),
  );
  exactAnswer(ctx, useCase, await checkOutput(ctx, id, job), reply);
  await checkInput(ctx, id, useCase);
}

/**
 * The input endpoint gives the job's input back as JSON of the use case's inline shape: the example's members, its
 * scalar members (the sizes) equal. The matrices are not compared: a service may write a kept input out again in
 * another form of the same problem (a QUBO's couplings gathered in the upper triangle).
 */
async function checkInput(ctx: CheckContext, id: string, useCase: UseCaseInfo): Promise<void> {
  const reply = await ctx.send({ method: 'GET', path: `/job/${id}/input` });
  if (!ctx.expectStatus(reply, 200, `the input of job ${id}`)) return;
  await ctx.stateful(
    'the input read back is the one the job was started with',
    'the sandbox answers its example input whatever the job',
    async () => {
      const example = useCase.example as Record<string, unknown>;
      const back = (reply.json ?? {}) as Record<string, unknown>;
      const members = (value: object) => JSON.stringify(Object.keys(value).sort());
      const scalars = Object.entries(example).filter(([, v]) => typeof v !== 'object');
      ctx.expect(
        members(back) === members(example) && scalars.every(([k, v]) => back[k] === v),
        `the input of job ${id} reads back as ${shown(reply.json)}, expected the ${useCase.id} example it was started with`,
        reply.exchange,
      );
    },
  );
}

async function fromDataFile(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const { id, file, uploaded: upload, text } = await ctx.fixtures.dataFile(ctx, useCase);
  const uploaded = upload.reply;
  const location = uploaded.headers.location ?? '';
  if (uploaded.status === 201)
    ctx.expect(
      location.endsWith(`/data_file/${id}`),
      `Location is ${shown(uploaded.headers.location)}, expected /data_file/${id}`,
      uploaded.exchange,
    );
  await ctx.stateful(
    'the identifier is the SHA-1 of the bytes; the record describes the file; the same bytes again answer 200',
    'the sandbox answers its example file',
    async () => {
      const sha1 = createHash('sha1').update(text).digest('hex');
      ctx.expect(id === sha1, `the identifier is ${id}, the SHA-1 of the bytes is ${sha1}`, uploaded.exchange);
      const size = sizeOf(useCase.example);
      ctx.expect(
        file.bytes === Buffer.byteLength(text) &&
          file.format === 'json' &&
          file.problem_id === useCase.id &&
          (size === undefined || file.num_nodes === size),
        `the READY record says ${file.bytes} bytes, format ${file.format}, use case ${file.problem_id}, size ${file.num_nodes}; the file has ${Buffer.byteLength(text)} bytes of JSON, the ${useCase.id} example${size === undefined ? '' : ` of size ${size}`}`,
        uploaded.exchange,
      );
      const again = await ctx.send({
        method: 'POST',
        path: '/data_file',
        body: uploadFormFor(useCase.id, text, ctx.unique(`${useCase.id}.json`)),
      });
      ctx.expect(
        again.status === 200 && again.json?.data_file_identifier === id,
        `uploading the same bytes again answered ${answered(again)} with data_file_identifier ${shown(again.json?.data_file_identifier)}, expected 200 with "${id}"`,
        again.exchange,
      );
    },
  );
  const { id: jobId, job, reply, statuses, solver } = await ctx.fixtures.fileJob(ctx, useCase);
  checkProgression(ctx, jobId, statuses, reply);
  if (!ctx.expect(job.status === 'FINISHED', `the job from data file ${id} ended ${job.status}`, reply.exchange))
    return;
  await checkOutput(ctx, jobId, job);
  await ctx.stateful(
    "the job records its data file, and its exact answer is the inline example's",
    'the sandbox answers its example job whatever the input',
    async () => {
      ctx.expect(
        job.input?.mode === 'data_file' && job.input?.data_file_identifier === id,
        `the job's input is ${JSON.stringify(job.input)}, expected the data file ${id}`,
        reply.exchange,
      );
      if (!solver.exact) return;
      // The file holds the example: its proven optimum is the inline job's.
      const inlineJob = (await ctx.fixtures.finishedJob(ctx, useCase)).job;
      const [fromFile, fromInline] = [job, inlineJob].map((j) => j.executions?.[solver.name]?.best_value);
      if (typeof fromFile === 'number' && typeof fromInline === 'number')
        ctx.expect(
          sameValue(fromFile, fromInline),
          `${useCase.id}: ${solver.name} found ${fromFile} from the data file and ${fromInline} from the same input inline`,
          reply.exchange,
        );
    },
  );
}

export const lifecycle: Check = {
  name: 'lifecycle',
  description:
    "For every listed use case: its record at its own path, a job of its example started inline and polled with backoff to FINISHED with an output that agrees (the exact solver's optimal) and its input read back, the example uploaded as a JSON data file and run; a running job cancelled to CANCELLED; 409 for cancelling an ended job, for the output of a running one and for deleting a data file in use.",
  operations: [
    'login',
    'listProblems',
    'getMaxCutUseCase',
    'getQuboUseCase',
    'startMaxCutJob',
    'startQuboJob',
    'getJob',
    'getJobOutput',
    'getJobInput',
    'cancelJob',
    'uploadDataFile',
    'getDataFile',
    'deleteDataFile',
  ],
  async run(ctx) {
    await login(ctx);
    const useCases = await ctx.fixtures.useCases(ctx);
    await records(ctx, useCases);
    for (const useCase of useCases) {
      await inline(ctx, useCase);
      await fromDataFile(ctx, useCase);
      await ctx.stateful(
        'cancelling a running job, and the 409s of job_already_terminal, job_not_finished and data_file_in_use',
        'the sandbox does not run jobs: every job reads as its FINISHED example',
        () => cancellation(ctx, useCase),
      );
    }
  },
};
