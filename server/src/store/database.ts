// One small interface over the two databases the server runs on: embedded PGlite (one process) and
// PostgreSQL through pg (many API and worker processes). Same SQL for both.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `fn` with the payload of every NOTIFY on `channel` (from any process on the same database). */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const bytea = 17;

/** Opens the embedded database in `dataDir` ('memory:' for a throw-away one). */
export async function openEmbedded(dataDir: string): Promise<Database> {
  // bytea through Buffer's hex codec: PGlite's default one builds a string per byte (seconds for 4 MiB).
  const db = await PGlite.create(dataDir === 'memory:' ? 'memory://' : dataDir, {
    serializers: { [bytea]: (value: Uint8Array) => `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}` },
    parsers: { [bytea]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  });
  return {
    kind: 'embedded',
    query: async (sql, params) => (await db.query<any>(sql, params)).rows,
    transaction: (fn) => db.transaction((tx) => fn({ query: async (sql, params) => (await tx.query<any>(sql, params)).rows })),
    listen: (channel, fn) => db.listen(channel, fn),
    close: () => db.close(),
  };
}

/** Connects to PostgreSQL at `url`. */
export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that errors (database restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listener: pg.Client | undefined;
  return {
    kind: 'postgres',
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async (sql, params) => (await client.query(sql, params)).rows });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, fn) {
      if (!listener) {
        listener = new pg.Client({ connectionString: url });
        listener.on('error', () => {});
        listener.on('notification', (n) => listeners.get(n.channel)?.forEach((f) => f(n.payload ?? '')));
        await listener.connect();
      }
      if (!listeners.has(channel)) {
        listeners.set(channel, new Set());
        await listener.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      listeners.get(channel)!.add(fn);
      return async () => void listeners.get(channel)?.delete(fn);
    },
    async close() {
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

export function openDatabase(config: { databaseUrl: string | undefined; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openEmbedded(config.dataDir);
}
