// Durations in seconds are given to the millisecond in every answer (issue 13: `time_to_best_seconds:
// 0.00010352400000010675`): an execution's duration_seconds, its result's time_to_best_seconds (GET /job and
// GET /job/{id}/output) and /healthz's uptime_seconds.
import { expect, it } from 'vitest';
import { expectMilliseconds } from '../../test/support/durations.ts';
import { randomMatrix, sixNodes } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer();

it('gives durations and times to the best cut to the millisecond, in the job, its listing and its output', async () => {
  const graph = { num_nodes: 40, adj_matrix: randomMatrix(40, 13) };
  const ids = [
    await jes.alice.start(sixNodes, '?solver=exact&solver=local-search&time_limit_seconds=0.2'),
    await jes.alice.start(graph, '?solver=annealing&solver=local-search&time_limit_seconds=0.3'),
  ];
  for (const id of ids) {
    const ended = await jes.alice.waitFor(id);
    expect(ended.status).toBe('FINISHED');
    // duration_seconds of each execution, and time_to_best_seconds of each result.
    expectMilliseconds((await jes.alice.get(`/job/${id}`)).body, 2 * Object.keys(ended.executions).length);
    expectMilliseconds((await jes.alice.get(`/job/${id}/output`)).body, Object.keys(ended.executions).length);
  }
  expectMilliseconds((await jes.alice.get('/job')).body, 4);
});

it('gives the uptime to the millisecond', async () => {
  expectMilliseconds((await jes.alice.get('/healthz')).body, 1);
});
