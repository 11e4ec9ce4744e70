// A use case's largest input, max_nodes (issue 27, 5): a 22-byte data file `p qubo 0 10000000 0 0` was READY with
// 10 million variables, and each read of its job's 20 MB answer held the main thread for most of a second. Every
// form of input is now held to the use case's max_nodes (100,000) and refused past it with the existing codes:
// inline 422 invalid_input, a data file INVALID (data_file_invalid) with a pointer to its size; and a header
// declaring more lines than a data file can hold is refused too. Real server, real database, real worker threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../src/start/main.ts';
import { maxDataFileBytes, maxNodes } from '../../contract/src/inputs/maxcut/limits.ts';
import { maxVariables } from '../../contract/src/inputs/qubo/limits.ts';
import { expectProblem } from './support/problems.ts';
import { Client, startTestServer } from './support/server.ts';

let server: Running;
let alice: Client;
beforeAll(async () => {
  server = await startTestServer();
  alice = await new Client(server.url).login('alice');
});
afterAll(async () => server?.close());

/** Uploads `text` as a data file of `problemId` and waits for its validation; returns its record. */
async function validated(problemId: 'maxcut' | 'qubo', text: string): Promise<any> {
  const form = new FormData();
  form.set('file', new Blob([text]), 'file.txt');
  form.set('problem_id', problemId);
  form.set('name', 'file.txt');
  const uploaded = await alice.request('POST', '/data_file', { body: form });
  expect(uploaded.status).toBe(201);
  return alice.validated(uploaded.body.data_file_identifier);
}

/** The most lines "i j w" a data file can hold, and one more. */
const tooManyLines = Math.floor((maxDataFileBytes + 1) / 6) + 1;

describe('max_nodes', () => {
  it('is on each use case’s record: 100,000 nodes for maxcut, 100,000 variables for qubo', async () => {
    expect((await alice.get('/problem/maxcut')).body.max_nodes).toBe(100_000);
    expect((await alice.get('/problem/qubo')).body.max_nodes).toBe(100_000);
    expect([maxNodes, maxVariables]).toEqual([100_000, 100_000]);
  });

  it.each([
    ['maxcut', 'an edge list', `${maxNodes} 0\n`, 'edge_list'],
    ['qubo', 'a .qubo file', `p qubo 0 ${maxVariables} 0 0\n`, 'qubo'],
  ] as const)('%s takes %s of exactly max_nodes', async (problemId, _, text, format) => {
    expect(await validated(problemId, text)).toMatchObject({ status: 'READY', format, num_nodes: 100_000 });
  });

  it.each([
    [
      'maxcut',
      'an edge list of max_nodes + 1',
      `${maxNodes + 1} 0\n`,
      '/line/1',
      '100001 nodes is more than the 100000 a graph may have',
    ],
    [
      'maxcut',
      'a JSON file of max_nodes + 1',
      `{"num_nodes": ${maxNodes + 1}, "adj_matrix": [[0]]}`,
      '/num_nodes',
      '100001 nodes is more than the 100000 a graph may have',
    ],
    [
      'qubo',
      'a .qubo file of max_nodes + 1',
      `c a comment\np qubo 0 ${maxVariables + 1} 0 0\n`,
      '/line/2',
      '100001 variables is more than the 100000 a QUBO may have',
    ],
    [
      'qubo',
      'a JSON file of max_nodes + 1',
      `{"q_matrix": [[0]], "num_variables": ${maxVariables + 1}}`,
      '/num_variables',
      '100001 variables is more than the 100000 a QUBO may have',
    ],
    [
      'maxcut',
      'the finding’s edge list (10,000,000 nodes)',
      '10000000 0',
      '/line/1',
      '10000000 nodes is more than the 100000 a graph may have',
    ],
    [
      'qubo',
      'the finding’s .qubo file (10,000,000 variables)',
      'p qubo 0 10000000 0 0',
      '/line/1',
      '10000000 variables is more than the 100000 a QUBO may have',
    ],
  ] as const)('%s refuses %s: INVALID, pointing at its size', async (problemId, _, text, pointer, detail) => {
    const record = await validated(problemId, text);
    expect(record).toMatchObject({ status: 'INVALID', num_nodes: null });
    expect(record.error).toMatchObject({ code: 'data_file_invalid', errors: [{ pointer, detail }] });
  });

  it.each([
    ['maxcut', `2 ${tooManyLines}\n`, `${tooManyLines} edges`, '"i j w"'],
    ['qubo', `p qubo 0 ${maxVariables} 0 ${tooManyLines}\n`, `nDiagonals + nElements ${tooManyLines}`, '"i j value"'],
  ] as const)(
    '%s refuses a header declaring more lines than a data file can hold',
    async (problemId, text, what, line) => {
      const record = await validated(problemId, text);
      expect(record).toMatchObject({ status: 'INVALID' });
      expect(record.error.errors).toEqual([
        {
          pointer: '/line/1',
          detail: `${what} is more than a data file of at most ${maxDataFileBytes} bytes can hold (at most ${tooManyLines - 1} lines ${line})`,
        },
      ]);
    },
  );

  it.each([
    ['maxcut', { num_nodes: maxNodes + 1, adj_matrix: [[0]] }, '/num_nodes', '100001 nodes', 'a graph'],
    ['qubo', { num_variables: maxVariables + 1, q_matrix: [[0]] }, '/num_variables', '100001 variables', 'a QUBO'],
  ] as const)(
    '%s refuses an inline input of max_nodes + 1: 422 invalid_input',
    async (problemId, body, pointer, size, what) => {
      const reply = await alice.post(`/problem/${problemId}`, body);
      expectProblem(reply, 422, 'invalid_input');
      expect(reply.body.errors).toEqual([{ pointer, detail: `${size} is more than the 100000 ${what} may have` }]);
    },
  );
});
