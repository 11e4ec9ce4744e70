// The store-growth benchmark (`npm run bench:store`, or `node bench/store-growth.ts [--quick] [--only <text>]`): do
// the reads and the submit stay as fast with 100,000 ended jobs in the store as with next to none (issue 15, item 5)?
//
// For each database (embedded PGlite in a folder on disk; PostgreSQL when one answers at 127.0.0.1:5432) and each
// store (a small one, with one full first page of jobs per user, and a seeded one), it fills the store directly
// through the store module (bench/support/seed-store.ts: bulk INSERT … SELECT, then VACUUM ANALYZE and CHECKPOINT),
// starts a server on each as child processes (JES_WORKERS=0: the seeded RUNNING job keeps its lease, submitted jobs
// stay PENDING, and no solver thread competes for the cores), and measures with autocannon, request by request, in
// the order small, seeded, seeded, small: GET /job/{id} of the FINISHED job (kept in the server's memory once read)
// and of the RUNNING one (read from the database, at most every half second), the first page of GET /job and of
// GET /job?status=RUNNING, and POST /problem/maxcut of a tiny 8-node body (last: its jobs add to the store).
// Prints a markdown table; targets are printed, never asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../server/src/store/database.ts';
import { agent, Api } from './support/client.ts';
import { matrixBody } from './support/inputs.ts';
import { node, serverCli } from '../test/support/child-server.ts';
import { serverEnv, startProcess, stopAll } from './support/processes.ts';
import { freshDatabase } from './support/seed-postgres.ts';
import { prepareStore, type SeedCounts, seedOwners, seedReadFixtures, seedStore } from './support/seed-store.ts';
import { quick, settings, user } from './support/settings.ts';

const stores: { label: string; counts: SeedCounts }[] = [
  // 25 jobs a user: a full first page (20), so both stores render the same page.
  { label: 'empty', counts: { jobs: 25 * seedOwners.length, dataFiles: 2 * seedOwners.length } },
  { label: 'seeded', counts: { jobs: 100_000, dataFiles: 10_000 } },
];
const target = 1.3;
/** `--only <text>`: only the measures whose label contains it. */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

if (seedOwners[0] !== user.username) throw new Error('the seed’s first owner must be the benchmark’s user');

// ---------------------------------------------------------------------------------------------------
// Measuring

