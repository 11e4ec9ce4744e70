// A running job's stream: `progress` events as the solver finds better values, each better than the last of its
// execution, and the progress history in GET /job/{id} and the `end` event (not in listings), bounded by the
// contract's 256 points, each a first moment (seconds rising, values improving).
import { expect, it } from 'vitest';
import { maxProgressPoints } from '@jes/contract';
import { randomMatrix } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';
import { openStream } from './support/event-stream.ts';

const jes = sharedServer();

it('sends progress events while the job runs and ends with its progress history', async () => {
  const matrix = randomMatrix(400, 7);
  const id = await jes.alice.start(
    { num_nodes: matrix.length, adj_matrix: matrix },
    '?solver=local-search&solver=annealing&time_limit_seconds=3',
  );
  const stream = await openStream(jes.url, `/job/${id}/events`, jes.alice.token);
  const events = await stream.rest();
  const end = events.at(-1)!;
  expect(end.event).toBe('end');
  const progress = events.filter((e) => e.event === 'progress');
  expect(progress.length).toBeGreaterThan(0);
  for (const solver of ['local-search', 'annealing']) {
    const mine = progress.filter((e) => e.data.solver === solver);
    // A maximum cut: each event's value is better (larger) than the one before, found later.
    for (let i = 1; i < mine.length; i++) {
      expect(mine[i]!.data.best_value).toBeGreaterThan(mine[i - 1]!.data.best_value);
      expect(mine[i]!.data.seconds).toBeGreaterThanOrEqual(mine[i - 1]!.data.seconds);
    }
    for (const e of mine) expect(e.data.progress).toBeGreaterThanOrEqual(0);
    const execution = end.data.job[id].executions[solver];
    const history = execution.progress_history;
    expect(history.length).toBeGreaterThan(0);
    expect(history.length).toBeLessThanOrEqual(maxProgressPoints);
    for (let i = 1; i < history.length; i++) {
      expect(history[i].seconds).toBeGreaterThanOrEqual(history[i - 1].seconds);
      expect(history[i].best_value).toBeGreaterThan(history[i - 1].best_value);
    }
    // The last point is the best found: the result's.
    expect(history.at(-1).best_value).toBe(execution.best_value);
    // Every progress event's value is one the history holds or held (thinning keeps first and last).
    if (mine.length) expect(mine.at(-1)!.data.best_value).toBeLessThanOrEqual(execution.best_value);
  }
  // Events come in order: all progress of an execution before its end, and the job's RUNNING before any progress.
  const running = events.findIndex((e) => e.event === 'status' && e.data.status === 'RUNNING');
  expect(running).toBeGreaterThanOrEqual(0);
  expect(events.findIndex((e) => e.event === 'progress')).toBeGreaterThan(running);
  // GET /job/{id} carries it too; the listing does not.
  expect((await jes.alice.get(`/job/${id}`)).body).toEqual(end.data);
  const listed = (await jes.alice.get('/job')).body.job[id];
  for (const execution of Object.values<any>(listed.executions)) expect(execution.progress_history).toBeUndefined();
});
