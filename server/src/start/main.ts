// Starting and stopping the reference server: claim the data folder, listen, start tracing (when the OTEL variables
// ask for it), open the database, migrate, ensure users, serve HTTP, and (unless JES_WORKERS=0) run solver workers in
// this process. Used by `jes-server` and by the tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from '../app.ts';
import { tokenIssuer } from '../auth/tokens.ts';
import { userStates } from '../auth/user-states.ts';
import { ensureUsers, signingKey } from '../auth/users.ts';
import { ConfigError, type Config } from '../config/config.ts';
import { answerClientErrors } from '@jes/contract/node';
import { capConnectionsPerAddress } from '../http/connections-per-address.ts';
import { originForm } from '../http/request-target.ts';
import { JobEvents } from '../jobs/events.ts';
import { EventStreams } from '../jobs/streams.ts';
import { type Listening, listen } from './listen.ts';
import { createLogger } from './logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { metricsRoutes } from '../routes/metrics.ts';
import { type OpsListener, startOpsListener } from './ops-listener.ts';
import { processMetrics } from './process-metrics.ts';
import { storeState } from '../store/gauges.ts';
import { claimDataDir, type Database, openDatabase, type Queryable } from '../store/database.ts';
import { livenessRoutes, type ReadinessDeps, readinessRoutes } from '../routes/readiness.ts';
import { maintainTables } from '../store/maintenance.ts';
import { migrate } from '../store/migrations.ts';
import { startRetention } from './retention.ts';
import { startWebhookSender } from '../webhooks/sender.ts';
import { WorkerLoop } from '../worker/loop.ts';
import { SolverPool } from '../worker/pool.ts';
import { type DiskSpace, watchDiskSpace } from '../store/disk-space.ts';
import { traceQueries } from '../tracing/database.ts';
import { startTracing, type Tracing } from '../tracing/sdk.ts';

export interface Running {
  /** A URL that reaches the server from this machine (listening.url). */
  url: string;
  /** What it listens on: the address (0.0.0.0 or :: for every interface), the port, that URL. */
  listening: Listening;
  db: Database;
  logger: Logger;
  /** The demo user's password when start-up created it (printed once). */
  demoPassword: string | undefined;
  /** Starts draining: GET /readyz answers 503 and every answer closes its connection; requests are still served. */
  drain(): void;
  /** The ops listener's URL (JES_METRICS_PORT set): /metrics is there, not at `url`. */
  opsUrl: string | undefined;
  close(): Promise<void>;
}

/** Whether a process drains (after SIGTERM, for JES_DRAIN_SECONDS), and the switch that starts it. */
function drainSwitch(): { draining: () => boolean; drain(): void } {
  let draining = false;
  return { draining: () => draining, drain: () => void (draining = true) };
}

/**
 * `claimed`: the release of the data folder's lock when the caller took it (claimDataDir) before. `traced`: its
 * statements get spans (tracing/database.ts). `metrics`: this process's, which then count its statements and read the
 * store's gauges from it.
 */
async function openStore(
  config: Config,
  logger: Logger,
  { traced, claimed, metrics }: { traced: boolean; claimed?: (() => void) | undefined; metrics?: Metrics | undefined },
): Promise<Database> {
  const started = performance.now();
  const opened = await openDatabase(config, logger, claimed, metrics);
  const db = traced ? traceQueries(opened) : opened;
  await migrate(db);
  metrics?.watchStore({ state: () => storeState(db), pool: db.pool });
  const where = config.databaseUrl
    ? `PostgreSQL at ${config.databaseUrl.replace(/\/\/[^@]*@/, '//')}`
    : config.dataDir === 'memory:'
      ? 'an in-memory embedded database'
      : `the embedded database in ${config.dataDir}`;
  logger.info(`database ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${where}`);
  return db;
}

function startWorkers(
  db: Database,
  config: Config,
  logger: Logger,
  space?: DiskSpace,
): { stop(): Promise<void> } | undefined {
  if (config.workers === 0) return undefined;
  const pool = new SolverPool({ size: config.workers, threadsPerRun: config.executionThreads });
  const loop = new WorkerLoop({
    db,
    pool,
    logger: logger.child({ component: 'worker' }),
    leaseSeconds: config.leaseSeconds,
    space,
  });
  const started = loop.start();
  return {
    async stop() {
      await started;
      await loop.stop();
      await pool.close();
    },
  };
}

