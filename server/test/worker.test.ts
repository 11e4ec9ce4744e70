// The worker loop claims only what its threads can run: the rest of the queue stays PENDING, free for
// other workers (here: one thread, four queued jobs).
import { expect, it } from 'vitest';
import { randomMatrix } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer({ JES_WORKERS: '1' });

it('leaves queued executions unclaimed while its only thread is busy', async () => {
  const matrix = randomMatrix(30, 3);
  const ids = await Promise.all(
    [0, 1, 2, 3].map(() =>
      jes.alice.start({ num_nodes: 30, adj_matrix: matrix }, '?solver=local-search&time_limit_seconds=1'),
    ),
  );
  await new Promise((r) => setTimeout(r, 400));
  const statuses = await Promise.all(ids.map(async (id) => (await jes.alice.get(`/job/${id}`)).body.job[id].status));
  expect(statuses.filter((s) => s === 'RUNNING')).toHaveLength(1);
  expect(statuses.filter((s) => s === 'PENDING')).toHaveLength(3);
  for (const id of ids) expect((await jes.alice.waitFor(id)).status).toBe('FINISHED');
});
