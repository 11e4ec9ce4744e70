// Starting and stopping the reference server: open the database, migrate, ensure users, serve HTTP, and
// (unless JES_WORKERS=0) run solver workers in this process. Used by `jes-server` and by the tests.
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { pino, type Logger } from 'pino';
import { createApp } from './app.ts';
import { tokenIssuer } from './auth/tokens.ts';
import { userStates } from './auth/user-states.ts';
import { ensureUsers, signingKey } from './auth/users.ts';
import { ConfigError, type Config } from './config.ts';
import { validatePending } from './data-files/validate.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { originForm } from './http/request-target.ts';
import { JobEvents } from './jobs/events.ts';
import { type Database, openDatabase } from './store/database.ts';
import { migrate } from './store/migrations.ts';
import { startRetention } from './retention.ts';
import { WorkerLoop } from './worker/loop.ts';
import { SolverPool } from './worker/pool.ts';

export interface Running {
  url: string;
  db: Database;
  logger: Logger;
  /** The demo user's password when start-up created it (printed once). */
  demoPassword: string | undefined;
  close(): Promise<void>;
}

async function openStore(config: Config, logger: Logger): Promise<Database> {
  const started = performance.now();
  const db = await openDatabase(config, logger);
  await migrate(db);
  const where = config.databaseUrl ? `PostgreSQL at ${config.databaseUrl.replace(/\/\/[^@]*@/, '//')}` : config.dataDir === 'memory:' ? 'an in-memory embedded database' : `the embedded database in ${config.dataDir}`;
  logger.info(`database ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${where}`);
  return db;
}

function startWorkers(db: Database, config: Config, logger: Logger): { stop(): Promise<void> } | undefined {
  if (config.workers === 0) return undefined;
  const pool = new SolverPool({ size: config.workers });
  const loop = new WorkerLoop({ db, pool, logger: logger.child({ component: 'worker' }), leaseSeconds: config.leaseSeconds });
  const started = loop.start();
  void validatePending(db, logger).catch((err) => logger.error({ err }, 'validating pending data files failed'));
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
 */
function maintainEmbedded(db: Database, logger: Logger): NodeJS.Timeout | undefined {
  if (db.kind !== 'embedded') return undefined;
  let ticks = 0;
  // Never rejects: a failure is logged and the next tick tries again.
  const run = (sql: string) => db.query(sql).then(() => true, (err) => void logger.warn({ err }, `${sql} failed`));
  // Every 5 s the statistics; every minute, after them, a checkpoint.
  return setInterval(async () => {
    if ((await run('VACUUM ANALYZE executions, jobs')) && ++ticks % 12 === 0) await run('CHECKPOINT');
  }, 5000).unref();
}

export async function startServer(config: Config, logger: Logger = pino({ level: config.logLevel })): Promise<Running> {
  const db = await openStore(config, logger);
  const demo = await ensureUsers(db, config.users);
  const users = await userStates(db);
  const tokens = tokenIssuer(await signingKey(db, config.jwtSecret), config.env, { tokenVersion: users.tokenVersion });
  const events = new JobEvents();
  await events.start(db);
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections } = config.http;
  const app = createApp({ db, config, tokens, events, logger });
  const server: Server = createServer(
    // Timeouts are checked every second, not every 30 s, so a slow sender is cut off when its time is up. A
    // missing Host is refused by the app (requireHost), as a problem.
    { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, keepAliveTimeout: keepAliveTimeoutMs, connectionsCheckingInterval: 1000, requireHostHeader: false },
    (req, res) => {
      originForm(req);
      app(req, res);
    },
  );
  server.maxConnections = maxConnections;
  answerClientErrors(server);
  const retention = await startRetention(db, config, logger);
  server.listen(config.port);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  const workers = startWorkers(db, config, logger);
  const maintenance = maintainEmbedded(db, logger);
  return {
    url,
    db,
    logger,
    demoPassword: demo?.password,
    async close() {
      // Long polls first, while the server can still write: each answers with its job as it stands. Then stop
      // accepting; give open requests a moment, then close what is left.
      events.endWaits();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), 2000);
      clearInterval(maintenance);
      await retention.stop();
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
export async function startWorker(config: Config, logger: Logger = pino({ level: config.logLevel })): Promise<{ threads: number; close(): Promise<void> }> {
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL must be set for a worker process (the embedded database belongs to one process)');
  if (config.workers === 0) throw new ConfigError('JES_WORKERS must be at least 1 for a worker process');
  const db = await openStore(config, logger);
  const workers = startWorkers(db, config, logger)!;
  return {
    threads: config.workers,
    async close() {
      await workers.stop();
      await db.close();
    },
  };
}
