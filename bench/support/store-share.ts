// What the store costs a run (bench:scale): the statements each jes process sent and the time they took, from its
// `jes_db_queries_total` and `jes_db_query_duration_seconds` (docs/metrics.md) when every process serves them, else
// PostgreSQL's own count of the database's transactions and the time its backends spent running statements
// (pg_stat_database: xact_commit + xact_rollback, active_time); and the CPU of PostgreSQL's backends on the database
// (pg_stat_activity's pids, /proc), sampled once a second so that a backend that ends loses at most a second.
// pg_stat_statements would count statements, but it loads only at a server start (shared_preload_libraries).
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { processCpu } from './process-cpu.ts';
import { scrape, sumSamples } from './prometheus.ts';

/** Statements and their seconds, from one process's metrics. */
export interface StoreUse {
  statements: number;
  seconds: number;
}

/** Every process's store use (in the order of `urls`), or undefined unless each serves both metrics. */
export async function metricsSnapshot(urls: (string | undefined)[]): Promise<StoreUse[] | undefined> {
  const uses: StoreUse[] = [];
  for (const url of urls) {
    const text = url === undefined ? undefined : await scrape(url);
    const statements = text === undefined ? undefined : sumSamples(text, 'jes_db_queries_total');
    const seconds = text === undefined ? undefined : sumSamples(text, 'jes_db_query_duration_seconds_sum');
    if (statements === undefined || seconds === undefined) return undefined;
    uses.push({ statements, seconds });
  }
  return uses;
}

export const useSince = (before: StoreUse[], after: StoreUse[]): StoreUse[] =>
  after.map((a, i) => ({ statements: a.statements - before[i]!.statements, seconds: a.seconds - before[i]!.seconds }));

/** PostgreSQL's counters of database `name`: transactions ended, and ms its backends spent running statements. */
export interface DatabaseStats {
  transactions: number;
  activeMs: number;
}

/**
 * The counters of database `name`. A backend reports them when it goes idle at most once a second, and an idle one
 * only after PGSTAT_IDLE_INTERVAL (10 s) or when it disconnects: read them after the processes have stopped, or
 * after 11 s with nothing running.
 */
export async function databaseStats(adminUrl: string, name: string): Promise<DatabaseStats> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ transactions: string; active_ms: number }>(
      'SELECT xact_commit + xact_rollback AS transactions, active_time AS active_ms FROM pg_stat_database WHERE datname = $1',
      [name],
    );
    return { transactions: Number(rows[0]?.transactions ?? 0), activeMs: Number(rows[0]?.active_ms ?? 0) };
  } finally {
    await admin.end();
  }
}

/** Waits until no backend but the benchmark's own is connected to `name` (the stopped processes' have reported). */
export async function backendsGone(adminUrl: string, name: string, timeoutMs = 10_000): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows.length === 0) return;
      await sleep(100);
    }
  } finally {
    await admin.end();
  }
}

export interface BackendFigures {
  /** CPU seconds of the backends on the database while sampled; undefined when /proc does not show them. */
  cpuSeconds: number | undefined;
  /** The most backends connected to the database at one look. */
  peakConnections: number;
}

/** Samples the backends connected to database `name` every `everyMs` until `stop()`. */
export async function sampleBackends(
  adminUrl: string,
  name: string,
  everyMs = 1000,
): Promise<{ stop(): Promise<BackendFigures> }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  /** Per backend pid: its CPU when first seen (0 for one that started after the first look), and when last seen. */
  const seen = new Map<number, { first: number; last: number }>();
  let peakConnections = 0;
  let visible = false;
  let looks = 0;
  const look = async () => {
    const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
    peakConnections = Math.max(peakConnections, rows.length);
    for (const { pid } of rows) {
      const cpu = processCpu(pid);
      if (cpu === undefined) continue;
      visible = true;
      const entry = seen.get(pid);
      if (entry) entry.last = cpu;
      else seen.set(pid, { first: looks === 0 ? cpu : 0, last: cpu });
    }
    looks++;
  };
  await look();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await sleep(everyMs);
      if (!stopped) await look();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await look();
      await admin.end();
      const cpuSeconds = [...seen.values()].reduce((sum, { first, last }) => sum + last - first, 0);
      return { cpuSeconds: visible ? cpuSeconds : undefined, peakConnections };
    },
  };
}

/** PostgreSQL's connection limits: max_connections and the connections kept for superusers. */
export async function connectionLimits(adminUrl: string): Promise<{ max: number; reserved: number }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const max = (await admin.query<{ max_connections: string }>('SHOW max_connections')).rows[0]!.max_connections;
    const reserved = (
      await admin.query<{ superuser_reserved_connections: string }>('SHOW superuser_reserved_connections')
    ).rows[0]!.superuser_reserved_connections;
    return { max: Number(max), reserved: Number(reserved) };
  } finally {
    await admin.end();
  }
}
