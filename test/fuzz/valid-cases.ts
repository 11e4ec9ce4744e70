// Requests the contract allows, for every operation it documents (parameters and bodies from its schemas
// with the conformance suite's arbitraries, tiny graphs, ids of things that exist), and their mutants: one
// thing made wrong in a body (the conformance suite's mutations) or in a parameter.
import fc from 'fast-check';
import type { Node, Operation } from '../../conformance/src/contract/document.ts';
import { graphArbitrary } from '../../conformance/src/generate/graphs.ts';
import { mutantArbitrary } from '../../conformance/src/generate/mutations.ts';
import { parameterText } from '../../conformance/src/generate/property.ts';
import { arbitraryOf } from '../../conformance/src/generate/schema-arbitrary.ts';
import { edgeList } from '../../conformance/src/maxcut.ts';
import { form, type Json, jsonText, type Part } from './bodies.ts';
import { type FuzzCase, type GenerationContext, jsonHeaders, percentEncode, ref, requestTarget } from './cases.ts';

export type CaseSpec = Omit<FuzzCase, 'auth' | 'authVariant'>;
type Body = { body: Json; query: Record<string, unknown>; letRun: boolean };

/** Solver time limits stay at half a second: accepted jobs must leave the two workers free. */
const quickLimit = fc.double({ min: 0.01, max: 0.5, noNaN: true });

const schemaArbitrary = (ctx: GenerationContext, schema: Node) =>
  ctx.once(`schema ${JSON.stringify(schema)}`, () => arbitraryOf(ctx.contract, schema));

/** Values for path parameters: mostly ids that exist (the user's own, or another user's), sometimes generated ones. */
function pathParameter(ctx: GenerationContext, op: Operation, param: Node): fc.Arbitrary<string> {
  const generated = (schemaArbitrary(ctx, param.schema) as fc.Arbitrary<string>).map((text) => percentEncode(text));
  const existing: Record<string, string[]> = {
    job_id: [ref('job'), ref('finished'), ref('foreign_job')],
    // Deleting the user's data file would leave the rest of the run without one.
    data_file_identifier:
      op.operation.operationId === 'deleteDataFile'
        ? [ref('new_file'), ref('foreign_file')]
        : [ref('file'), ref('new_file'), ref('foreign_file')],
    problem_id: ['maxcut'],
  };
  const known = existing[param.name as string];
  return known
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated })
    : generated;
}

function queryParameter(ctx: GenerationContext, op: Operation, param: Node): fc.Arbitrary<unknown> {
  const generated = schemaArbitrary(ctx, param.schema);
  if (param.name === 'time_limit_seconds') return quickLimit;
  if (param.name === 'solver')
    return fc.oneof(
      { weight: 3, arbitrary: fc.shuffledSubarray(ctx.solvers, { minLength: 1 }) },
      { weight: 1, arbitrary: generated },
    );
  if (param.name === 'starting_after') {
    const refs = op.path === '/job' ? [ref('job'), ref('finished')] : [ref('file'), ref('new_file')];
    return fc.oneof(fc.constantFrom(...refs), generated);
  }
  return generated;
}

const parametersIn = (op: Operation, where: string) => op.parameters.filter((p) => p.in === where);

