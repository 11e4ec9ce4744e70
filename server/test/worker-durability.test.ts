// The worker against a failing database: transient errors while it marks an execution running or records
// its outcome are retried, not turned into a permanent ERROR nor into an execution RUNNING forever; an
// outcome that still cannot be recorded is handed back and runs again; a shutdown's handback is logged as
// what it is. The database fails for real: a trigger raises lock_not_available (55P03) on the chosen
// transitions, or (PostgreSQL) another session holds the execution's row under lock_timeout = 200ms.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/config.ts';
import { type Running, startServer } from '../src/start/main.ts';
import { openEmbedded } from '../src/store/database.ts';
import {
  backends,
  Client,
  freshPostgres,
  postgresAdminUrl,
  randomMatrix,
  sixNodes,
  testEnv,
} from './support/server.ts';

interface Started {
  server: Running;
  alice: Client;
  logs: { level: number; msg: string }[];
  /** Resolves with the first log line whose message matches. */
  logged(pattern: RegExp, seconds?: number): Promise<{ level: number; msg: string }>;
}

const open: Running[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function start(env: Record<string, string>): Promise<Started> {
  const logs: { level: number; msg: string }[] = [];
  const waiting: { pattern: RegExp; resolve: (line: { level: number; msg: string }) => void }[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write(text: string) {
        const line = JSON.parse(text);
        logs.push(line);
        for (const w of waiting) if (w.pattern.test(line.msg)) w.resolve(line);
      },
    },
  );
  const server = await startServer(readConfig(testEnv({ JES_WORKERS: '1', ...env })), logger);
  open.push(server);
  const alice = await new Client(server.url).login('alice');
  const logged = (pattern: RegExp, seconds = 30) => {
    const seen = logs.find((l) => pattern.test(l.msg));
    if (seen) return Promise.resolve(seen);
    return new Promise<{ level: number; msg: string }>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no log line matching ${pattern} within ${seconds} s:\n${logs.map((l) => `${l.level} ${l.msg}`).join('\n')}`,
            ),
          ),
        seconds * 1000,
      );
      waiting.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  };
  return { server, alice, logs, logged };
}

/** A trigger that raises lock_not_available on the executions updates matching `when`, while `fails()` (SQL) is true. */
async function failUpdates(server: Running, name: string, when: string, fails: string): Promise<void> {
  await server.db.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${fails} THEN RAISE EXCEPTION 'chaos: ${name}' USING ERRCODE = 'lock_not_available'; END IF;
      RETURN NEW;
    END $$`);
  await server.db.query(
    `CREATE TRIGGER ${name} BEFORE UPDATE ON executions FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`,
  );
}

const terminal = `NEW.status IN ('SUCCESS', 'ERROR', 'CANCELLED')`;