/**
 * The embedded database has no autovacuum: without fresh statistics its planner turns the claim query into
 * a loop over every execution ever run (155 jobs/s fell to 5 after ~3,000 jobs). Nor has it a checkpointer:
 * without a CHECKPOINT now and then its write-ahead log grows with every write, for good. PostgreSQL does both itself.
 * Every 5 s the tables that changed enough are vacuumed and analyzed (maintainTables: not every table every time,
 * which paused every request for seconds once the store held 100,000 jobs); every minute, a checkpoint.
 */
function maintainEmbedded(db: Database, logger: Logger): NodeJS.Timeout | undefined {
  if (db.kind !== 'embedded') return undefined;
  let ticks = 0;
  // Never rejects: a failure is logged and the next tick tries again.
  const run = (what: string, work: () => Promise<unknown>) =>
    work().then(
      () => true,
      (err) => void logger.warn({ err }, `${what} failed`),
    );
  return setInterval(async () => {
    if (
      (await run('VACUUM and ANALYZE', () =>
        maintainTables(db, ['executions', 'jobs', 'data_files', 'job_events', 'event_counters', 'webhook_deliveries']),
      )) &&
      ++ticks % 12 === 0
    )
      await run('CHECKPOINT', () => db.query('CHECKPOINT'));
  }, 5000).unref();
}

/**
 * The ops listener when JES_METRICS_PORT is set: liveness, readiness and, when metrics are on, /metrics. It listens
 * before the database is open (a port clash is told at once): readiness answers 503 until it is.
 */
function startOps(
  config: Config,
  logger: Logger,
  metrics: Metrics | undefined,
  readiness: ReadinessDeps,
): Promise<OpsListener | undefined> {
  if (config.metrics.port === undefined) return Promise.resolve(undefined);
  const routers = [livenessRoutes(), readinessRoutes(readiness)];
  if (metrics) routers.push(metricsRoutes(metrics, config.metrics.token));
  return startOpsListener(config, logger, routers, metrics);
}

/** The database as readiness asks it before it is open: not yet reachable, then the database itself. */
function storeOpenedLater(): Queryable & { opened(db: Database): void } {
  let db: Database | undefined;
  return {
    opened: (opened) => void (db = opened),
    query<T>(text: string, values?: unknown[]) {
      return db ? db.query<T>(text, values) : Promise.reject(new Error('the database is not open yet'));
    },
  };
}

export async function startServer(config: Config, logger: Logger = createLogger(config)): Promise<Running> {
  // The cheap checks first, so a clash is told within a second, not after the database's start: the data folder's
  // lock (naming the process that holds it), then the port, kept from now on. A request that comes meanwhile
  // waits for the app.
  const release = config.databaseUrl ? undefined : await claimDataDir(config.dataDir);
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const ready = Promise.withResolvers<void>();
  ready.promise.catch(() => {});
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections } = config.http;
  const server: Server = createServer(
    // Timeouts are checked every second, not every 30 s, so a slow sender is cut off when its time is up. A
    // missing Host is refused by the app (requireHost), as a problem.
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: 1000,
      requireHostHeader: false,
    },
    (req, res) => {
      originForm(req);
      if (handle) handle(req, res);
      else
        ready.promise.then(
          () => handle!(req, res),
          () => res.destroy(),
        );
    },
  );
  server.maxConnections = maxConnections;
  answerClientErrors(server, 'this server');
  let listening: Listening;
  // The ops listener's port too (JES_METRICS_PORT), with the API's.
  const metrics = processMetrics(config, 'api');
  const drain = drainSwitch();
  const store = storeOpenedLater();
  let ops: OpsListener | undefined;
  try {
    listening = await listen(server, config.host, config.port);
    ops = await startOps(config, logger, metrics, { db: store, draining: drain.draining });
  } catch (error) {
    server.close();
    release?.();
    throw error;
  }
  let db: Database | undefined;
  let tracing: Tracing | undefined;
  try {
    // An OTEL variable it cannot follow stops start-up, as an invalid setting does: the data folder is let go.
    tracing = await startTracing('api', logger).catch((error) => {
      release?.();
      throw error;
    });
    db = await openStore(config, logger, { traced: tracing !== undefined, claimed: release, metrics });
    store.opened(db);
    const started = await startServing(db, config, logger, metrics, drain.draining);
    const trustedProxy: (address: string, hop: number) => boolean = started.app.get('trust proxy fn');
    capConnectionsPerAddress(server, config.http.maxConnectionsPerAddress, (address) => trustedProxy(address, 0));
    handle = started.app;
    ready.resolve();
    return {
      url: listening.url,
      listening,
      db,
      logger,
      demoPassword: started.demoPassword,
      drain: drain.drain,
      opsUrl: ops?.listening.url,
      async close() {
        try {
          await started.close(server);
          await ops?.close();
        } finally {
          // The spans of the last requests are sent before it stops.
          await tracing?.shutdown();
        }
      },
    };
  } catch (error) {
    ready.reject(error);
    server.close();
    server.closeAllConnections();
    await ops?.close();
    await db?.close().catch(() => {});
    await tracing?.shutdown().catch(() => {});
    throw error;
  }
}

