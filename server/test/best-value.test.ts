// An execution keeps its best value once it has ended (contract 1.4.0; issue 13: `jes jobs` showed "-" as the
// best cut of every finished job, as listings carry no data and best_value was only given while RUNNING; and a
// cancelled job lost the best cut it had found). A success's best value is its result's cut; a cancelled one's
// is the best the solver found before it stopped.
import { expect, it } from 'vitest';
import { randomMatrix, sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

it("a finished job shows each execution's best value, its cut, in the job and in the listing", async () => {
  const id = await jes.alice.start(sixNodes, '?solver=exact&solver=local-search&time_limit_seconds=0.2');
  expect((await jes.alice.waitFor(id)).status).toBe('FINISHED');
  const outputs = (await jes.alice.get(`/job/${id}/output`)).body.outputs;
  const job = (await jes.alice.get(`/job/${id}`)).body.job[id];
  const listed = (await jes.alice.get('/job')).body.job[id];
  for (const solver of ['exact', 'local-search']) {
    expect(outputs[solver].cut_value).toBe(53);
    expect(job.executions[solver]).toMatchObject({ status: 'SUCCESS', best_value: 53 });
    expect(listed.executions[solver]).toMatchObject({ status: 'SUCCESS', best_value: 53 });
    expect(listed.executions[solver].data).toBeUndefined();
    expect(listed.executions[solver].progress).toBeUndefined();
  }
});

it('a job cancelled after progress keeps the best value its solver found', async () => {
  const graph = { num_nodes: 300, adj_matrix: randomMatrix(300, 7) };
  const id = await jes.alice.start(graph, '?solver=local-search&time_limit_seconds=60');
  // Wait (by attempts, not by time) until the running solver has reported a best cut.
  let running: any;
  for (let i = 0; i < 600 && running?.best_value === undefined; i++) {
    await new Promise((r) => setTimeout(r, 100));
    running = (await jes.alice.get(`/job/${id}`)).body.job[id].executions['local-search'];
  }
  expect(running).toMatchObject({ status: 'RUNNING', best_value: expect.any(Number) });
  expect((await jes.alice.post(`/job/${id}/cancel`)).status).toBe(202);
  const ended = (await jes.alice.waitFor(id)).executions['local-search'];
  expect(ended.status).toBe('CANCELLED');
  expect(ended.progress).toBeUndefined();
  // The solver only ever improves on its best: what it kept is at least what was seen while it ran.
  expect(ended.best_value).toBeGreaterThanOrEqual(running.best_value);
  expect((await jes.alice.get('/job?status=CANCELLED')).body.job[id].executions['local-search'].best_value).toBe(
    ended.best_value,
  );
  expect((await jes.alice.get(`/job/${id}/output`)).body.outputs).toEqual({ 'local-search': null });
});
