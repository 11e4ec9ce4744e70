// QUBO end to end on the reference server (issue 14): the use case is listed and described as the contract says,
// its example runs with each of its solvers to the minimum energy -11, a .qubo data file gives the same answer,
// each use case's path takes its own body only (400 with pointers), a data file stays with its use case (422), and
// exact refuses more than 32 variables. Real server, real database, real worker threads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectProblem } from './support/problems.ts';
import { sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
const example = contract.components.examples.QuboInput.value as { num_variables: number; q_matrix: number[][] };
const quboFile = contract.paths['/data_file'].post.requestBody.content['multipart/form-data'].examples.qubo.value
  .file as string;

const jes = sharedServer();

const energy = (q: number[][], x: number[]) =>
  q.reduce((sum, row, i) => sum + row.reduce((s, v, j) => s + v * x[i]! * x[j]!, 0), 0);

const upload = (text: string, name: string) => jes.alice.upload(text, name, 'qubo');

describe('the QUBO use case', () => {
  it('is listed beside max cut and described as the contract says', async () => {
    expect((await jes.alice.get('/problem')).body.ids).toEqual(['maxcut', 'qubo']);
    // The example abbreviates the schemas; everything else is as documented.
    const { input_schema, output_schema, ...rest } = (await jes.alice.get('/problem/qubo')).body;
    const { input_schema: _in, output_schema: _out, ...documented } = contract.components.examples.QuboUseCase.value;
    expect(rest).toEqual(documented);
    expect(input_schema.required).toEqual(['num_variables', 'q_matrix']);
    expect(output_schema.required).toEqual(['energy', 'assignment', 'optimal']);
  });

  it('runs the example with each solver to the minimum energy -11, recomputed from the assignment', async () => {
    const started = await jes.alice.post(
      '/problem/qubo?solver=exact&solver=annealing&solver=local-search&time_limit_seconds=1',
      example,
    );
    expect(started.status).toBe(200);
    const job = await jes.alice.waitFor(started.body.job);
    expect(job).toMatchObject({ status: 'FINISHED', problem_id: 'qubo' });
    for (const [solver, execution] of Object.entries<any>(job.executions)) {
      expect(execution.status, solver).toBe('SUCCESS');
      expect(execution.data.energy).toBe(-11);
      expect(execution.data.assignment).toEqual([1, 0, 0, 1]);
      expect(energy(example.q_matrix, execution.data.assignment)).toBe(execution.data.energy);
      expect(execution.best_value).toBe(-11);
    }
    expect(job.executions.exact.data).toMatchObject({ optimal: true, lower_bound: -11 });
  });

  it('runs exact by default on a small input, and reads a .qubo data file to the same answer', async () => {
    const uploaded = await upload(quboFile, 'four-variables.qubo');
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.data_file_identifier;
    expect(await jes.alice.validated(id)).toMatchObject({ status: 'READY', format: 'qubo', num_nodes: 4 });
    const started = await jes.alice.post('/problem/qubo', { data_file_identifier: id });
    const job = await jes.alice.waitFor(started.body.job);
    expect(Object.keys(job.executions)).toEqual(['exact']);
    expect(job.executions.exact.data).toMatchObject({ energy: -11, assignment: [1, 0, 0, 1], optimal: true });
  });

  it('keeps a data file with its use case: a QUBO file on /problem/maxcut is 422 data_file_problem_mismatch', async () => {
    const id = (await upload(quboFile, 'four-variables.qubo')).body.data_file_identifier;
    const reply = await jes.alice.post('/problem/maxcut', { data_file_identifier: id });
    expectProblem(reply, 422, 'data_file_problem_mismatch');
  });

  it('tells an invalid .qubo file where it is wrong', async () => {
    const id = (await upload('p qubo 0 2 1 1\n0 0 1\n', 'short.qubo')).body.data_file_identifier;
    const record = await jes.alice.validated(id);
    expect(record.status).toBe('INVALID');
    expect(record.error.code).toBe('data_file_invalid');
  });

  it('ties each body to its path: a QUBO body on /problem/maxcut and a max-cut body on /problem/qubo are 400', async () => {
    const crossed = [
      ['/problem/maxcut', example],
      ['/problem/qubo', sixNodes],
    ] as const;
    for (const [path, body] of crossed) {
      const reply = await jes.alice.post(path, body);
      expectProblem(reply, 400, 'invalid_request');
      expect(reply.body.errors.length, path).toBeGreaterThan(0);
    }
  });

  it('refuses a matrix that is not square with the pointers of the contract example (422 invalid_input)', async () => {
    const documented =
      contract.components.responses.StartJobRefused.content['application/problem+json'].examples.qubo_invalid_input
        .value;
    const q = example.q_matrix.map((row, i) => (i === 2 ? row.slice(0, 3) : row));
    const reply = await jes.alice.post('/problem/qubo', { num_variables: 4, q_matrix: q });
    expectProblem(reply, 422, 'invalid_input');
    expect(reply.body).toMatchObject({ detail: documented.detail, errors: documented.errors });
  });

  it('ends exact on 33 variables in ERROR solver_limit_exceeded', async () => {
    const n = 33;
    const q = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? -1 : 0)));
    const started = await jes.alice.post('/problem/qubo?solver=exact', { num_variables: n, q_matrix: q });
    const job = await jes.alice.waitFor(started.body.job);
    expect(job.executions.exact.error.code).toBe('solver_limit_exceeded');
  });

  it('does not take a use case through a percent-encoded id on the templated path', async () => {
    const reply = await jes.alice.post('/problem/%71ubo', example);
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body.errors).toEqual([
      { pointer: '/path/problem_id', detail: "write the use case's id as it is: /problem/qubo" },
    ]);
  });
});
