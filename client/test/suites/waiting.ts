// Waiting for jobs against the real reference server by long polls (`stream: false`; the stream is suites/events.ts's):
// backoff when the long poll is not honoured, aborting, and a 429's Retry-After under the real rate limits of a server
// with a tiny quota.
import { describe, expect, it } from 'vitest';
import { createJesClient } from '../../src/index.ts';
import { recordingFetch, withHeader } from '../support/fetches.ts';
import { sixNodes } from '../support/graphs.ts';
import { type Servers, users } from '../support/processes.ts';

const jobGets = <E extends { method: string; path: string }>(exchanges: E[]) =>
  exchanges.filter((e) => e.method === 'GET' && e.path.startsWith('/job/'));

export function waitingSuite(servers: Servers): void {
  describe('waiting', () => {
    it('long-polls: a few requests for a job of half a second', async () => {
      const { fetch, exchanges } = recordingFetch();
      const client = createJesClient({ baseUrl: servers.main, username: 'alice', password: users.alice, fetch });
      const id = (await client.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 0.5 })).data!
        .id;
      expect((await client.waitForJob(id, { stream: false })).data?.status).toBe('FINISHED');
      const gets = jobGets(exchanges);
      expect(gets.every((e) => e.headers.get('preference-applied') === 'wait=30')).toBe(true);
      expect(gets.length).toBeLessThanOrEqual(3);
    });

    it('polls with a growing interval when the long poll is not honoured (a proxy dropped Prefer)', async () => {
      const { fetch, exchanges } = recordingFetch((request) => withHeader(request, 'prefer', undefined));
      const client = createJesClient({ baseUrl: servers.main, username: 'alice', password: users.alice, fetch });
      const id = (await client.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 1.2 })).data!
        .id;
      expect((await client.waitForJob(id, { stream: false, minIntervalMs: 50, maxIntervalMs: 400 })).data?.status).toBe(
        'FINISHED',
      );
      const gets = jobGets(exchanges);
      expect(gets.some((e) => e.headers.has('preference-applied'))).toBe(false);
      const gaps = gets.slice(1).map((e, i) => e.sentAt - gets[i]!.sentAt);
      // While RUNNING nothing changes: 50, 100, 200, 400, 400 ms … never a busy loop, never past the cap.
      expect(gets.length).toBeGreaterThanOrEqual(4);
      expect(gets.length).toBeLessThanOrEqual(14);
      expect(Math.max(...gaps)).toBeGreaterThanOrEqual(350);
      expect(Math.max(...gaps)).toBeLessThan(800);
    });

    it('stops when its signal aborts', async () => {
      const alice = createJesClient({ baseUrl: servers.main, username: 'alice', password: users.alice });
      const id = (await alice.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 20 })).data!
        .id;
      const waiting = alice.waitForJob(id, { signal: AbortSignal.timeout(300) });
      await expect(waiting).rejects.toMatchObject({ name: 'TimeoutError' });
      await alice.cancelJob(id);
    });

    it('waits Retry-After seconds after a 429, then carries on to the end of the job', async () => {
      const { fetch, exchanges } = recordingFetch();
      const limited = createJesClient({
        baseUrl: servers.rateLimited,
        username: 'alice',
        password: users.alice,
        fetch,
      });
      const id = (await limited.startJob('maxcut', sixNodes, { solvers: ['local-search'], timeLimitSeconds: 0.5 }))
        .data!.id;
      // Use up the quota, so that the first long poll is refused (the quota renews every 4 s: server.test.ts).
      let burnt = 0;
      while ((await limited.getJob(id)).error?.code !== 'rate_limited') expect(++burnt).toBeLessThan(10);

      const ended = await limited.waitForJob(id, { stream: false });
      expect(ended.data?.status).toBe('FINISHED');
      const polls = exchanges.filter((e) => e.path === `/job/${id}`).slice(burnt + 1);
      expect(polls[0]?.status).toBe(429);
      for (let i = 0; i < polls.length - 1; i++) {
        if (polls[i]!.status !== 429) continue;
        const retryAfter = Number(polls[i]!.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(polls[i + 1]!.sentAt - polls[i]!.sentAt).toBeGreaterThanOrEqual(retryAfter * 1000 - 20);
      }
      expect(polls.at(-1)?.status).toBe(200);
    });
  });
}