describe.each(await backends())('%s', (_name, backend) => {
  afterEach(async () => backend.drop());

  it('retries a transient error while marking an execution running (no ERROR "failed unexpectedly")', async () => {
    const { server, alice } = await start(await backend.env());
    await server.db.query('CREATE SEQUENCE chaos_running');
    await failUpdates(
      server,
      'chaos_running',
      `OLD.status = 'PREPARING' AND NEW.status = 'RUNNING'`,
      `nextval('chaos_running') <= 2`,
    );
    const id = await alice.start(sixNodes, '?solver=exact');
    const job = await alice.waitFor(id, 30);
    expect(job.status, JSON.stringify(job)).toBe('FINISHED');
    expect(job.executions.exact.data.cut_value).toBe(53);
  }, 60_000);

  it('retries a transient error while recording the outcome (the job does not stay RUNNING)', async () => {
    const { server, alice, logs } = await start(await backend.env());
    await server.db.query('CREATE SEQUENCE chaos_finish');
    await failUpdates(server, 'chaos_finish', terminal, `nextval('chaos_finish') <= 3`);
    const id = await alice.start(sixNodes, '?solver=exact');
    const job = await alice.waitFor(id, 30);
    expect(job.status, JSON.stringify(job)).toBe('FINISHED');
    expect(logs.map((l) => l.msg)).not.toContainEqual(expect.stringMatching(/no longer held/));
  }, 60_000);

  it('hands an execution back when its outcome cannot be recorded, says so, and runs it again', async () => {
    const { server, alice, logs, logged } = await start({ ...(await backend.env()), JES_LEASE_SECONDS: '2' });
    await server.db.query('CREATE TABLE chaos (fail boolean NOT NULL)');
    await server.db.query('INSERT INTO chaos VALUES (true)');
    await failUpdates(server, 'chaos_outcome', terminal, '(SELECT fail FROM chaos)');
    const id = await alice.start(sixNodes, '?solver=exact');
    await logged(/could not record the outcome.*handed the execution back/);
    await server.db.query('UPDATE chaos SET fail = false');
    const job = await alice.waitFor(id, 30);
    expect(job.status, JSON.stringify(job)).toBe('FINISHED');
    expect(logs.map((l) => l.msg)).not.toContainEqual(expect.stringMatching(/no longer held/));
  }, 60_000);

  it('a shutdown while an outcome is being recorded lets it be recorded first (the finished run is not thrown away)', async () => {
    // Regression: stop() handed back every execution this worker held, the one whose outcome was being recorded
    // (retrying a transient failure) included; the recording then found it no longer held, and it ran again.
    const env = await backend.env();
    const dir = env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'jes-stop-recording-'));
    const { server, alice, logs, logged } = await start({ ...env, ...(dir ? { JES_DATA_DIR: dir } : {}) });
    await server.db.query('CREATE SEQUENCE chaos_stop');
    await failUpdates(server, 'chaos_stop', terminal, `nextval('chaos_stop') <= 4`);
    const id = await alice.start(sixNodes, '?solver=exact');
    await logged(/recording the outcome failed \(try 1\)/);
    open.splice(open.indexOf(server), 1);
    await server.close();
    expect(logs.map((l) => l.msg)).not.toContain(
      'the execution was no longer held by this worker; its outcome was not recorded',
    );
    const query = 'SELECT status FROM executions WHERE job_id = $1';
    let rows: { status: string }[];
    if (dir) {
      const db = await openEmbedded(dir);
      rows = await db.query(query, [id]);
      await db.close();
      await rm(dir, { recursive: true, force: true });
    } else {
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      rows = (await db.query(query, [id])).rows;
      await db.end();
    }
    expect(rows).toEqual([{ status: 'SUCCESS' }]);
  }, 60_000);
});

it('logs a shutdown’s handback at info, not as a lost lease', async () => {
  const { server, alice, logs, logged } = await start({});
  const id = await alice.start(
    { num_nodes: 60, adj_matrix: randomMatrix(60, 5) },
    '?solver=local-search&time_limit_seconds=30',
  );
  for (let i = 0; i < 200 && (await alice.get(`/job/${id}`)).body.job[id].status !== 'RUNNING'; i++)
    await new Promise((r) => setTimeout(r, 50));
  await server.close();
  open.splice(open.indexOf(server), 1);
  const line = await logged(/handed back/, 5);
  expect(line.level).toBe(30);
  expect(logs.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
}, 60_000);

// The reported case: the database's lock_timeout is 200 ms and another session holds the execution's row
// FOR UPDATE for 2.5 s as the run ends. Before, the outcome was never recorded and the job stayed RUNNING
// (its lease renewed forever).
it('records the outcome once a lock held past lock_timeout is released (PostgreSQL)', async (context) => {
  const database = await freshPostgres();
  if ('skip' in database) {
    console.warn(`skipping the lock_timeout reproduction: ${database.skip}`);
    return context.skip();
  }
  try {
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} SET lock_timeout = '200ms'`);
    await admin.end();
    const { alice, logs } = await start({ DATABASE_URL: database.url });
    const id = await alice.start(
      { num_nodes: 60, adj_matrix: randomMatrix(60, 6) },
      '?solver=local-search&time_limit_seconds=1',
    );
    for (let i = 0; i < 200 && (await alice.get(`/job/${id}`)).body.job[id].status !== 'RUNNING'; i++)
      await new Promise((r) => setTimeout(r, 50));
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('SET lock_timeout = 0');
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM executions WHERE job_id = $1 FOR UPDATE', [id]);
    await new Promise((r) => setTimeout(r, 2500));
    await locker.query('COMMIT');
    await locker.end();
    const job = await alice.waitFor(id, 30);
    expect(job.status, JSON.stringify(job)).toBe('FINISHED');
    expect(logs.map((l) => l.msg)).not.toContainEqual(expect.stringMatching(/no longer held/));
  } finally {
    await Promise.all(open.splice(0).map((s) => s.close()));
    await database.drop();
  }
}, 90_000);
