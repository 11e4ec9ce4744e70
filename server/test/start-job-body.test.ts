// A refused startJob body reports the shape it meant and only that (issue 13: `{"num_nodes": "6", …}` also
// listed the data-file shape's missing member and Ajv's "must match exactly one schema in oneOf"). The cases are
// shared with the sandbox's test, so both answer with the same pointers and details.
import { expect, it } from 'vitest';
import { refusedBodies } from '../../test/support/start-job-bodies.ts';
import { expectProblem } from './support/problems.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

it.each(refusedBodies)('$problemId: $what', async ({ problemId, body, errors }) => {
  const reply = await jes.alice.post(`/problem/${problemId}`, body);
  expectProblem(reply, 400, 'invalid_request');
  expect(reply.body.errors).toEqual(errors);
});

it('reports a bad query parameter beside the body the request meant', async () => {
  const reply = await jes.alice.post('/problem/maxcut?time_limit_seconds=0', { num_nodes: '6', adj_matrix: [[0]] });
  expectProblem(reply, 400, 'invalid_request');
  expect(reply.body.errors).toEqual([
    { pointer: '/query/time_limit_seconds', detail: 'must be > 0' },
    { pointer: '/num_nodes', detail: 'must be integer' },
  ]);
});
