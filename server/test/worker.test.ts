// The worker loop claims only what its threads can run: the rest of the queue stays PENDING, free for
// other workers (here: one thread, four queued jobs).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Running } from '../src/start/main.ts';
import { Client, randomMatrix, startTestServer } from './support/server.ts';

let server: Running;
let alice: Client;

beforeAll(async () => {
  server = await startTestServer({ JES_WORKERS: '1' });
  alice = await new Client(server.url).login('alice');
});
afterAll(async () => server?.close());

it('leaves queued executions unclaimed while its only thread is busy', async () => {
  const matrix = randomMatrix(30, 3);
  const ids = await Promise.all(
    [0, 1, 2, 3].map(() =>
      alice.start({ num_nodes: 30, adj_matrix: matrix }, '?solver=local-search&time_limit_seconds=1'),
    ),
  );
  await new Promise((r) => setTimeout(r, 400));
  const statuses = await Promise.all(ids.map(async (id) => (await alice.get(`/job/${id}`)).body.job[id].status));
  expect(statuses.filter((s) => s === 'RUNNING')).toHaveLength(1);
  expect(statuses.filter((s) => s === 'PENDING')).toHaveLength(3);
  for (const id of ids) expect((await alice.waitFor(id)).status).toBe('FINISHED');
});