/** Everything behind the HTTP server: users, tokens, the app, retention, workers, webhooks, maintenance; their stop. */
async function startServing(
  db: Database,
  config: Config,
  logger: Logger,
  metrics: Metrics | undefined,
  draining: () => boolean,
) {
  const demo = await ensureUsers(db, config.users);
  const users = await userStates(db);
  const tokens = tokenIssuer(await signingKey(db, config.jwtSecret), config.env, {
    tokenVersion: users.tokenVersion,
    knownVersion: users.knownVersion,
  });
  const events = new JobEvents();
  await events.start(db);
  const streams = new EventStreams(db, logger.child({ component: 'streams' }));
  await streams.start();
  metrics?.events.watchStreams(() => streams.size);
  // The embedded database's disk, watched for its floor of free space (PostgreSQL's is its own).
  const space = config.databaseUrl ? undefined : await watchDiskSpace(config.dataDir, config.minFreeDiskBytes);
  const app = createApp({ db, config, tokens, events, streams, logger, space, metrics, draining });
  const retention = await startRetention(db, config, logger);
  const workers = startWorkers(db, config, logger, space);
  const sender = await startWebhookSender(db, config.webhooks, logger.child({ component: 'webhooks' }));
  const maintenance = maintainEmbedded(db, logger);
  return {
    app,
    demoPassword: demo?.password,
    async close(server: Server) {
      // Long polls first, while the server can still write: each answers with its job as it stands. Then stop
      // accepting; give open requests a moment, then close what is left.
      events.endWaits();
      await streams.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), 2000);
      clearInterval(maintenance);
      space?.stop();
      await retention.stop();
      await sender.stop();
      await workers?.stop();
      await closed;
      clearTimeout(grace);
      await events.stop();
      await users.stop();
      await db.close();
    },
  };
}

/** A process that only runs solver workers against a shared PostgreSQL. */
export async function startWorker(
  config: Config,
  logger: Logger = createLogger(config),
): Promise<{ threads: number; opsUrl: string | undefined; drain(): void; close(): Promise<void> }> {
  if (!config.databaseUrl)
    throw new ConfigError(
      'DATABASE_URL must be set for a worker process (the embedded database belongs to one process)',
    );
  if (config.workers === 0) throw new ConfigError('JES_WORKERS must be at least 1 for a worker process');
  const metrics = processMetrics(config, 'worker');
  const drain = drainSwitch();
  const store = storeOpenedLater();
  // Its port first: a clash is told at once, not after the database's start.
  const ops = await startOps(config, logger, metrics, { db: store, draining: drain.draining });
  let tracing: Tracing | undefined;
  let db: Database;
  try {
    tracing = await startTracing('worker', logger);
    db = await openStore(config, logger, { traced: tracing !== undefined, metrics });
    store.opened(db);
  } catch (error) {
    await ops?.close();
    await tracing?.shutdown().catch(() => {});
    throw error;
  }
  const workers = startWorkers(db, config, logger)!;
  // Its jobs' ends queue webhook messages too: every process sends its share.
  const sender = await startWebhookSender(db, config.webhooks, logger.child({ component: 'webhooks' }));
  return {
    threads: config.workers,
    drain: drain.drain,
    opsUrl: ops?.listening.url,
    async close() {
      try {
        await sender.stop();
        await workers.stop();
        await ops?.close();
        await db.close();
      } finally {
        // The spans of the last executions are sent before it stops.
        await tracing?.shutdown();
      }
    },
  };
}
