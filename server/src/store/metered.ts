// Every statement this process sends, timed and counted in one place: the database handle wrapped, its
// transactions' statements included. The handle carries the process's metrics on to the store's functions
// (`metrics` of Queryable), so that what ends a job counts it where it happens, in whichever process.
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
    transaction: (fn) => db.transaction((tx) => fn({ query: wrap(tx), metrics })),
    listen: (channel, fn, onResync) => db.listen(channel, fn, onResync),
    notifications: () => db.notifications(),
    close: () => db.close(),
  };
}
