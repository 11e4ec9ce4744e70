// positive_data_acceptance: what the contract allows is accepted. Requests generated from the schemas and the
// use cases' examples (inputs, solver choices, paging and filters, Prefer values, credentials, upload fields) must never be
// refused as invalid (400, 413, 415, 422); ids that exist nowhere may answer their documented 404. Its inline
// jobs (the run's generated ones, fixtures.ts) end within half a second a solver, for the semantics checks to read
// their answers; its data-file jobs are cancelled at once and its data files deleted, so it leaves little behind.
// Narrowed to some operations (--operation), the requests of those alone.
import fc from 'fast-check';
import { answered } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Node } from '../contract/document.ts';
import { exampleCorners } from '../generate/examples.ts';
import { type InlineJobRequest, inlineJobArbitrary, queryArbitrary, quickTimeLimit } from '../generate/inline-jobs.ts';
import { forAll, nextTarget, replaying, shrinkFound } from '../generate/property.ts';
import { arbitraryOf } from '../generate/schema-arbitrary.ts';
import type { Reply, RequestSpec } from '../http.ts';
import { sizeOf } from '../inputs.ts';
import { jobOf, uploadForm } from '../jobs.ts';
import type { Failure } from '../types.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import type { Check } from './check.ts';
import { startOperationOf } from './refusal.ts';

const refusals = new Set([400, 413, 415, 422]);

/** Undefined when `reply` accepts the request (one of `ok`), else the failure. */
function accepted(reply: Reply, ok: number[], what: string): Failure | undefined {
  if (ok.includes(reply.status)) return undefined;
  const verdict = refusals.has(reply.status) ? 'refused as invalid' : 'not accepted';
  return {
    message: `${what} was ${verdict}: ${answered(reply)}${reply.json?.detail ? ` (${reply.json.detail})` : ''}`,
    exchange: reply.exchange,
  };
}

/** Starts a job, expects it accepted, and cancels it at once. */
async function startAndCancel(
  ctx: CheckContext,
  spec: Omit<RequestSpec, 'auth'>,
  what: string,
): Promise<Failure | undefined> {
  const reply = await ctx.send(spec);
  const failure = accepted(reply, [200], what);
  if (!failure && typeof reply.json?.job === 'string')
    await ctx.send({ method: 'POST', path: `/job/${reply.json.job}/cancel` });
  return failure;
}

/** A page's filters hold for every item on it, and it is no longer than asked. */
function pageProblem(reply: Reply, query: Record<string, any>, key: 'job' | 'data_file'): Failure | undefined {
  const ids: string[] = reply.json?.ids ?? [];
  const items = reply.json?.[key] ?? {};
  const wrong = (message: string) => ({ message, exchange: reply.exchange });
  if (ids.length > (query.limit ?? 20))
    return wrong(`a page of ${ids.length} items for limit ${query.limit ?? '(default 20)'}`);
  if (ids.some((id) => !(id in items)) || Object.keys(items).length !== ids.length)
    return wrong('ids and the keyed items differ');
  for (const id of ids) {
    if (query.status && items[id].status !== query.status)
      return wrong(`${id} is ${items[id].status} on a page filtered by status=${query.status}`);
    if (query.problem_id && items[id].problem_id !== query.problem_id)
      return wrong(`${id} is of ${items[id].problem_id} on a page filtered by problem_id=${query.problem_id}`);
  }
  return undefined;
}

/**
 * Inline inputs (variants of the example: the run's generated jobs, shared with the semantics checks; the first
 * refused one sent again and shrunk) and data-file bodies, with generated solver choices and time limits.
 */
async function jobStarts(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const names = useCase.solvers.map((s) => s.name);
  const path = `/problem/${useCase.id}`;
  const operationId = ctx.contract.find('POST', path)!.operation.operationId as string;
  const timeLimit = quickTimeLimit(ctx.contract);
  const label = `${operationId} with an inline ${useCase.id} input`;
  const inline = inlineJobArbitrary(ctx.contract, useCase);
  const what = ({ input, query }: InlineJobRequest) =>
    `a ${useCase.id} input of size ${sizeOf(useCase.example, input) ?? '?'} with ${JSON.stringify(query)}`;
  const resend = ({ input, query }: InlineJobRequest) =>
    startAndCancel(ctx, { method: 'POST', path, json: input, query }, what({ input, query }));
  const target = nextTarget(ctx);
  if (target.replay !== undefined) await forAll(ctx, label, inline, resend, target);
  else if (target.sends) {
    const corners = exampleCorners(useCase.example).length;
    const generated = await ctx.fixtures.generatedJobs(ctx, useCase);
    const refused = generated.findIndex(({ reply }) => accepted(reply, [200], '') !== undefined);
    if (refused >= 0) {
      const found = accepted(generated[refused]!.reply, [200], what(generated[refused]!))!;
      // A corner case is the example's own, not generated: it is reported as it is.
      if (refused < corners)
        ctx.fail(`${label}, case ${refused + 1} of seed ${ctx.seed} (a corner case): ${found.message}`, found.exchange);
      else await shrinkFound(ctx, target, label, inline, resend, refused, found);
    }
  }

  const bodies = nextTarget(ctx);
  if (!bodies.sends) return;
  const file = await ctx.fixtures.dataFile(ctx, useCase);
  const body = fc
    .tuple(
      arbitraryOf(ctx.contract, ctx.contract.schema('DataFileJobRequest')) as fc.Arbitrary<Record<string, any>>,
      fc.shuffledSubarray(names, { minLength: 1 }),
      timeLimit,
    )
    .map(([value, chosen, limit]) => {
      const request: Record<string, any> = { ...value, data_file_identifier: file.id, time_limit_seconds: limit };
      if (request.solvers)
        request.solvers = chosen.slice(0, request.solvers.length).map((name, i) => ({ ...request.solvers[i], name }));
      return request;
    });
  await forAll(
    ctx,
    `${operationId} from a ${useCase.id} data file`,
    body,
    (request) => startAndCancel(ctx, { method: 'POST', path, json: request }, `the body ${JSON.stringify(request)}`),
    bodies,
  );
}