const pathValues = (ctx: GenerationContext, op: Operation, except?: Node) =>
  fc.record(
    Object.fromEntries(
      parametersIn(op, 'path')
        .filter((p) => p !== except)
        .map((p) => [p.name as string, pathParameter(ctx, op, p)]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;

const queryOf = (ctx: GenerationContext, op: Operation) =>
  ctx.once(`query ${op.label}`, () =>
    fc.record(
      Object.fromEntries(parametersIn(op, 'query').map((p) => [p.name as string, queryParameter(ctx, op, p)])),
      { requiredKeys: [] },
    ),
  );

/** Prefer values that never make a long poll wait more than a second. */
const quickPrefer = (ctx: GenerationContext, param: Node) =>
  fc.oneof(
    fc.constantFrom('wait=0', 'wait=1', 'wait=1, respond-async'),
    (schemaArbitrary(ctx, param.schema) as fc.Arbitrary<string>).map((p) => p.replace(/wait/gi, 'w')),
  );

/** The contents of a data file the use case accepts: the graph as an edge list or inline JSON. */
export const dataFileContents: fc.Arbitrary<string> = fc
  .tuple(graphArbitrary(1, 8), fc.nat(3))
  .map(
    ([graph, style]) =>
      [edgeList(graph), JSON.stringify(graph), edgeList(graph).replaceAll('\n', '\r\n'), `\ufeff${edgeList(graph)}`][
        style
      ]!,
  );

/** The JSON bodies the contract allows for login (a user's credentials, right or wrong) and startJob (with the query that goes with it). */
export function validJsonBody(ctx: GenerationContext, operationId: 'login' | 'startJob'): fc.Arbitrary<Body> {
  return ctx.once(`body ${operationId}`, (): fc.Arbitrary<Body> => {
    if (operationId === 'login') {
      const real = fc.constant({ username: ref('username'), password: ref('password') });
      const wrong = fc
        .string({ minLength: 1, maxLength: 12 })
        .map((password) => ({ username: ref('username'), password }));
      const generated = schemaArbitrary(ctx, ctx.contract.schema('LoginRequest')) as fc.Arbitrary<Json>;
      return fc.oneof(real, wrong, generated).map((body) => ({ body, query: {}, letRun: false }));
    }
    const inline = fc
      .tuple(graphArbitrary(1, 6), fc.option(fc.shuffledSubarray(ctx.solvers, { minLength: 1 })), quickLimit)
      .map(([graph, solvers, limit]) => ({
        body: graph as unknown as Json,
        query: { ...(solvers ? { solver: solvers } : {}), time_limit_seconds: limit },
        letRun: !solvers || solvers.every((s) => s === 'exact'),
      }));
    const request = schemaArbitrary(ctx, ctx.contract.schema('DataFileJobRequest')) as fc.Arbitrary<
      Record<string, any>
    >;
    const fromFile = fc
      .tuple(
        request,
        fc.constantFrom(ref('file'), ref('new_file'), ref('foreign_file')),
        fc.shuffledSubarray(ctx.solvers, { minLength: 1 }),
        quickLimit,
      )
      .map(([generated, file, names, limit]) => {
        const body: Record<string, any> = { ...generated, data_file_identifier: file, time_limit_seconds: limit };
        if (body.solvers)
          body.solvers = names.slice(0, body.solvers.length).map((name, i) => ({ ...body.solvers[i], name }));
        // Some run to their end (one solver, at most 0.2 s): their answers, from whatever the file held, are read back later.
        return { body: body as Json, query: {}, letRun: body.solvers?.length === 1 && limit <= 0.2 };
      });
    return fc.oneof({ weight: 3, arbitrary: inline }, { weight: 2, arbitrary: fromFile });
  });
}

/** A valid multipart upload: the contract's fields (generated) and a small graph as the file. */
export function validUploadParts(ctx: GenerationContext): fc.Arbitrary<Part[]> {
  return ctx.once('upload parts', () => {
    const fields = schemaArbitrary(ctx, ctx.contract.schema('DataFileUpload')) as fc.Arbitrary<Record<string, unknown>>;
    return fc
      .tuple(fields, dataFileContents, fc.string({ minLength: 1, maxLength: 20 }))
      .map(([values, contents, filename]): Part[] => [
        { name: 'file', filename, contentType: 'text/plain', data: contents },
        ...Object.entries(values)
          .filter(([name]) => name !== 'file')
          .map(([name, value]) => ({ name, data: name === 'problem_id' ? 'maxcut' : String(value) })),
      ]);
  });
}

/** A request the contract allows for `op`. */
export function operationCase(ctx: GenerationContext, op: Operation): fc.Arbitrary<CaseSpec> {
  return ctx.once(`operation ${op.label}`, (): fc.Arbitrary<CaseSpec> => {
    const id = op.operation.operationId as string;
    const method = op.method.toUpperCase();
    const prefer = op.parameters.find((p) => p.in === 'header' && /^prefer$/i.test(p.name));
    const headers: fc.Arbitrary<[string, string][]> = prefer
      ? fc.option(quickPrefer(ctx, prefer)).map((p) => (p === null ? [] : [['Prefer', p]]))
      : fc.constant([]);
    const family = 'valid';
    if (id === 'login' || id === 'startJob') {
      return fc.tuple(pathValues(ctx, op), validJsonBody(ctx, id)).map(([path, { body, query, letRun }]) => ({
        family,
        method,
        target: requestTarget(op.path, path, query),
        headers: jsonHeaders(),
        body: Buffer.from(jsonText(body)),
        letRun,
      }));
    }
    if (id === 'uploadDataFile') {
      return validUploadParts(ctx).map((parts) => {
        const { boundary, body } = form(parts);
        return {
          family,
          method,
          target: op.path,
          headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]],
          body,
        };
      });
    }
    return fc
      .tuple(pathValues(ctx, op), queryOf(ctx, op), headers)
      .map(([path, query, extra]) => ({ family, method, target: requestTarget(op.path, path, query), headers: extra }));
  });
}

export function validCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  // Logins are few: each costs ~0.1 s of scrypt by design. Starts and uploads have the most to find.
  const weight = (id: string) => ({ startJob: 3, uploadDataFile: 3, login: 1 })[id] ?? 2;
  return fc.oneof(
    ...ctx.contract.operations.map((op) => ({
      weight: weight(op.operation.operationId),
      arbitrary: operationCase(ctx, op),
    })),
  );
}

