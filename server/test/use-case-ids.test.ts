// A use-case id that names no use case (issue 13: `POST /problem/MaxCut`, a plausible typo, answered 400 for the
// id's pattern) is 404 problem_not_found with the ids there are, whatever the body: the id is checked after the
// token and before the body. Where the contract keeps the pattern (an upload's field, a listing's filter), the
// 400 says the same.
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { Client, sixNodes, sixNodesEdgeList } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

const told = (id: string) => `Use case "${id}" does not exist; the use cases are: maxcut, qubo.`;
const json = { 'content-type': 'application/json' };

describe('an unknown use case in the path is 404 problem_not_found, with the ids there are', () => {
  it.each(['MaxCut', 'max-cut', 'tsp', 'Max%20Cut'])('GET /problem/%s', async (id) => {
    const reply = await jes.alice.get(`/problem/${id}`);
    expectProblem(reply, 404, 'problem_not_found');
    expect(reply.body.detail).toBe(told(decodeURIComponent(id)));
  });

  const bodies: [string, { body?: string; headers?: Record<string, string> }][] = [
    ['a valid graph', { body: JSON.stringify(sixNodes), headers: json }],
    ['a body that breaks the contract', { body: '{"num_nodes": "6"}', headers: json }],
    ['an empty body', { body: '', headers: json }],
    ['no body at all', {}],
    ['malformed JSON', { body: '{"num_nodes": 6,', headers: json }],
    [
      'a form, as curl -d sends it',
      { body: 'num_nodes=6', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    ],
  ];
  it.each(bodies)('POST /problem/MaxCut with %s', async (_what, sent) => {
    const reply = await jes.alice.request('POST', '/problem/MaxCut', sent);
    expectProblem(reply, 404, 'problem_not_found');
    expect(reply.body.detail).toBe(told('MaxCut'));
  });

  it('is 401 without a token, as every operation is (the path has one)', async () => {
    const reply = await new Client(jes.url).request('POST', '/problem/MaxCut', { body: '{', headers: json });
    expectProblem(reply, 401, 'missing_token');
  });

  it('is 400 for a segment that is not percent-encoded UTF-8 (it was a 500)', async () => {
    const reply = await jes.alice.get('/problem/%ZZ');
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.errors).toEqual([{ pointer: '/path/problem_id', detail: 'must be valid percent-encoded UTF-8' }]);
  });
});

describe('an unknown use case elsewhere', () => {
  const form = (problemId: string) => {
    const body = new FormData();
    body.set('file', new Blob([sixNodesEdgeList]), 'six.txt');
    body.set('problem_id', problemId);
    body.set('name', 'six.txt');
    return body;
  };

  it('an upload for an id of the documented shape is 404 problem_not_found', async () => {
    const reply = await jes.alice.request('POST', '/data_file', { body: form('tsp') });
    expectProblem(reply, 404, 'problem_not_found');
    expect(reply.body.detail).toBe(told('tsp'));
  });

  it('an upload for MaxCut is 400 (the field keeps its pattern) and names the ids there are', async () => {
    const reply = await jes.alice.request('POST', '/data_file', { body: form('MaxCut') });
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.detail).toBe(`The request does not match the API contract. ${told('MaxCut')}`);
    expect(reply.body.errors).toEqual([
      { pointer: '/problem_id', detail: 'must match pattern "^[a-z][a-z0-9_]{0,63}$"' },
    ]);
  });

  it('a listing filtered by MaxCut is 400 and names the ids there are', async () => {
    const reply = await jes.alice.get('/job?problem_id=MaxCut');
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.detail).toBe(`The request does not match the API contract. ${told('MaxCut')}`);
  });
});
