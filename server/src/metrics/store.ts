// The database as this process uses it: every statement it sends and how long each took, the transient failures
// (store/transient.ts), the pool's connections and the reconnects of the notifications connection. And the
// shared state read at scrape time: jobs by status, the queue's depth and the age of its oldest PENDING execution.
// Those come from one cached read (cached.ts): the same numbers from every process on the same database.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { cachedRead } from './cached.ts';

export interface StoreMetrics {
  /** A statement answered or failed after `seconds`. */
  query(seconds: number): void;
  transientError(): void;
  notificationsReconnected(): void;
}

/** What a scrape reads from the database (store/gauges.ts). */
export interface StoreState {
  jobs: Record<string, number>;
  queueDepth: number;
  /** Seconds since the oldest PENDING execution was created; 0 when none waits. */
  oldestPendingSeconds: number;
}

export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

export interface StoreSources {
  state(): Promise<StoreState>;
  /** PostgreSQL's pool in this process; undefined on the embedded database, which has none. */
  pool?: (() => PoolState) | undefined;
}

export function storeMetrics(registers: Registry[]): StoreMetrics {
  const queries = new Counter({
    name: 'jes_db_queries_total',
    help: 'Statements this process sent to the database (BEGIN and COMMIT of a transaction not counted)',
    registers,
  });
  const duration = new Histogram({
    name: 'jes_db_query_duration_seconds',
    help: 'Time from sending a statement to its answer, as this process saw it',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const transient = new Counter({
    name: 'jes_db_transient_errors_total',
    help: 'Statements that failed for a reason worth another try (connection lost, lock or serialisation conflict)',
    registers,
  });
  const reconnects = new Counter({
    name: 'jes_notification_reconnects_total',
    help: 'Times the database notifications (LISTEN) connection came back after it was lost',
    registers,
  });
  return {
    query(seconds) {
      queries.inc();
      duration.observe(seconds);
    },
    transientError: () => transient.inc(),
    notificationsReconnected: () => reconnects.inc(),
  };
}

/** The job statuses always reported (0 when none), so that a status's series does not come and go. */
const jobStatuses = ['PENDING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED'];

/** The gauges read at scrape time from `sources`; a failed read leaves them empty rather than stale. */
export function storeGauges(registers: Registry[], sources: StoreSources, cacheMs = 1000): void {
  const read = cachedRead(sources.state, cacheMs);
  new Gauge({
    name: 'jes_jobs',
    help: 'Jobs in the store now, by status (the same from every process on one database)',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      this.reset();
      const state = await read().catch(() => undefined);
      if (state) for (const status of jobStatuses) this.set({ status }, state.jobs[status] ?? 0);
    },
  });
  new Gauge({
    name: 'jes_queue_depth',
    help: 'PENDING executions waiting for a worker',
    registers,
    async collect() {
      const state = await read().catch(() => undefined);
      this.set(state ? state.queueDepth : NaN);
    },
  });
  new Gauge({
    name: 'jes_queue_oldest_pending_age_seconds',
    help: 'Age of the oldest PENDING execution (0 when the queue is empty)',
    registers,
    async collect() {
      const state = await read().catch(() => undefined);
      this.set(state ? state.oldestPendingSeconds : NaN);
    },
  });
  const pool = sources.pool;
  if (pool)
    new Gauge({
      name: 'jes_db_pool_connections',
      help: "This process's PostgreSQL pool: connections open (total), idle, and requests waiting for one",
      labelNames: ['state'] as const,
      registers,
      collect() {
        const { total, idle, waiting } = pool();
        this.set({ state: 'total' }, total);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting' }, waiting);
      },
    });
}
