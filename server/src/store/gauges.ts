// What a scrape reads from the database (metrics/store.ts caches it for a second): jobs by status, and the
// queue's depth and the age of its oldest PENDING execution. The queue is read from its own partial index
// (executions_queue), the counts by status from the table: with 10,000 jobs, see docs/metrics.md for the cost.
import type { StoreState } from '../metrics/store.ts';
import type { Queryable } from './database.ts';

export async function storeState(db: Queryable): Promise<StoreState> {
  const [jobs, [queue]] = await Promise.all([
    db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM jobs GROUP BY status'),
    db.query<{ depth: number; oldest: number | null }>(
      `SELECT count(*)::int AS depth, extract(epoch FROM now() - min(created_at))::float8 AS oldest
         FROM executions WHERE status = 'PENDING'`,
    ),
  ]);
  return {
    jobs: Object.fromEntries(jobs.map((row) => [row.status, row.n])),
    queueDepth: queue?.depth ?? 0,
    oldestPendingSeconds: Math.max(0, queue?.oldest ?? 0),
  };
}
