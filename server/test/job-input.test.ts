// getJobInput: a job's input read back as it was started. Inline, the bytes sent when they were stored as sent,
// or the same problem written out again from the service's compact form (a max-cut graph, a QUBO with its
// couplings in the upper triangle: the same energy for every assignment); from a data file, its bytes as
// uploaded with the content type of its format. Another user's job, or a deleted data file, is a 404.
import { describe, expect, it } from 'vitest';
import { expectProblem } from './support/problems.ts';
import { Client, sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer({}, { users: ['alice', 'bob'] });

/** The raw answer: its status, content type and text. */
async function input(client: Client, id: string) {
  const res = await fetch(`${jes.url}/job/${id}/input`, { headers: { authorization: `Bearer ${client.token}` } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** A symmetric n×n matrix, mostly zeros, in JSON padded with spaces: longer than the service's compact form. */
function sparseBody(n: number): { body: string; matrix: number[][] } {
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i + 1 < n; i++) matrix[i]![i + 1] = matrix[i + 1]![i] = (i % 7) + 1;
  const rows = matrix.map((row) => `[${row.join(',   ')}]`);
  return { body: `{"num_nodes": ${n}, "adj_matrix": [${rows.join(',\n  ')}]}`, matrix };
}

describe('GET /job/{job_id}/input', () => {
  it('answers an inline input stored as sent with the very bytes sent', async () => {
    // Its members in the other order: the compact form written out again would put num_nodes first.
    const body = JSON.stringify({ adj_matrix: sixNodes.adj_matrix, num_nodes: sixNodes.num_nodes });
    const started = await jes.alice.request('POST', '/problem/maxcut', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    const answer = await input(jes.alice, started.body.job);
    expect(answer).toMatchObject({ status: 200, text: body });
    expect(answer.type).toMatch(/^application\/json/);
  });

  it('writes a max-cut input kept in compact form out again as the same graph', async () => {
    const { body, matrix } = sparseBody(120);
    const started = await jes.alice.request('POST', '/problem/maxcut', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    const answer = await input(jes.alice, started.body.job);
    expect(answer.status).toBe(200);
    // Not the bytes sent (so the compact form was read), but the same graph.
    expect(answer.text).not.toBe(body);
    expect(JSON.parse(answer.text)).toEqual({ num_nodes: 120, adj_matrix: matrix });
  });

  it('writes a QUBO kept in compact form out again with the same energy for every assignment', async () => {
    const q = [
      [-5, 2, 4, 0],
      [2, -3, 1, 0],
      [0, 1, -8, 5],
      [0, 0, 0, -6],
    ];
    const body = `{"num_variables": 4, "q_matrix": [${q.map((r) => `[${r.join(',' + ' '.repeat(60))}]`).join(',')}]}`;
    const started = await jes.alice.request('POST', '/problem/qubo', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(started.status).toBe(200);
    const answer = await input(jes.alice, started.body.job);
    expect(answer.text).not.toBe(body);
    const back = JSON.parse(answer.text) as { num_variables: number; q_matrix: number[][] };
    expect(back.num_variables).toBe(4);
    const energy = (m: number[][], x: number[]) =>
      m.reduce((s, row, i) => s + row.reduce((t, v, j) => t + v * x[i]! * x[j]!, 0), 0);
    for (let bits = 0; bits < 16; bits++) {
      const x = [0, 1, 2, 3].map((i) => (bits >> i) & 1);
      expect(energy(back.q_matrix, x), `x = ${x}`).toBe(energy(q, x));
    }
    // The couplings gathered in the upper triangle.
    expect(back.q_matrix[2]![1]).toBe(0);
    expect(back.q_matrix[1]![2]).toBe(2);
  });

  it("answers a data file's bytes as uploaded, as text for an edge list, and 404 once the file is deleted", async () => {
    const text = '3 2\n1 2 5\n2 3 1\n';
    const uploaded = await jes.alice.upload(text, 'three.txt');
    const fileId = uploaded.body.data_file_identifier;
    await jes.alice.validated(fileId);
    const id = (await jes.alice.post('/problem/maxcut', { data_file_identifier: fileId })).body.job;
    const answer = await input(jes.alice, id);
    expect(answer).toMatchObject({ status: 200, text });
    expect(answer.type).toMatch(/^text\/plain/);
    await jes.alice.waitFor(id);
    expect((await jes.alice.request('DELETE', `/data_file/${fileId}`)).status).toBe(204);
    expectProblem(await jes.alice.get(`/job/${id}/input`), 404, 'data_file_not_found');
  });

  it("is 404 for another user's job or an unknown one, and 401 without a token", async () => {
    const id = await jes.alice.start(sixNodes);
    expectProblem(await jes.bob.get(`/job/${id}/input`), 404, 'job_not_found');
    expectProblem(await jes.alice.get('/job/ZZZZZZZZZZZZ/input'), 404, 'job_not_found');
    expectProblem(await new Client(jes.url).get(`/job/${id}/input`), 401, 'missing_token');
  });
});
