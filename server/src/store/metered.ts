// Every statement this process sends, timed and counted in one place: the database handle wrapped, its
// transactions' statements included. The handle carries the process's metrics on to the store's functions
// (`metrics` of Queryable), so that what ends a job counts it where it happens, in whichever process; what a
// transaction counts is counted once it commits (a transaction rolled back and tried again counts once).
import type { JobMetrics } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Database, Queryable } from './database.ts';
import { isTransient } from './transient.ts';

export function metered(db: Database, metrics: Metrics): Database {
  const { store } = metrics;
  const timed = async <T>(send: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await send();
    } catch (error) {
      if (isTransient(error)) store.transientError();
      throw error;
    } finally {
      store.query((performance.now() - started) / 1000);
    }
  };
  const wrap =
    (q: Queryable): Queryable['query'] =>
    (sql, params) =>
      timed(() => q.query(sql, params));
  return {
    kind: db.kind,
    pool: db.pool,
    metrics,
    query: wrap(db),
    bytes: (sql, params) => timed(() => db.bytes(sql, params)),
    async transaction(fn) {
      const counts: (() => void)[] = [];
      const result = await db.transaction((tx) => fn({ query: wrap(tx), metrics: afterCommit(metrics, counts) }));
      for (const count of counts) count();
      return result;
    },
    listen: (channel, fn, onResync) => db.listen(channel, fn, onResync),
    notifications: () => db.notifications(),
    close: () => db.close(),
  };
}

/** `metrics` whose job counts wait in `counts` until the transaction commits. */
function afterCommit(metrics: Metrics, counts: (() => void)[]): Metrics {
  const jobs = Object.fromEntries(
    Object.entries(metrics.jobs).map(([name, count]: [string, (...args: never[]) => void]) => [
      name,
      (...args: never[]) => void counts.push(() => count(...args)),
    ]),
  ) as unknown as JobMetrics;
  return { ...metrics, jobs };
}
