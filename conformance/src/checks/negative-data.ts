// negative_data_rejection: what the contract refuses is refused, with the documented status and code, and
// for invalid_request with `errors` whose JSON pointers name the culprit. Fixed cases (negative-cases.ts),
// then generated ones: bodies with one thing made wrong, and parameters with values their schemas refuse.
import fc from 'fast-check';
import { answered } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { deref, type Node } from '../contract/document.ts';
import { forAll, coerce, parameterText } from '../generate/property.ts';
import { graphArbitrary } from '../generate/graphs.ts';
import { mutantArbitrary } from '../generate/mutations.ts';
import { arbitraryOf } from '../generate/schema-arbitrary.ts';
import type { Reply, RequestSpec } from '../http.ts';
import type { Failure } from '../types.ts';
import type { Check } from './check.ts';
import { negativeCases } from './negative-cases.ts';
import { fillPath, pathValues } from './probes.ts';

const isPointer = (p: unknown) => typeof p === 'string' && (p === '' || p.startsWith('/'));

/** Undefined when the reply is the expected refusal, else what is wrong with it. */
export function refusalProblem(reply: Reply, status: number, code: string, pointer?: string): Failure | undefined {
  if (reply.status !== status || reply.json?.code !== code)
    return { message: `expected ${status} ${code}, got ${answered(reply)}`, exchange: reply.exchange };
  if (code !== 'invalid_request' && code !== 'invalid_input') return undefined;
  const errors = reply.json.errors;
  if (!Array.isArray(errors) || !errors.length)
    return { message: `a ${code} problem without errors[]`, exchange: reply.exchange };
  const bad = errors.filter((e: { pointer?: unknown }) => !isPointer(e?.pointer));
  if (bad.length)
    return {
      message: `errors[] holds pointers that are not JSON pointers: ${JSON.stringify(bad.slice(0, 3))}`,
      exchange: reply.exchange,
    };
  const lower = pointer?.toLowerCase();
  if (
    lower &&
    !errors.some(
      (e: { pointer: string }) =>
        e.pointer.toLowerCase().startsWith(lower) || (lower.startsWith(e.pointer.toLowerCase()) && e.pointer !== '/'),
    )
  ) {
    return {
      message: `no entry of errors[] points at ${pointer} (pointers: ${errors.map((e: { pointer: string }) => e.pointer).join(', ')})`,
      exchange: reply.exchange,
    };
  }
  return undefined;
}

async function fixedCases(ctx: CheckContext): Promise<void> {
  const left: Record<string, string[]> = {};
  for (const c of negativeCases) {
    if (c.stateful && ctx.sandbox) {
      (left[c.stateful] ??= []).push(`${c.what} → ${c.status} ${c.code}`);
      continue;
    }
    const failure = refusalProblem(await ctx.send(await c.request(ctx)), c.status, c.code, c.pointer);
    if (failure) ctx.fail(`${c.what}: ${failure.message}`, failure.exchange);
  }
  for (const [reason, cases] of Object.entries(left))
    ctx.note(`skipped in the sandbox profile (${reason}): ${cases.join('; ')}`);
}

async function generatedBodies(ctx: CheckContext): Promise<void> {
  const schema = ctx.contract.requestSchema('startJob');
  const invalid = (s: Node) => (value: unknown) => ctx.contract.validate(s, value).length > 0;
  const file = await ctx.fixtures.dataFile(ctx);
  const fromFile = arbitraryOf(ctx.contract, ctx.contract.schema('DataFileJobRequest')).map((v) => ({
    ...(v as object),
    data_file_identifier: file.id,
  }));
  const targets: [string, string, fc.Arbitrary<unknown>, Node][] = [
    ['an inline job body with one thing wrong', '/problem/maxcut', graphArbitrary(1, 5), schema],
    ['a data-file job body with one thing wrong', '/problem/maxcut', fromFile, schema],
    [
      'a login body with one thing wrong',
      '/login',
      arbitraryOf(ctx.contract, ctx.contract.schema('LoginRequest')),
      ctx.contract.requestSchema('login'),
    ],
  ];
  for (const [label, path, valid, target] of targets) {
    await forAll(ctx, label, mutantArbitrary(valid, invalid(target)), async (mutant) => {
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
    });
  }
}

async function generatedParameters(ctx: CheckContext): Promise<void> {
  const targets: [string, string][] = [
    ['listJobs', 'limit'],
    ['listJobs', 'status'],
    ['listJobs', 'starting_after'],
    ['listDataFiles', 'problem_id'],
    ['startJob', 'time_limit_seconds'],
    ['startJob', 'solver'],
    ['getJob', 'job_id'],
    ['getDataFile', 'data_file_identifier'],
  ];
  for (const [operationId, name] of targets) {
    const op = ctx.contract.byId(operationId);
    const parameter = ctx.contract.parameter(operationId, name);
    const schema = deref(ctx.contract.doc, parameter.schema)!;
    const text = parameter.in === 'path' ? fc.stringMatching(/^[A-Za-z0-9_-]{1,45}$/) : parameterText;
    const invalid = text.filter((raw) => ctx.contract.validate(schema, coerce(schema, raw)).length > 0);
    await forAll(ctx, `${operationId} with a bad ${name}`, invalid, async (raw) => {
      const values = { ...pathValues(ctx), ...(parameter.in === 'path' ? { [name]: raw } : {}) };
      const spec: Omit<RequestSpec, 'auth'> = {
        method: op.method.toUpperCase(),
        path: fillPath(op.path, values),
        ...(parameter.in === 'query' ? { query: { [name]: raw } } : {}),
      };
      if (operationId === 'startJob') spec.json = ctx.fixtures.exampleGraph(ctx);
      const failure = refusalProblem(await ctx.send(spec), 400, 'invalid_request', `/${parameter.in}/${name}`);
      return failure && { ...failure, message: `${name}=${JSON.stringify(raw)}: ${failure.message}` };
    });
  }
}

export const negativeDataRejection: Check = {
  name: 'negative_data_rejection',
  description:
    'Malformed, truncated, wrong-typed and wrong-shaped bodies and parameters are refused with the documented 4xx problem and code (malformed_json, invalid_request with pointers, unsupported_media_type, invalid_input, *_not_found).',
  operations: [
    'login',
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
    await fixedCases(ctx);
    await generatedBodies(ctx);
    await generatedParameters(ctx);
  },
};
