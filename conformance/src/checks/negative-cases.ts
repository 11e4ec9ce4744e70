// The fixed cases of negative_data_rejection: malformed, truncated, wrong-shaped and wrong-typed bodies,
// wrong media types, bad parameters, and inputs that parse but are wrong for the use case or name nothing
// that exists. Each names the status and problem code the contract documents for it.
import type { CheckContext } from '../context.ts';
import type { RequestSpec } from '../http.ts';
import { uploadForm } from '../jobs.ts';
import { pathValues } from './probes.ts';

export interface NegativeCase {
  what: string;
  request: (ctx: CheckContext) => Omit<RequestSpec, 'auth'> | Promise<Omit<RequestSpec, 'auth'>>;
  status: number;
  code: string;
  /** An `errors` entry must point here (or below). */
  pointer?: string;
  /** Why a stateless mock cannot refuse it (it depends on stored data or on the use case's rules). */
  stateful?: string;
}

const json = (body: string) => ({ body, headers: { 'content-type': 'application/json' } });
const start = (extra: Omit<RequestSpec, 'auth' | 'method' | 'path'>) => ({
  method: 'POST',
  path: '/problem/maxcut',
  ...extra,
});
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
    request: (ctx) => ({ method: 'POST', path: '/login', json: { username: ctx.options.username } }),
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
    request: () => start(json('{num_nodes: 2}')),
    status: 400,
    code: 'malformed_json',
  },
  {
    what: 'a truncated job body',
    request: (ctx) => start(json(JSON.stringify(ctx.fixtures.exampleGraph(ctx)).slice(0, 40))),
    status: 400,
    code: 'malformed_json',
  },
  { what: 'a job body that is a number', request: () => start(json('42')), status: 400, code: 'invalid_request' },
  { what: 'a job body that is null', request: () => start(json('null')), status: 400, code: 'invalid_request' },
  {
    what: 'a job body that is an array',
    request: () => start(json('[[0, 1], [1, 0]]')),
    status: 400,
    code: 'invalid_request',
  },
  { what: 'an empty job body', request: () => start(json('')), status: 400, code: 'invalid_request' },
  {
    what: 'a job body as text/plain',
    request: (ctx) =>
      start({ body: JSON.stringify(ctx.fixtures.exampleGraph(ctx)), headers: { 'content-type': 'text/plain' } }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'num_nodes as a string',
    request: () =>
      start({
        json: {
          num_nodes: '2',
          adj_matrix: [
            [0, 1],
            [1, 0],
          ],
        },
      }),
    status: 400,
    code: 'invalid_request',
    pointer: '/num_nodes',
  },
  {
    what: 'a weight as a string',
    request: () =>
      start({
        json: {
          num_nodes: 2,
          adj_matrix: [
            [0, '1'],
            [1, 0],
          ],
        },
      }),
    status: 400,
    code: 'invalid_request',
    pointer: '/adj_matrix/0/1',
  },
  {
    what: 'a time limit of 0',
    request: (ctx) => start({ json: ctx.fixtures.exampleGraph(ctx), query: { time_limit_seconds: 0 } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/time_limit_seconds',
  },
  {
    what: 'a time limit above 3600',
    request: (ctx) => start({ json: ctx.fixtures.exampleGraph(ctx), query: { time_limit_seconds: 3601 } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/time_limit_seconds',
  },
  {
    what: 'the same solver twice',
    request: (ctx) => start({ json: ctx.fixtures.exampleGraph(ctx), query: { solver: ['exact', 'exact'] } }),
    status: 400,
    code: 'invalid_request',
    pointer: '/query/solver',
  },
  {
    what: 'a matrix that is not square',
    request: () =>
      start({
        json: {
          num_nodes: 3,
          adj_matrix: [
            [0, 1, 2],
            [1, 0],
            [2, 0, 0],
          ],
        },
      }),
    status: 422,
    code: 'invalid_input',
    pointer: '/adj_matrix/1',
    stateful: semantic,
  },
  {
    what: 'a matrix that is not symmetric',
    request: () =>
      start({
        json: {
          num_nodes: 2,
          adj_matrix: [
            [0, 1],
            [2, 0],
          ],
        },
      }),
    status: 422,
    code: 'invalid_input',
    pointer: '/adj_matrix',
    stateful: semantic,
  },
  {
    what: 'num_nodes unlike the matrix',
    request: () =>
      start({
        json: {
          num_nodes: 3,
          adj_matrix: [
            [0, 1],
            [1, 0],
          ],
        },
      }),
    status: 422,
    code: 'invalid_input',
    stateful: semantic,
  },
  {
    what: 'an unknown solver',
    request: (ctx) => start({ json: ctx.fixtures.exampleGraph(ctx), query: { solver: 'no-such-solver' } }),
    status: 404,
    code: 'solver_not_found',
    stateful: stored,
  },
  {
    what: 'a job for an unknown use case',
    request: (ctx) => ({ method: 'POST', path: '/problem/no_such_use_case', json: ctx.fixtures.exampleGraph(ctx) }),
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'a job from an unknown data file',
    request: (ctx) => start({ json: { data_file_identifier: pathValues(ctx).data_file_identifier } }),
    status: 404,
    code: 'data_file_not_found',
    stateful: stored,
  },
  {
    what: 'solvers both in the body and in the query',
    request: async (ctx) =>
      start({
        json: { data_file_identifier: (await ctx.fixtures.dataFile(ctx)).id, solvers: [{ name: 'exact' }] },
        query: { solver: 'exact' },
      }),
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
    request: () => ({ method: 'GET', path: '/problem/MaxCut' }),
    status: 404,
    code: 'problem_not_found',
  },
  {
    what: 'a job for a use-case id in upper case',
    request: (ctx) => ({ method: 'POST', path: '/problem/MaxCut', json: ctx.fixtures.exampleGraph(ctx) }),
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
    request: () => ({
      method: 'POST',
      path: '/data_file',
      body: uploadForm('2 1\n1 2 1\n', 'x.txt', { problem_id: 'maxcut' }),
    }),
    status: 400,
    code: 'invalid_request',
  },
  {
    what: 'an upload as JSON',
    request: () => ({
      method: 'POST',
      path: '/data_file',
      json: { problem_id: 'maxcut', name: 'x', file: '2 1\n1 2 1\n' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'an upload for an unknown use case',
    request: (ctx) => ({
      method: 'POST',
      path: '/data_file',
      body: uploadForm('2 1\n1 2 1\n', ctx.unique('x.txt'), {
        problem_id: 'no_such_use_case',
        name: ctx.unique('x.txt'),
      }),
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
