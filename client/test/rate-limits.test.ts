// Waiting under the reference server's real rate limits (spawned with a tiny `default` quota): a 429
// is not the answer, its Retry-After is waited out before asking again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJesClient } from '../src/index.ts';
import { recordingFetch } from './support/fetches.ts';
import { sixNodes } from './support/graphs.ts';
import { type Started, startServer, users } from './support/processes.ts';

let server: Started;

beforeAll(async () => {
  server = await startServer({ JES_RATE_LIMITS: 'default=2/2' });
});
afterAll(() => server?.stop());

it('waits Retry-After seconds after a 429, then carries on to the end of the job', async () => {
  const { fetch, exchanges } = recordingFetch();
  const alice = createJesClient({ baseUrl: server.url, username: 'alice', password: users.alice, fetch });
  const id = (await alice.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 0.5 })).data!.id;
  // Use up the quota, so that the first long poll is refused (the quota renews every 2 s).
  let burnt = 0;
  while ((await alice.getJob(id)).error?.code !== 'rate_limited') expect(++burnt).toBeLessThan(10);

  const ended = await alice.waitForJob(id);
  expect(ended.data?.status).toBe('FINISHED');
  const polls = exchanges.filter((e) => e.path === `/job/${id}`).slice(burnt + 1);
  const limited = polls.findIndex((e) => e.status === 429);
  expect(limited).toBe(0);
  for (let i = 0; i < polls.length - 1; i++) {
    if (polls[i]!.status !== 429) continue;
    const retryAfter = Number(polls[i]!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(polls[i + 1]!.sentAt - polls[i]!.sentAt).toBeGreaterThanOrEqual(retryAfter * 1000 - 20);
  }
  expect(polls.at(-1)?.status).toBe(200);
});
