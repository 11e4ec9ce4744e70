// The fixed cases of negative_data_rejection: malformed, truncated, wrong-shaped and wrong-typed bodies,
// wrong media types, bad parameters, and inputs that parse but are wrong for the use case or name nothing
// that exists. Each names the status and problem code the contract documents for it. The job cases run for
// every listed use case, on its example (those about a square matrix only where the example is one).
import type { CheckContext } from '../context.ts';
import type { RequestSpec } from '../http.ts';
import { squareShape } from '../inputs.ts';
import { uploadFormFor } from '../jobs.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { pathValues } from './probes.ts';
import { startOperationOf } from './refusal.ts';

type Spec = Omit<RequestSpec, 'auth'>;

export interface NegativeCase {
  what: string;
  /**
   * The request (undefined: the case does not apply to this use case's input, or needs a fixture for an operation the
   * run did not select).
   */
  request: (ctx: CheckContext, useCase: UseCaseInfo) => Spec | undefined | Promise<Spec | undefined>;
  /** Sent once per listed use case (else once, for the first). */
  perUseCase?: true;
  status: number;
  code: string;
  /** An `errors` entry must point here (or below); a function of the use case's input where it depends on it. */
  pointer?: string | ((useCase: UseCaseInfo) => string | undefined);
  /** Why a stateless mock cannot refuse it (it depends on stored data or on the use case's rules). */
  stateful?: string;
}

const json = (body: string) => ({ body, headers: { 'content-type': 'application/json' } });
const start = (useCase: UseCaseInfo, extra: Omit<RequestSpec, 'auth' | 'method' | 'path'>) => ({
  method: 'POST',
  path: `/problem/${useCase.id}`,
  ...extra,
});
const example = (useCase: UseCaseInfo) => structuredClone(useCase.example);

/** The example with its square matrix (and size) changed by `edit`; undefined when it has no such shape. */
function edited(
  useCase: UseCaseInfo,
  edit: (input: Record<string, any>, shape: NonNullable<ReturnType<typeof squareShape>>) => boolean | void,
): Record<string, unknown> | undefined {
  const shape = squareShape(useCase.example);
  if (!shape) return undefined;
  const input = example(useCase);
  return edit(input, shape) === false ? undefined : input;
}
const matrixPointer = (useCase: UseCaseInfo, suffix: string) => {
  const shape = squareShape(useCase.example);
  return shape && `/${shape.matrix}${suffix}`;
};
const semantic = "the sandbox checks shapes, not the use case's rules";
const stored = 'the sandbox stores nothing, so every id exists there';

