// The webhook benchmark (`npm run bench:webhooks`, or `node bench/webhooks.ts [--quick]`): how many messages a
// server delivers per second from its outbox to a receiver that answers 200 at once.
//
// For each database (embedded PGlite in a folder on disk; PostgreSQL when one answers at 127.0.0.1:5432) and each
// JES_WEBHOOK_CONCURRENCY (16, the default, and 64), it queues a backlog of `job.ended` messages directly in the
// store (the benchmark's user, its webhook pointing at the receiver, each message a FINISHED job's snapshot as the
// server takes it), then starts the server as a child process (JES_WORKERS=0: nothing else runs) and counts, in
// this process, the messages its receiver on 127.0.0.1 gets: the rate is from the first to the last, so the
// server's start-up is not in it. Each message is signed, its attempt guarded and recorded as in production.
// Prints a markdown table; nothing is asserted but that every message came once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWebhookSecret } from '@jes/contract/node';
import { ensureUsers } from '../server/src/auth/users.ts';
import { openDatabase, type Database } from '../server/src/store/database.ts';
import { migrate } from '../server/src/store/migrations.ts';
import { startReceiver } from '../server/test/support/webhook-receiver.ts';
import { node, serverCli } from '../test/support/child-server.ts';
import { serverEnv, startProcess, stopAll } from './support/processes.ts';
import { freshDatabase } from './support/seed-postgres.ts';
import { quick, user } from './support/settings.ts';

const messages = quick ? 500 : 3000;
const concurrencies = [16, 64];

/** A FINISHED one-execution job as enqueueWebhooks snapshots it (jsonb's instants as text). */
function snapshot(): object {
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 22, 14, 3, 7) + ms).toISOString();
  return {
    job: {
      id: 'K7Q2M9X4TB1R',
      owner: user.username,
      problem_id: 'maxcut',
      status: 'FINISHED',
      input_mode: 'inline',
      data_file_id: null,
      input_bytes: 114,
      error: null,
      cancel_requested_at: null,
      submitted_at: at(0),
      running_at: at(19),
      ended_at: at(5025),
    },
    executions: [
      {
        job_id: 'K7Q2M9X4TB1R',
        solver: 'exact',
        status: 'SUCCESS',
        data: null,
        error: null,
        progress: 1,
        best_value: 53,
        time_limit_seconds: 10,
        created_at: at(0),
        running_at: at(19),
        ended_at: at(21),
      },
    ],
  };
}

/** The benchmark's user and webhook, and `count` messages due now. */
async function queueBacklog(db: Database, url: string, count: number): Promise<void> {
  await migrate(db);
  await ensureUsers(db, [{ name: user.username, password: user.password }]);
  await db.query(
    `INSERT INTO webhooks (owner, url, secret) VALUES ($1, $2, $3)
     ON CONFLICT (owner) DO UPDATE SET url = excluded.url`,
    [user.username, url, newWebhookSecret()],
  );
  await db.query(
    `INSERT INTO webhook_deliveries (id, owner, job_id, type, url, snapshot, next_attempt_at)
     SELECT 'msg_bench' || i || $4, $1, 'K7Q2M9X4TB1R', 'job.ended', $2, $3::jsonb, now()
       FROM generate_series(1, $5::int) AS i`,
    [user.username, url, JSON.stringify(snapshot()), String(Date.now()), count],
  );
}

interface Run {
  perSecond: number;
  seconds: number;
  repeats: number;
}

async function run(database: 'embedded' | 'postgres', concurrency: number): Promise<Run | string> {
  const receiver = await startReceiver();
  const url = `${receiver.url}/hook`;
  const env: Record<string, string> = {
    JES_WORKERS: '0',
    JES_WEBHOOK_ALLOW_HOSTS: 'localhost',
    JES_WEBHOOK_CONCURRENCY: String(concurrency),
  };
  let cleanup = async () => {};
  try {
    if (database === 'postgres') {
      const fresh = await freshDatabase();
      if ('skip' in fresh) return fresh.skip;
      cleanup = fresh.drop;
      const db = await openDatabase({ databaseUrl: fresh.url, dataDir: 'memory:' });
      await queueBacklog(db, url, messages).finally(() => db.close());
      env.DATABASE_URL = fresh.url;
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'jes-bench-webhooks-'));
      cleanup = () => rm(dir, { recursive: true, force: true });
      const db = await openDatabase({ databaseUrl: undefined, dataDir: join(dir, 'data') });
      await queueBacklog(db, url, messages).finally(() => db.close());
      env.JES_DATA_DIR = join(dir, 'data');
    }
    const server = await startProcess(`jes server (${database})`, node(serverCli), serverEnv(env));
    try {
      const all = await receiver.received((r) => r.path === '/hook', messages, 600);
      const first = receiver.times[0]!;
      const last = receiver.times[messages - 1]!;
      const ids = new Set(all.map((r) => r.headers['webhook-id']));
      return {
        perSecond: (messages - 1) / ((last - first) / 1000),
        seconds: (last - first) / 1000,
        repeats: all.length - ids.size,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await receiver.close();
    await cleanup();
  }
}

const rows: string[] = [];
for (const database of ['embedded', 'postgres'] as const) {
  for (const concurrency of concurrencies) {
    const result = await run(database, concurrency);
    if (typeof result === 'string') {
      console.log(`${database}: skipped (${result})`);
      break;
    }
    const line = `| ${database === 'embedded' ? 'embedded PGlite (on disk)' : 'PostgreSQL'} | ${concurrency} | ${messages} | ${result.seconds.toFixed(2)} s | **${Math.round(result.perSecond)}** | ${result.repeats} |`;
    console.log(line);
    rows.push(line);
  }
}
console.log(
  `\nWebhook deliveries from the outbox to a receiver answering 200 on 127.0.0.1 (${messages} messages, first to last):\n`,
);
console.log('| database | JES_WEBHOOK_CONCURRENCY | messages | time | deliveries/s | repeats |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
await stopAll();
