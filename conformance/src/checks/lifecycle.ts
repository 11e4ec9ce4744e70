// lifecycle: the flow the contract describes, end to end. Log in; start a job inline and poll it (with
// backoff) to FINISHED and read its output; upload a data file, start a job from it and read its cut; then
// (stateful) cancel a running job to CANCELLED, and refuse what the states forbid (see cancellation.ts).
import { createHash } from 'node:crypto';
import { answered, shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { pollJob, startJob, terminalJobStatuses, uploadForm } from '../jobs.ts';
import { bruteForceMaxCut, sameValue } from '../maxcut.ts';
import type { Reply } from '../http.ts';
import type { Check } from './check.ts';
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

async function inline(ctx: CheckContext): Promise<void> {
  const { id, job, started, statuses, reply } = await ctx.fixtures.finishedJob(ctx);
  const location = started.headers.location ?? '';
  ctx.expect(
    location === `/job/${id}` || location.endsWith(`/job/${id}`),
    `Location is ${shown(started.headers.location)}, expected /job/${id}`,
    started.exchange,
  );
  checkProgression(ctx, id, statuses, reply);
  const outputs = await checkOutput(ctx, id, job);
  const exact = (await ctx.fixtures.useCase(ctx)).exact;
  if (exact && outputs) {
    const optimum = bruteForceMaxCut(ctx.fixtures.exampleGraph(ctx).adj_matrix);
    ctx.expect(
      sameValue(outputs[exact.name]?.cut_value, optimum) && outputs[exact.name]?.optimal === true,
      `${exact.name} found the cut ${outputs[exact.name]?.cut_value} of the example graph, optimal: ${outputs[exact.name]?.optimal}; its maximum cut is ${optimum}`,
      reply.exchange,
    );
  }
}

async function fromDataFile(ctx: CheckContext): Promise<void> {
  const { id, file, graph, uploaded, text } = await ctx.fixtures.dataFile(ctx);
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
      ctx.expect(
        file.bytes === Buffer.byteLength(text) && file.format === 'edge_list' && file.num_nodes === graph.num_nodes,
        `the READY record says ${file.bytes} bytes, format ${file.format}, ${file.num_nodes} nodes; the file has ${Buffer.byteLength(text)} bytes, an edge list of ${graph.num_nodes} nodes`,
        uploaded.exchange,
      );
      const again = await ctx.send({
        method: 'POST',
        path: '/data_file',
        body: uploadForm(text, ctx.unique('graph.txt')),
      });
      ctx.expect(
        again.status === 200 && again.json?.data_file_identifier === id,
        `uploading the same bytes again answered ${answered(again)} with data_file_identifier ${shown(again.json?.data_file_identifier)}, expected 200 with "${id}"`,
        again.exchange,
      );
    },
  );
  const { exact, heuristic } = await ctx.fixtures.useCase(ctx);
  const solver = exact ?? heuristic;
  const started = await startJob(
    ctx,
    {
      data_file_identifier: id,
      solvers: [{ name: solver.name, params: { seed: 1, max_iterations: 100_000 } }],
      time_limit_seconds: 2,
    },
    undefined,
    'starting a job from the data file',
  );
  const { job, reply, statuses } = await pollJob(ctx, started.id);
  checkProgression(ctx, started.id, statuses, reply);
  if (!ctx.expect(job.status === 'FINISHED', `the job from data file ${id} ended ${job.status}`, reply.exchange))
    return;
  const outputs = await checkOutput(ctx, started.id, job);
  await ctx.stateful(
    "the job records its data file, and its cut is the uploaded graph's maximum",
    'the sandbox answers its example job whatever the input',
    async () => {
      ctx.expect(
        job.input?.mode === 'data_file' && job.input?.data_file_identifier === id,
        `the job's input is ${JSON.stringify(job.input)}, expected the data file ${id}`,
        reply.exchange,
      );
      const optimum = bruteForceMaxCut(graph.adj_matrix);
      if (solver.exact)
        ctx.expect(
          sameValue(outputs?.[solver.name]?.cut_value, optimum),
          `the cut of the uploaded graph is ${outputs?.[solver.name]?.cut_value}; its maximum is ${optimum}`,
          reply.exchange,
        );
    },
  );
}

export const lifecycle: Check = {
  name: 'lifecycle',
  description:
    'Log in, start a job inline, poll it with backoff to FINISHED and read its output; upload a data file and run a job from it; cancel a running job to CANCELLED; 409 for cancelling an ended job, for the output of a running one and for deleting a data file in use.',
  operations: [
    'login',
    'getProblem',
    'startJob',
    'getJob',
    'getJobOutput',
    'cancelJob',
    'uploadDataFile',
    'getDataFile',
    'deleteDataFile',
  ],
  async run(ctx) {
    await login(ctx);
    await inline(ctx);
    await fromDataFile(ctx);
    await ctx.stateful(
      'cancelling a running job, and the 409s of job_already_terminal, job_not_finished and data_file_in_use',
      'the sandbox does not run jobs: every job reads as its FINISHED example',
      () => cancellation(ctx),
    );
  },
};
