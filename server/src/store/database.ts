// One small interface over the two databases the server runs on: embedded PGlite (one process) and
// PostgreSQL through pg (many API and worker processes). Same SQL for both.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'pino';
import { ConfigError } from '../config/config.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { PoolState } from '../metrics/store.ts';
import { lockDataDir, lockFileName } from './data-dir-lock.ts';
import { type FreshCluster, freshCluster } from './fresh-cluster.ts';
import { metered } from './metered.ts';
import { migrate } from './migrations.ts';
import { preparedStatements } from './pglite-statements.ts';
import { openPostgres } from './postgres.ts';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The process's metrics, when they are on: what the store's functions count (a job's end) goes there. */
  readonly metrics?: Metrics | undefined;
}

export interface Database extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** The first column of each row of `sql`, a bytea, as bytes (NULL as null): for reading stored data in bulk. */
  bytes(sql: string, params: unknown[]): Promise<(Uint8Array | null)[]>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `fn` with the payload of every NOTIFY on `channel` (from any process on the same database).
   * Notifications sent while the connection that hears them is down are lost: `onResync` is called after
   * each reconnect, so the subscriber can re-check what it may have missed.
   */
  listen(channel: string, fn: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
  /** Whether notifications are heard now: `down` while their connection reconnects (never, embedded). */
  readonly notifications: () => 'ok' | 'down';
  /** PostgreSQL's pool in this process, now; none on the embedded database. */
  readonly pool?: (() => PoolState) | undefined;
  close(): Promise<void>;
}

const bytea = 17;

/**
 * Makes the folder of the embedded database (parents too) and takes its lock, refused with a ConfigError naming
 * the process that has it open; `memory:` needs neither. Returns the release of the lock.
 */
export async function claimDataDir(dataDir: string): Promise<() => void> {
  if (dataDir === 'memory:') return () => {};
  // PGlite makes only the last folder of the path: a missing parent ended start-up with an uncaught ENOENT.
  await mkdir(dataDir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new ConfigError(`JES_DATA_DIR: cannot create ${dataDir} (${error.code ?? error.message})`);
  });
  return lockDataDir(dataDir);
}

/** Whether the folder holds nothing but the lock claimDataDir took: a database not made yet. */
async function holdsOnlyLock(dataDir: string): Promise<boolean> {
  return (await readdir(dataDir)).every((name) => name === lockFileName);
}

async function clearBesideLock(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir))
    if (name !== lockFileName) await rm(join(dataDir, name), { recursive: true, force: true });
}

/**
 * Opens the embedded database in `dataDir` ('memory:' for a throw-away one), claiming its folder first unless
 * the caller did (`claimed`, the release claimDataDir returned). Closing it releases the folder. `cacheDir`: where a
 * throw-away one, or one in a new folder, finds its starting cluster (fresh-cluster.ts); undefined, PGlite initialises
 * it.
 */
export async function openEmbedded(
  dataDir: string,
  claimed?: () => void,
  cacheDir?: string | undefined,
): Promise<Database> {
  const unlock = claimed ?? (await claimDataDir(dataDir));
  let db: PGlite,
    fresh: FreshCluster | undefined,
    made = false;
  try {
    const inMemory = dataDir === 'memory:';
    // A new folder starts from the kept cluster too: PGlite's initdb on disk took 5-11 s of a core (12-21 s) where
    // loading the copy took 2. Only a folder that holds nothing but this server's lock is new: one with anything else
    // in it (a database, or files of the operator's) is PGlite's to open as it always did.
    fresh = cacheDir && (inMemory || (await holdsOnlyLock(dataDir))) ? await freshCluster(cacheDir) : undefined;
    const create = (image?: Blob) =>
      // bytea parameters go as they are: PGlite binds a Uint8Array in the binary format (the bytes themselves), where
      // its default serializer builds a string per byte (seconds for 4 MiB) and even a hex string doubles 4 MiB
      // and costs PGlite a character-by-character UTF-8 count. Results come as text, read through Buffer's codec.
      PGlite.create(inMemory ? 'memory://' : dataDir, {
        serializers: { [bytea]: (value: Uint8Array) => value as unknown as string },
        parsers: { [bytea]: (text: string) => Buffer.from(text.slice(2), 'hex') },
        ...(image ? { loadDataDir: image } : {}),
        // In memory the buffer pool is a second copy of bytes PGlite's in-memory files already hold, and its default
        // 128 MB was zeroed at every start (0.5 s of a core, 40% of a start from the kept cluster): 16 MB there.
        ...(inMemory ? { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] } : {}),
      });
    const loaded = fresh?.image && (await create(fresh.image).catch(() => undefined));
    if (loaded) db = loaded;
    else {
      // What a load that failed wrote into the folder, which held only the lock before it, goes before initdb runs.
      if (fresh?.image && !inMemory) await clearBesideLock(dataDir);
      db = await create();
      made = true;
    }
    // In memory a new WAL segment need not be zero-filled to reserve its space: writing its 16 MiB of zeros grew the
    // in-memory file by an eighth at a time (half a GiB allocated and copied per 20 inline jobs of 4 MiB), where one
    // byte written at its end sizes it at once. On disk the zeros stay: they claim the space before WAL needs it.
    if (inMemory) await db.exec('SET wal_init_zero = off');
  } catch (error) {
    unlock();
    throw error;
  }
  const database = embedded(db, unlock);
  if (!fresh) return database;
  try {
    // None kept yet, or one PGlite could not load: this one gets the schema (its first migration, 0.4-0.8 s of a core
    // in a new process, was every start's) and is kept before anything else is written. One loaded from the copy has
    // the schema: only the instants its migrations were applied at are this database's.
    if (made) {
      await migrate(database);
      await fresh.keep(db);
    } else await db.exec('UPDATE schema_migrations SET applied_at = now()');
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** The Database over an open PGlite; closing it releases the data folder (`unlock`). */
function embedded(db: PGlite, unlock: () => void): Database {
  // The statements with parameters are the ones run over and over: those are named and prepared once. Those without
  // (migrations, maintenance) run as PGlite runs them.
  const statements = preparedStatements(db);
  return {
    kind: 'embedded',
    query: async (sql, params) =>
      params?.length ? statements.query(sql, params) : (await db.query<any>(sql, params)).rows,
    bytes: statements.bytes,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async (sql, params) =>
            params?.length ? statements.inTransaction(sql, params) : (await tx.query<any>(sql, params)).rows,
        }),
      ),
    // One process, no connection to lose: nothing is ever missed, so there is never a resync.
    listen: (channel, fn) => db.listen(channel, fn),
    notifications: () => 'ok',
    close: async () => {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * `claimed`: for the embedded database, the release of its folder's lock when the caller took it (claimDataDir).
 * `metrics`: the process's, when they are on: every statement is then counted and timed (metered.ts).
 */
export async function openDatabase(
  config: { databaseUrl: string | undefined; dataDir: string; cacheDir?: string | undefined },
  logger?: Logger,
  claimed?: () => void,
  metrics?: Metrics,
): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, { ...(logger ? { logger } : {}), metrics })
    : await openEmbedded(config.dataDir, claimed, config.cacheDir);
  return metrics ? metered(db, metrics) : db;
}