export const negativeCases: NegativeCase[] = [
  {
    what: 'login with malformed JSON',
    request: () => ({ method: 'POST', path: '/login', ...json('{"username": "a",') }),
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'login without a password',
    request: (ctx) => ({
      method: 'POST',
      path: '/login',
      json: { username: ctx.options.username ?? 'jes-conformance' },
    }),
    status: 400,
    code: 'invalid_request',
    pointer: '/password',
  },
  {
    what: 'login as text/plain',
    request: () => ({
      method: 'POST',
      path: '/login',
      body: 'username=a&password=b',
      headers: { 'content-type': 'text/plain' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'a job body that is not JSON',
    perUseCase: true,
    request: (_, u) => start(u, json('{size: 2}')),
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'a truncated job body',
    perUseCase: true,
    request: (_, u) => start(u, json(JSON.stringify(u.example).slice(0, 20))),
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'a job body that is a number',
    perUseCase: true,
    request: (_, u) => start(u, json('42')),
    status: 400,
    code: 'invalid_request',
  },
  {
    what: 'a job body that is null',
    perUseCase: true,
    request: (_, u) => start(u, json('null')),
    status: 400,
    code: 'invalid_request',
  },
  {
    what: 'a job body that is an array',
    perUseCase: true,
    request: (_, u) => start(u, json('[[0, 1], [1, 0]]')),
    status: 400,
    code: 'invalid_request',
  },
  {
    what: 'an empty job body',
    perUseCase: true,
    request: (_, u) => start(u, json('')),
    status: 400,
    code: 'invalid_request',
  },
  {
    what: 'a job body as text/plain',
    perUseCase: true,
    request: (_, u) => start(u, { body: JSON.stringify(u.example), headers: { 'content-type': 'text/plain' } }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'the size as a string',
    perUseCase: true,
    request: (_, u) => {
      const input = edited(u, (input, shape) => void (input[shape.sizes[0]!] = String(shape.n)));
      return input && start(u, { json: input });
    },
    status: 400,
    code: 'invalid_request',
    pointer: (u) => {
      const shape = squareShape(u.example);
      return shape && `/${shape.sizes[0]}`;
    },
  },
  {
    what: 'a matrix entry as a string',
    perUseCase: true,
    request: (_, u) => {
      const input = edited(u, (input, shape) => void (input[shape.matrix][0][0] = String(input[shape.matrix][0][0])));
      return input && start(u, { json: input });
    },
    status: 400,
    code: 'invalid_request',
    pointer: (u) => matrixPointer(u, '/0/0'),
  },
  {
    what: 'a time limit of 0',
    perUseCase: true,
    request: (_, u) => start(u, { json: example(u), query: { time_limit_seconds: 0 } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/time_limit_seconds',
  },
  {
    what: 'a time limit above 3600',
    perUseCase: true,
    request: (_, u) => start(u, { json: example(u), query: { time_limit_seconds: 3601 } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/time_limit_seconds',
  },
  {
    what: 'the same solver twice',
    perUseCase: true,
    request: (_, u) => start(u, { json: example(u), query: { solver: [u.heuristic.name, u.heuristic.name] } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/solver',
  },
  {
    what: 'a matrix that is not square',
    perUseCase: true,
    request: (_, u) => {
      const input = edited(u, (input, shape) => shape.n > 1 && void input[shape.matrix][1].pop());
      return input && start(u, { json: input });
    },
    status: 422,
    code: 'invalid_input',
    pointer: (u) => matrixPointer(u, '/1'),
    stateful: semantic,
  },
  {
    what: 'a size unlike the matrix',
    perUseCase: true,
    request: (_, u) => {
      const input = edited(u, (input, shape) => void (input[shape.sizes[0]!] = shape.n + 1));
      return input && start(u, { json: input });
    },
    status: 422,
    code: 'invalid_input',
    stateful: semantic,
  },
  {
    what: 'an unknown solver',
    perUseCase: true,
    request: (_, u) => start(u, { json: example(u), query: { solver: 'no-such-solver' } }),
    status: 404,
    code: 'solver_not_found',
    stateful: stored,
  },
  {
    what: 'a job for an unknown use case',
    perUseCase: true,
    request: (_, u) => ({ method: 'POST', path: '/problem/no_such_use_case', json: example(u) }),
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'a job from an unknown data file',
    perUseCase: true,
    request: (ctx, u) => start(u, { json: { data_file_identifier: pathValues(ctx).data_file_identifier } }),
    status: 404,
    code: 'data_file_not_found',
    stateful: stored,
  },
  {
    what: 'solvers both in the body and in the query',
    perUseCase: true,
    // The data file is made only for a run that sends the case (--operation may leave its operation out).
    request: async (ctx, u) =>
      ctx.selected(startOperationOf(ctx, u.id))
        ? start(u, {
            json: {
              data_file_identifier: (await ctx.fixtures.dataFile(ctx, u)).id,
              solvers: [{ name: u.heuristic.name }],
            },
            query: { solver: u.heuristic.name },
          })
        : undefined,
    status: 400,
    code: 'invalid_request',
    stateful: semantic,
  },
  {
    what: 'a malformed job id',
    request: () => ({ method: 'GET', path: '/job/not-a-job' }),
    status: 400,
    code: 'invalid_request',
    pointer: '/path/job_id',
  },
  {
    what: 'a Prefer header over 256 characters',
    request: (ctx) => ({
      method: 'GET',
      path: `/job/${pathValues(ctx).job_id}`,
      headers: { prefer: `wait=1, ${'x'.repeat(300)}` },
    }),
    status: 400,
    code: 'invalid_request',
    pointer: '/header/prefer',
  },
  {
    what: 'an unknown job',
    request: (ctx) => ({ method: 'GET', path: `/job/${pathValues(ctx).job_id}` }),
    status: 404,
    code: 'job_not_found',
    stateful: stored,
  },
  {
    what: 'the output of an unknown job',
    request: (ctx) => ({ method: 'GET', path: `/job/${pathValues(ctx).job_id}/output` }),
    status: 404,
    code: 'job_not_found',
    stateful: stored,
  },
  {
    what: 'cancelling an unknown job',
    request: (ctx) => ({ method: 'POST', path: `/job/${pathValues(ctx).job_id}/cancel` }),
    status: 404,
    code: 'job_not_found',
    stateful: stored,
  },
  {
    what: 'a page size of 0',
    request: () => ({ method: 'GET', path: '/job', query: { limit: 0 } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/limit',
  },
  {
    what: 'an unknown status filter',
    request: () => ({ method: 'GET', path: '/job', query: { status: 'DONE' } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/status',
  },
  {
    what: 'a use-case id in upper case',
    perUseCase: true,
    request: (_, u) =>
      u.id.toUpperCase() === u.id ? undefined : { method: 'GET', path: `/problem/${u.id.toUpperCase()}` },
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'a job for a use-case id in upper case',
    perUseCase: true,
    request: (_, u) =>
      u.id.toUpperCase() === u.id
        ? undefined
        : { method: 'POST', path: `/problem/${u.id.toUpperCase()}`, json: example(u) },
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'an unknown use case',
    request: () => ({ method: 'GET', path: '/problem/no_such_use_case' }),
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'an upload without a name',
    request: (_, u) => {
      const form = uploadFormFor(u.id, JSON.stringify(u.example), 'x.json');
      form.delete('name');
      return { method: 'POST', path: '/data_file', body: form };
    },
    status: 400,
    code: 'invalid_request',
  },
  {
    what: 'an upload as JSON',
    request: (_, u) => ({
      method: 'POST',
      path: '/data_file',
      json: { problem_id: u.id, name: 'x', file: JSON.stringify(u.example) },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'an upload for an unknown use case',
    request: (ctx, u) => ({
      method: 'POST',
      path: '/data_file',
      body: uploadFormFor('no_such_use_case', JSON.stringify(u.example), ctx.unique('x.json')),
    }),
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'a malformed data-file identifier',
    request: () => ({ method: 'GET', path: '/data_file/D6E02699' }),
    status: 400,
    code: 'invalid_request',
    pointer: '/path/data_file_identifier',
  },
  {
    what: 'an unknown data file',
    request: (ctx) => ({ method: 'GET', path: `/data_file/${pathValues(ctx).data_file_identifier}` }),
    status: 404,
    code: 'data_file_not_found',
    stateful: stored,
  },
  {
    what: 'deleting an unknown data file',
    request: (ctx) => ({ method: 'DELETE', path: `/data_file/${pathValues(ctx).data_file_identifier}` }),
    status: 404,
    code: 'data_file_not_found',
    stateful: stored,
  },
];