interface Load {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function cannon(
  url: string,
  options: { headers: Record<string, string>; method?: 'GET' | 'POST'; body?: string },
  seconds: number,
): Promise<Load> {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`refusing to load ${url}`);
  const result = await autocannon({ url, connections: settings.connections, duration: seconds, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/** Runs of one request on one store: their mean rate, the worse p99. */
function combine(loads: Load[]): Load {
  const mean = (f: (l: Load) => number) => loads.reduce((sum, l) => sum + f(l), 0) / loads.length;
  return {
    rps: mean((l) => l.rps),
    p50: mean((l) => l.p50),
    p99: Math.max(...loads.map((l) => l.p99)),
    bad: loads.reduce((sum, l) => sum + l.bad, 0),
  };
}

interface Measure {
  label: string;
  path: string;
  method?: 'POST';
  body?: string;
}

function measures(ids: { finished: string; running: string }): Measure[] {
  return [
    { label: 'GET /job/{id}, FINISHED job', path: `/job/${ids.finished}` },
    { label: 'GET /job/{id}, RUNNING job', path: `/job/${ids.running}` },
    { label: 'GET /job, first page', path: '/job' },
    { label: 'GET /job?status=RUNNING, first page', path: '/job?status=RUNNING' },
    // Last: every request adds a job.
    {
      label: 'POST /problem/maxcut, 8 nodes inline (submit)',
      path: '/problem/maxcut',
      method: 'POST',
      body: matrixBody(8, 7, 9),
    },
  ];
}

interface StoreFigures {
  seedSeconds: number;
  loads: Map<string, Load>;
}

type Where = { DATABASE_URL: string } | { JES_DATA_DIR: string };

/** Fills a store through the store module; answers the jobs the GETs read. */
async function fill(
  where: Where,
  counts: SeedCounts,
): Promise<{ ids: { finished: string; running: string }; seconds: number }> {
  const t0 = performance.now();
  const db = await openDatabase(
    'DATABASE_URL' in where
      ? { databaseUrl: where.DATABASE_URL, dataDir: 'memory:' }
      : { databaseUrl: undefined, dataDir: where.JES_DATA_DIR },
  );
  try {
    await prepareStore(db);
    await seedStore(db, counts);
    return { ids: await seedReadFixtures(db), seconds: (performance.now() - t0) / 1000 };
  } finally {
    await db.close();
  }
}

/**
 * Fills each store, starts a server on each, then measures request by request, each on every store in turn (a
 * warm-up first), so that what else the machine does drifts over both alike.
 */
async function measureStores(wheres: Where[]): Promise<StoreFigures[]> {
  const filled = [];
  for (const [i, where] of wheres.entries()) filled.push(await fill(where, stores[i]!.counts));
  const servers = [];
  try {
    for (const where of wheres)
      servers.push(
        await startProcess('jes server (JES_WORKERS=0)', node(serverCli), serverEnv({ JES_WORKERS: '0', ...where })),
      );
    const apis = servers.map((server) => new Api(server.url));
    for (const api of apis) await api.login();
    const figures = filled.map((f) => ({ seedSeconds: f.seconds, loads: new Map<string, Load>() }));
    const plans = filled.map((f) => measures(f.ids));
    for (const [m, { label }] of plans[0]!.entries()) {
      if (only && !label.includes(only)) continue;
      const runs: Load[][] = apis.map(() => []);
      // A B B A (a warm-up before each store's first run): a drift of the machine's load weighs on both alike.
      for (const i of [0, 1, 1, 0]) {
        const api = apis[i]!;
        const { path, method, body } = plans[i]![m]!;
        const options = {
          headers: { ...api.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(method ? { method } : {}),
          ...(body ? { body } : {}),
        };
        if (runs[i]!.length === 0) await cannon(api.base + path, options, settings.warmupSeconds);
        runs[i]!.push(await cannon(api.base + path, options, settings.durationSeconds));
      }
      runs.forEach((loads, i) => figures[i]!.loads.set(label, combine(loads)));
    }
    return figures;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

interface DatabaseFigures {
  name: string;
  stores: StoreFigures[];
}

async function embedded(): Promise<DatabaseFigures> {
  const dirs = await Promise.all(stores.map(() => mkdtemp(join(os.tmpdir(), 'jes-bench-store-'))));
  try {
    return {
      name: 'embedded PGlite (on disk)',
      stores: await measureStores(dirs.map((dir) => ({ JES_DATA_DIR: dir }))),
    };
  } finally {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

async function postgres(): Promise<DatabaseFigures | string> {
  const databases: { url: string; drop(): Promise<void> }[] = [];
  try {
    for (const _ of stores) {
      const fresh = await freshDatabase();
      if ('skip' in fresh) return fresh.skip;
      databases.push(fresh);
    }
    return { name: 'PostgreSQL', stores: await measureStores(databases.map((d) => ({ DATABASE_URL: d.url }))) };
  } finally {
    for (const database of databases) await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Report

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const cell = (l: Load) => `${int(l.rps)} req/s (p99 ${l.p99} ms)${l.bad ? `, ${l.bad} non-2xx/errors` : ''}`;

function table(figures: DatabaseFigures): string[] {
  const [empty, seeded] = figures.stores as [StoreFigures, StoreFigures];
  const out = [
    `### ${figures.name}`,
    '',
    `Seeding through the store module: ${empty.seedSeconds.toFixed(1)} s (empty), ${seeded.seedSeconds.toFixed(1)} s (seeded).`,
    '',
    `| Measure | empty | seeded | ratio (empty / seeded req/s) | target ≤ ${target}× | |`,
    '|---|---:|---:|---:|---|---|',
  ];
  for (const [label, a] of empty.loads) {
    const b = seeded.loads.get(label)!;
    const ratio = a.rps / b.rps;
    const ok = ratio <= target && !a.bad && !b.bad;
    out.push(
      `| ${label} | ${cell(a)} | ${cell(b)} | ${ratio.toFixed(2)}× | ≤ ${target}× | ${ok ? 'met' : '**not met**'} |`,
    );
  }
  return [...out, ''];
}

async function main(): Promise<void> {
  const started = new Date();
  const cpus = os.cpus();
  const [empty, seeded] = stores as [(typeof stores)[0], (typeof stores)[0]];
  const out: string[] = [`## jes store-growth benchmark${quick ? ' (--quick)' : ''}`, ''];
  out.push(
    `- Node ${process.version}, ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}`,
    `- ${started.toISOString()}`,
    `- empty: ${int(empty.counts.jobs)} FINISHED jobs and ${int(empty.counts.dataFiles)} data files over ${seedOwners.length} users (a full first page each); ` +
      `seeded: ${int(seeded.counts.jobs)} FINISHED jobs with their executions and ${int(seeded.counts.dataFiles)} READY data files over the same users; ` +
      'both with the FINISHED and the RUNNING job the GETs read',
    `- autocannon -c ${settings.connections}, ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s per measure, load generator on the same machine; ` +
      'server JES_WORKERS=0, LOG_LEVEL=warn, rate limits off, response validation on',
    '',
  );
  out.push(...table(await embedded()));
  const pg = await postgres();
  if (typeof pg === 'string') out.push('### PostgreSQL', '', `Skipped: ${pg}.`, '');
  else out.push(...table(pg));
  out.push(`Total run time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`);
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  agent.destroy();
  await stopAll();
}
