// A running job's answer to GET /job/{id} is kept for the millisecond it was made in (jobs/views.ts): its
// executions' durations are given to the millisecond, so the next millisecond's answer is made anew. In a file of its
// own, in the clock set (test/clock/set.ts): it injects the clock, at instants taken from the job's own timestamps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobEvents } from '../src/jobs/events.ts';
import { JobViews } from '../src/jobs/views.ts';
import { randomMatrix } from './support/server.ts';
import { sharedServer } from './support/shared-server.ts';

describe('JobViews of a running job', () => {
  const jes = sharedServer({ JES_WORKERS: '1' });
  const events = new JobEvents();
  beforeAll(() => events.start(jes.server.db));
  afterAll(() => events.stop());

  // A running job's answer depends on the clock through its executions' durations, given to the millisecond: the
  // answer of the same view in the same millisecond is kept (the same frozen object), and the next millisecond's
  // is made anew. The clock is injected, and only at instants taken from the job's own timestamps: a fixed date
  // (2026-11-24T23:30:00.123Z once) is before a job started on any later day, and a negative duration is 0.
  it("keeps a running job's answer for the millisecond it was made in, and makes the next one anew", async () => {
    const id = await jes.alice.start(
      { num_nodes: 30, adj_matrix: randomMatrix(30, 2) },
      '?solver=local-search&time_limit_seconds=30',
    );
    try {
      const views = new JobViews(events);
      let view = await views.read(jes.server.db, 'alice', id);
      for (let i = 0; i < 200 && view?.job.status !== 'RUNNING'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        view = await views.read(jes.server.db, 'alice', id);
      }
      expect(view?.job.status).toBe('RUNNING');
      const running = view!.executions.find((e) => e.solver === 'local-search')!.running_at!;
      const at = running.getTime() + 1_500;
      const first = views.answer(view!, new Date(at));
      const duration = (answer: typeof first) => answer.job[id]!.executions['local-search']!.duration_seconds!;
      expect(views.answer(view!, new Date(at))).toBe(first);
      expect(Object.isFrozen(first.job[id]!.executions['local-search'])).toBe(true);
      const next = views.answer(view!, new Date(at + 1));
      expect(next).not.toBe(first);
      expect(Math.round((duration(next) - duration(first)) * 1000)).toBe(1);
    } finally {
      await jes.alice.request('POST', `/job/${id}/cancel`);
    }
  });
});
