// A refused start-job body reports the shape it meant and only that, with the reference server's pointers and
// details (the cases are server/test/start-job-body.test.ts's): issue 13, where Prism, like Ajv, also listed the
// other shape's members and "must match exactly one schema in oneOf"; and a body of the other use case (a QUBO
// input on /problem/maxcut, contract 1.5.0) is told what its path takes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../src/server.ts';
import { refusedBodies } from '../../test/support/start-job-bodies.ts';
import { json, startedSandbox } from './support/hostile-requests.ts';

let sandbox: Sandbox;
let call: Awaited<ReturnType<typeof startedSandbox>>['call'];
beforeAll(async () => ({ sandbox, call } = await startedSandbox()));
afterAll(() => sandbox?.close());

it.each(refusedBodies)('$problemId: $what', async ({ problemId, body, errors }) => {
  const answer = await call('POST', `/problem/${problemId}`, { headers: json, body: JSON.stringify(body) });
  expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
  expect(answer.body.errors).toEqual(errors);
});

it('reports a bad query parameter beside the body the request meant', async () => {
  const answer = await call('POST', '/problem/maxcut?time_limit_seconds=0', {
    headers: json,
    body: '{"num_nodes": "6", "adj_matrix": [[0]]}',
  });
  // (The query's detail is Prism's own wording: "Request query parameter time_limit_seconds must be > 0".)
  expect(answer.body.errors).toEqual([
    { pointer: '/query/time_limit_seconds', detail: expect.stringMatching(/must be > 0$/) },
    { pointer: '/num_nodes', detail: 'must be integer' },
  ]);
});