async function generatedPrefer(ctx: CheckContext, useCase: UseCaseInfo): Promise<void> {
  const prefer = arbitraryOf(ctx.contract, ctx.contract.parameter('getJob', 'Prefer').schema) as fc.Arbitrary<string>;
  const target = nextTarget(ctx);
  // The job is made only when its target runs (a replay of another target starts none).
  const finished = target.sends ? await ctx.fixtures.finishedJob(ctx, useCase) : undefined;
  await forAll(
    ctx,
    'getJob with a generated Prefer header',
    prefer.filter((p) => !/wait/i.test(p) && /^[\x20-\x7e]*$/.test(p)),
    async (value) => {
      const reply = await ctx.send({ method: 'GET', path: `/job/${finished!.id}`, headers: { prefer: value } });
      return (
        accepted(reply, [200], `Prefer: ${value}`) ??
        (jobOf(reply) ? undefined : { message: 'the answer does not hold one job', exchange: reply.exchange })
      );
    },
    target,
  );
}

async function generatedProblemIds(ctx: CheckContext): Promise<void> {
  await forAll(
    ctx,
    'getProblem with a generated id',
    arbitraryOf(ctx.contract, ctx.contract.schema('ProblemId')) as fc.Arbitrary<string>,
    async (id) =>
      accepted(await ctx.send({ method: 'GET', path: `/problem/${id}` }), [200, 404], `the use case "${id}"`),
  );
}

async function generatedCredentials(ctx: CheckContext): Promise<void> {
  await forAll(
    ctx,
    'login with generated credentials',
    arbitraryOf(ctx.contract, ctx.contract.requestSchema('login')),
    async (credentials) =>
      accepted(
        await ctx.send({ method: 'POST', path: '/login', auth: 'none', json: credentials }),
        [200, 401],
        `the credentials ${JSON.stringify(credentials)}`,
      ),
  );
}

async function generatedUploads(ctx: CheckContext, useCases: UseCaseInfo[]): Promise<void> {
  // The use case is part of the case, so that a replayed case uploads for the same one; the salt keeps each
  // upload's bytes new (the same bytes again answer 200 with the record of the first).
  const upload = fc.tuple(
    arbitraryOf(ctx.contract, ctx.contract.schema('DataFileUpload')) as fc.Arbitrary<Node>,
    fc.constantFrom(...useCases.map((u) => u.id)),
  );
  let salt = 100;
  await forAll(ctx, 'uploadDataFile with generated fields', upload, async ([fields, id]) => {
    const useCase = useCases.find((u) => u.id === id)!;
    const form = uploadForm(ctx.fixtures.uniqueFile(ctx, useCase, salt++), String(fields.name), {
      problem_id: useCase.id,
      name: String(fields.name),
      ...(fields.description !== undefined ? { description: String(fields.description) } : {}),
    });
    const reply = await ctx.send({ method: 'POST', path: '/data_file', body: form });
    if (typeof reply.json?.data_file_identifier === 'string')
      await ctx.send({ method: 'DELETE', path: `/data_file/${reply.json.data_file_identifier}` });
    return accepted(reply, [201, 200], `the fields ${JSON.stringify(fields)} for ${useCase.id}`);
  });
}

export const positiveDataAcceptance: Check = {
  name: 'positive_data_acceptance',
  description:
    "Requests generated from the schemas and each listed use case's example (inline inputs of copies of it or of its shape with any weights, data-file jobs, solver choices and parameters, paging and filters, Prefer values, credentials, upload fields) are accepted: never a 400, 413, 415 or 422.",
  operations: [
    'startMaxCutJob',
    'startQuboJob',
    'listJobs',
    'listDataFiles',
    'getJob',
    'getProblem',
    'login',
    'uploadDataFile',
  ],
  async run(ctx) {
    const useCases = await ctx.fixtures.useCases(ctx);
    for (const useCase of useCases) if (ctx.selected(startOperationOf(ctx, useCase.id))) await jobStarts(ctx, useCase);

    for (const [operationId, path, key] of [
      ['listJobs', '/job', 'job'],
      ['listDataFiles', '/data_file', 'data_file'],
    ] as const) {
      if (!ctx.selected(operationId)) continue;
      await forAll(
        ctx,
        `${operationId} with generated paging and filters`,
        queryArbitrary(ctx.contract, operationId),
        async (query) => {
          const reply = await ctx.send({ method: 'GET', path, query });
          return (
            accepted(reply, [200], `the query ${JSON.stringify(query)}`) ??
            (ctx.sandbox ? undefined : pageProblem(reply, query, key))
          );
        },
      );
    }
    if (ctx.sandbox && !replaying(ctx))
      ctx.note(
        'skipped in the sandbox profile: that each page holds only what its filters ask for (the sandbox answers the same example page to every query)',
      );
    if (ctx.selected('getJob')) await generatedPrefer(ctx, useCases[0]!);
    if (ctx.selected('getProblem')) await generatedProblemIds(ctx);
    if (ctx.selected('login')) await generatedCredentials(ctx);
    if (ctx.selected('uploadDataFile')) await generatedUploads(ctx, useCases);
  },
};
