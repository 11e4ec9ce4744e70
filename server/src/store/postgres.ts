// PostgreSQL through pg, for many API and worker processes on one database. Any connection can go away at
// any moment (a failover, an administrator's pg_terminate_backend, an idle-session timeout, a network reset),
// and that must never end the process: the pool, every client checked out of it and the LISTEN connection
// each have an 'error' listener; a transaction whose connection failed gives its client back as broken; and
// the LISTEN connection comes back by itself.
import pg from 'pg';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.ts';
import type { Database } from './database.ts';
import { isTransient } from './transient.ts';

/** The pause before the first reconnect of the LISTEN connection, doubled after each failure up to the second. */
const reconnectDelayMs = { first: 100, max: 5000 };

/**
 * The one connection that LISTENs, for every channel of this process. When it ends or fails it reconnects
 * with backoff, LISTENs again on every channel, and calls the resync callbacks: a notification sent while
 * it was down is lost, and subscribers re-check what they may have missed.
 */
class Listener {
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private readonly resyncs = new Set<() => void>();
  private client: pg.Client | undefined;
  private first: Promise<void> | undefined;
  private closed = false;
  private pause: NodeJS.Timeout | undefined;
  state: 'ok' | 'down' = 'ok';

  private readonly url: string;
  private readonly logger: Logger | undefined;
  private readonly metrics: Metrics | undefined;

  constructor(url: string, logger: Logger | undefined, metrics: Metrics | undefined) {
    this.url = url;
    this.logger = logger;
    this.metrics = metrics;
  }

  async listen(channel: string, fn: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>> {
    // The first connection's failure is the caller's (start-up fails as it would on the pool).
    this.first ??= this.connect();
    await this.first;
    let fns = this.channels.get(channel);
    if (!fns) {
      fns = new Set();
      this.channels.set(channel, fns);
      // While the connection is down, the reconnect LISTENs on every channel, this one included.
      await this.client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`).catch((error) => {
        if (!isTransient(error)) throw error;
      });
    }
    fns.add(fn);
    if (onResync) this.resyncs.add(onResync);
    return async () => {
      fns.delete(fn);
      if (onResync) this.resyncs.delete(onResync);
    };
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => this.channels.get(n.channel)?.forEach((fn) => fn(n.payload ?? '')));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) return void (await client.end().catch(() => {}));
    this.client = client;
    this.state = 'ok';
  }

  /** The connection `client` ended or failed: once per connection, reconnect. */
  private lost(client: pg.Client, error?: Error): void {
    if (client !== this.client || this.closed) return;
    this.client = undefined;
    this.state = 'down';
    void client.end().catch(() => {});
    this.logger?.warn({ err: error }, 'lost the database notifications connection; reconnecting');
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    for (let delay = reconnectDelayMs.first; !this.closed; delay = Math.min(reconnectDelayMs.max, delay * 2)) {
      await new Promise((resolve) => (this.pause = setTimeout(resolve, delay)));
      if (this.closed) return;
      try {
        await this.connect();
      } catch (error) {
        this.logger?.debug(
          { err: error },
          `reconnecting the database notifications failed; next try in ${Math.min(reconnectDelayMs.max, delay * 2)} ms`,
        );
        continue;
      }
      if (this.closed) return;
      this.logger?.info('database notifications reconnected');
      this.metrics?.store.notificationsReconnected();
      for (const resync of this.resyncs) {
        try {
          resync();
        } catch (err) {
          this.logger?.error({ err }, 'a resync after the notifications reconnected failed');
        }
      }
      return;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.pause);
    await this.client?.end().catch(() => {});
  }
}

/**
 * Runs `fn` on a client of the pool. The pool listens for errors only on idle clients: a connection that fails
 * while checked out (terminated between two statements) would otherwise emit an 'error' nobody hears, which
 * ends the process. A client whose connection failed, or that `fn` discards, is destroyed, not reused.
 */
async function withClient<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient, discard: (error: Error) => void) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    // Whatever the server's reason (not accepting connections, too many of them, starting up, unreachable),
    // no connection is a moment without a database: SQLSTATE 08001, which isTransient knows.
    throw Object.assign(new Error(`could not connect to the database: ${(error as Error).message}`, { cause: error }), {
      code: '08001',
    });
  }
  let broken: Error | undefined;
  const discard = (error: Error) => void (broken ??= error);
  client.on('error', discard);
  try {
    return await fn(client, discard);
  } finally {
    client.off('error', discard);
    client.release(broken);
  }
}

/** Connects to PostgreSQL at `url`. */
export async function openPostgres(
  url: string,
  options: { poolSize?: number; logger?: Logger; metrics?: Metrics | undefined } = {},
): Promise<Database> {
  const { poolSize = 10, logger, metrics } = options;
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that fails (database restarted) is dropped by the pool; the next query connects anew.
  // (Its message only: pg-pool hangs the whole client on the error.)
  pool.on('error', (err) => logger?.warn(`an idle database connection failed: ${err.message}`));
  // A new client is handed over in the same parse of the server's bytes that made it ready, before withClient
  // can listen: a FATAL in that chunk (a backend terminated as it started) had nobody to hear it and ended the
  // process. Every client listens from its birth; the failure itself surfaces as its next query's error (the
  // client is no longer queryable), and the pool drops it on release.
  pool.on('connect', (client) =>
    client.on('error', (err) => logger?.debug(`a database connection failed: ${err.message}`)),
  );
  await pool.query('SELECT 1');
  const listener = new Listener(url, logger, metrics);
  return {
    kind: 'postgres',
    query: (sql, params) => withClient(pool, async (client) => (await client.query(sql, params)).rows),
    bytes: (sql, params) =>
      withClient(pool, async (client) =>
        (await client.query({ text: sql, values: params, rowMode: 'array' })).rows.map((row) => row[0]),
      ),
    transaction: (fn) =>
      withClient(pool, async (client, discard) => {
        try {
          await client.query('BEGIN');
          const result = await fn({ query: async (sql, params) => (await client.query(sql, params)).rows });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // A client whose ROLLBACK fails is in no known state: it is not handed to the next transaction.
          await client.query('ROLLBACK').catch(discard);
          throw error;
        }
      }),
    listen: (channel, fn, onResync) => listener.listen(channel, fn, onResync),
    notifications: () => listener.state,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
