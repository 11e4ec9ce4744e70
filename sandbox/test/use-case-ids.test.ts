// The use cases are contract data (listProblems' `ids`), not state: the sandbox refuses any other id as a
// deployment does (issue 13: it served the maxcut record for GET /problem/tsp and started a job for
// POST /problem/MaxCut), with the reference server's words (server/test/use-case-ids.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/server.ts';
import { bearer, edgeList, form, graph, json, startedSandbox, upload } from './support/hostile-requests.ts';

let sandbox: Sandbox;
let call: Awaited<ReturnType<typeof startedSandbox>>['call'];
beforeAll(async () => ({ sandbox, call } = await startedSandbox()));
afterAll(() => sandbox?.close());

const told = (id: string) => `Use case "${id}" does not exist; the use cases are: maxcut, qubo.`;

describe('an unknown use case in the path is 404 problem_not_found, with the ids there are', () => {
  it.each(['MaxCut', 'max-cut', 'tsp', 'Max%20Cut'])('GET /problem/%s', async (id) => {
    const answer = await call('GET', `/problem/${id}`, { headers: bearer });
    expect([answer.status, answer.body.code, answer.body.detail]).toEqual([
      404,
      'problem_not_found',
      told(decodeURIComponent(id)),
    ]);
  });

  it.each([
    ['a valid graph', { headers: json, body: graph }],
    ['a body that breaks the contract', { headers: json, body: '{"num_nodes": "6"}' }],
    ['an empty body', { headers: json, body: '' }],
    ['malformed JSON', { headers: json, body: '{"num_nodes": 6,' }],
    [
      'a form, as curl -d sends it',
      { headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' }, body: 'num_nodes=6' },
    ],
  ])('POST /problem/MaxCut with %s', async (_what, sent) => {
    const answer = await call('POST', '/problem/MaxCut', sent);
    expect([answer.status, answer.body.code, answer.body.detail]).toEqual([404, 'problem_not_found', told('MaxCut')]);
  });

  it('is 401 without a token, as every operation is (the path has one)', async () => {
    const answer = await call('POST', '/problem/MaxCut', {
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect([answer.status, answer.body.code]).toEqual([401, 'missing_token']);
  });

  it('serves the use cases the contract lists, each at its own path', async () => {
    expect((await call('GET', '/problem', { headers: bearer })).body.ids).toEqual(['maxcut', 'qubo']);
    expect((await call('GET', '/problem/maxcut', { headers: bearer })).body.id).toBe('maxcut');
    expect((await call('GET', '/problem/qubo', { headers: bearer })).body.id).toBe('qubo');
  });

  it('starts a QUBO job at /problem/qubo as a max-cut job at /problem/maxcut', async () => {
    const qubo = '{"num_variables": 2, "q_matrix": [[-1, 2], [0, -1]]}';
    const started = await call('POST', '/problem/qubo', { headers: json, body: qubo });
    expect([started.status, started.body.job]).toEqual([200, 'K7Q2M9X4TB1R']);
    expect((await call('POST', '/problem/maxcut', { headers: json, body: graph })).status).toBe(200);
  });
});

describe('an unknown use case elsewhere', () => {
  const uploadFor = (problemId: string) =>
    form([
      { name: 'file', filename: 'g.txt', value: edgeList },
      { name: 'problem_id', value: problemId },
      { name: 'name', value: 'g.txt' },
    ]);

  it('an upload for an id of the documented shape is 404 problem_not_found', async () => {
    const answer = await call('POST', '/data_file', uploadFor('tsp'));
    expect([answer.status, answer.body.code, answer.body.detail]).toEqual([404, 'problem_not_found', told('tsp')]);
    expect((await call('POST', '/data_file', upload({ filename: 'g.txt', value: edgeList }))).status).toBe(201);
  });

  it('an upload for MaxCut is 400 (the field keeps its pattern) and names the ids there are', async () => {
    const answer = await call('POST', '/data_file', uploadFor('MaxCut'));
    expect([answer.status, answer.body.code, answer.body.detail]).toEqual([
      400,
      'invalid_request',
      `The request does not match the API contract. ${told('MaxCut')}`,
    ]);
    expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/problem_id']);
  });

  it('a listing filtered by MaxCut is 400 and names the ids there are', async () => {
    const answer = await call('GET', '/job?problem_id=MaxCut', { headers: bearer });
    expect([answer.status, answer.body.detail]).toEqual([
      400,
      `The request does not match the API contract. ${told('MaxCut')}`,
    ]);
  });
});