/** A valid body with one thing made wrong (kept only when the schema refuses it), or one parameter given a value of the wrong kind. */
export function mutantCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  const [login, start] = (['login', 'startJob'] as const).map((id) => {
    const op = ctx.contract.byId(id);
    const schema = id === 'login' ? ctx.contract.schema('LoginRequest') : ctx.contract.requestSchema('startJob');
    const valid = validJsonBody(ctx, id);
    return fc
      .tuple(
        mutantArbitrary(
          valid.map((v) => v.body),
          (value) => ctx.contract.validate(schema, value).length > 0,
        ),
        valid,
      )
      .map(([mutant, { query }]) => ({
        family: 'mutant',
        method: 'POST',
        target: requestTarget(op.path, { problem_id: 'maxcut' }, query),
        headers: jsonHeaders(),
        body: Buffer.from(jsonText(mutant.value as Json)),
      }));
  });
  return fc.oneof(
    { weight: 1, arbitrary: login! },
    { weight: 4, arbitrary: start! },
    { weight: 4, arbitrary: oneParameterCase(ctx, 'mutant', parameterText) },
  );
}

/** A request of an operation with one path or query parameter set to `text` (percent-encoded), the rest valid. */
export function oneParameterCase(
  ctx: GenerationContext,
  family: string,
  text: fc.Arbitrary<string>,
): fc.Arbitrary<CaseSpec> {
  const variants = ctx.contract.operations.flatMap((op) =>
    op.parameters
      .filter((p) => p.in === 'path' || p.in === 'query')
      .map((param) => {
        // A start needs a body; a 2-node graph keeps the parameter the only thing wrong.
        const body =
          op.operation.operationId === 'startJob'
            ? { headers: jsonHeaders(), body: Buffer.from('{"num_nodes":2,"adj_matrix":[[0,1],[1,0]]}') }
            : { headers: [] };
        return fc.tuple(pathValues(ctx, op, param), queryOf(ctx, op), text).map(([values, query, value]): CaseSpec => ({
          family: `${family} ${param.in} parameter`,
          method: op.method.toUpperCase(),
          target: requestTarget(
            op.path,
            param.in === 'path' ? { ...values, [param.name]: percentEncode(value) } : values,
            param.in === 'query' ? { ...query, [param.name]: value } : query,
          ),
          ...body,
        }));
      }),
  );
  return fc.oneof(...variants);
}
