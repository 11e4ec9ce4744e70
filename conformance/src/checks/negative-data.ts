// negative_data_rejection: what the contract refuses is refused, with the documented status and code, and
// for invalid_request with `errors` whose JSON pointers name the culprit. Fixed cases (negative-cases.ts), a
// body sent to another use case's path (crossed-bodies.ts), then generated ones: bodies with one thing made
// wrong, and parameters with values their schemas refuse. For every use case the deployment lists; narrowed to some
// operations (--operation), the cases of those alone.
import fc from 'fast-check';
import type { CheckContext } from '../context.ts';
import { deref, type Node } from '../contract/document.ts';
import { coerce, forAll, nextTarget, parameterText, replaying } from '../generate/property.ts';
import { exampleArbitrary } from '../generate/examples.ts';
import { mutantArbitrary } from '../generate/mutations.ts';
import { arbitraryOf } from '../generate/schema-arbitrary.ts';
import type { RequestSpec } from '../http.ts';
import type { Check } from './check.ts';
import { crossedBodies } from './crossed-bodies.ts';
import { negativeCases } from './negative-cases.ts';
import { refusalProblem, startOperationOf } from './refusal.ts';
import { fillPath, pathValues, selectedRequest } from './probes.ts';

async function fixedCases(ctx: CheckContext): Promise<void> {
  const left: Record<string, string[]> = {};
  const useCases = await ctx.fixtures.useCases(ctx);
  for (const c of negativeCases) {
    if (c.stateful && ctx.sandbox) {
      (left[c.stateful] ??= []).push(`${c.what} → ${c.status} ${c.code}`);
      continue;
    }
    for (const useCase of c.perUseCase ? useCases : useCases.slice(0, 1)) {
      const spec = await c.request(ctx, useCase);
      if (!spec || !selectedRequest(ctx, spec)) continue;
      const pointer = typeof c.pointer === 'function' ? c.pointer(useCase) : c.pointer;
      const failure = refusalProblem(await ctx.send(spec), c.status, c.code, pointer);
      const what = c.perUseCase ? `${useCase.id}: ${c.what}` : c.what;
      if (failure) ctx.fail(`${what}: ${failure.message}`, failure.exchange);
    }
  }
  for (const [reason, cases] of Object.entries(left))
    ctx.note(`skipped in the sandbox profile (${reason}): ${cases.join('; ')}`);
}

async function generatedBodies(ctx: CheckContext): Promise<void> {
  const invalid = (s: Node) => (value: unknown) => ctx.contract.validate(s, value).length > 0;
  // Each target's valid bodies are made when it runs (a replay of another one uploads no data file for it).
  const targets: [string, string, () => Promise<fc.Arbitrary<unknown>>, Node][] = [];
  for (const useCase of await ctx.fixtures.useCases(ctx)) {
    if (!ctx.selected(startOperationOf(ctx, useCase.id))) continue;
    const path = `/problem/${useCase.id}`;
    const schema = ctx.contract.requestSchema(startOperationOf(ctx, useCase.id));
    const fromFile = async () => {
      const file = await ctx.fixtures.dataFile(ctx, useCase);
      return arbitraryOf(ctx.contract, ctx.contract.schema('DataFileJobRequest')).map((v) => ({
        ...(v as object),
        data_file_identifier: file.id,
      }));
    };
    targets.push(
      [
        `an inline ${useCase.id} job body with one thing wrong`,
        path,
        async () => exampleArbitrary(useCase.example, 2),
        schema,
      ],
      [`a ${useCase.id} data-file job body with one thing wrong`, path, fromFile, schema],
    );
  }
  if (ctx.selected('login'))
    targets.push([
      'a login body with one thing wrong',
      '/login',
      async () => arbitraryOf(ctx.contract, ctx.contract.schema('LoginRequest')),
      ctx.contract.requestSchema('login'),
    ]);
  for (const [label, path, valid, schema] of targets) {
    const target = nextTarget(ctx);
    if (!target.sends) continue;
    const mutants = mutantArbitrary(await valid(), invalid(schema));
    await forAll(
      ctx,
      label,
      mutants,
      async (mutant) => {
        const failure = refusalProblem(
          await ctx.send({
            method: 'POST',
            path,
            body: JSON.stringify(mutant.value),
            headers: { 'content-type': 'application/json' },
          }),
          400,
          'invalid_request',
        );
        return failure && { ...failure, message: `${mutant.how}: ${failure.message}` };
      },
      target,
    );
  }
}

async function generatedParameters(ctx: CheckContext): Promise<void> {
  const [useCase] = await ctx.fixtures.useCases(ctx);
  const start = startOperationOf(ctx, useCase!.id);
  const targets: [string, string][] = [
    ['listJobs', 'limit'],
    ['listJobs', 'status'],
    ['listJobs', 'starting_after'],
    ['listDataFiles', 'problem_id'],
    [start, 'time_limit_seconds'],
    [start, 'solver'],
    ['getJob', 'job_id'],
    ['getDataFile', 'data_file_identifier'],
  ];
  for (const [operationId, name] of targets) {
    if (!ctx.selected(operationId)) continue;
    const op = ctx.contract.byId(operationId);
    const parameter = ctx.contract.parameter(operationId, name);
    const schema = deref(ctx.contract.doc, parameter.schema)!;
    const text = parameter.in === 'path' ? fc.stringMatching(/^[A-Za-z0-9_-]{1,45}$/) : parameterText;
    const invalid = text.filter((raw) => ctx.contract.validate(schema, coerce(schema, raw)).length > 0);
    await forAll(ctx, `${operationId} with a bad ${name}`, invalid, async (raw) => {
      const values = {
        ...pathValues(ctx),
        problem_id: useCase!.id,
        ...(parameter.in === 'path' ? { [name]: raw } : {}),
      };
      const spec: Omit<RequestSpec, 'auth'> = {
        method: op.method.toUpperCase(),
        path: fillPath(op.path, values),
        ...(parameter.in === 'query' ? { query: { [name]: raw } } : {}),
      };
      if (operationId === start) spec.json = structuredClone(useCase!.example);
      const failure = refusalProblem(await ctx.send(spec), 400, 'invalid_request', `/${parameter.in}/${name}`);
      return failure && { ...failure, message: `${name}=${JSON.stringify(raw)}: ${failure.message}` };
    });
  }
}

export const negativeDataRejection: Check = {
  name: 'negative_data_rejection',
  description:
    "Malformed, truncated, wrong-typed and wrong-shaped bodies and parameters are refused with the documented 4xx problem and code (malformed_json, invalid_request with pointers, unsupported_media_type, invalid_input, *_not_found), for every listed use case; one use case's input sent to another's path is 400 invalid_request with pointers.",
  operations: [
    'login',
    'startMaxCutJob',
    'startQuboJob',
    'startJob',
    'getProblem',
    'getJob',
    'getJobOutput',
    'cancelJob',
    'listJobs',
    'listDataFiles',
    'uploadDataFile',
    'getDataFile',
    'deleteDataFile',
  ],
  async run(ctx) {
    // A replay (--replay-path) sends its one generated case: the fixed cases are left out.
    if (!replaying(ctx)) {
      await fixedCases(ctx);
      await crossedBodies(ctx);
    }
    await generatedBodies(ctx);
    await generatedParameters(ctx);
  },
};
