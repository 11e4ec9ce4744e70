// The soak benchmark of the reference server (`npm run bench:soak`, or `node bench/soak.ts [--minutes N]
// [--heap-mib N] [--live-heap]`).
//
// Starts the embedded server (JES_WORKERS=2) as a child process with a temporary data directory, and drives a
// steady load of small jobs for N minutes (default 10, from 1 to 120): in each of a few loops, submit an 8-node
// job, long-poll it to its end, read its output, and delete every fifth job. Every 10 s it samples the server's
// resident memory (VmRSS in /proc/<pid>/status), what that memory is made of (V8's heap used and its size, and
// what lies outside it: the embedded database's WebAssembly memory and Buffers, read by bench/support/memory-probe.ts
// in the server) and the data directory's size, printed as a table; at the end, the target "RSS within 10 % of its
// value at minute 2 from minute 2 to the end" as met or not met (never asserted), the data directory's growth, and,
// once the server has stopped, each table's size per kept job. `--heap-mib N` runs the server with V8's heap
// limited to N MiB (`--max-old-space-size`, the setting the README gives operators); `--live-heap` collects garbage
// before each reading, so that "heap used" is the live heap (a leak shows there, V8's room to grow does not).
// Talks to 127.0.0.1 only; removes its directories on exit.
import { mkdtempSync, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { Api, send } from './support/client.ts';
import { matrixBody } from './support/inputs.ts';
import { startServer, stopAll } from './support/processes.ts';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'heap-mib': { type: 'string' },
    'live-heap': { type: 'boolean', default: false },
  },
});

function integerOption(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`--${name} must be an integer from ${min} to ${max}, got "${text}"`);
    process.exit(2);
  }
  return value;
}

const minutes = integerOption('minutes', options.minutes, 1, 120)!;
const heapMib = integerOption('heap-mib', options['heap-mib'], 64, 65_536);
const sampleMs = 10_000;
const loops = 8;
const mib = 1024 * 1024;

/** The child's resident memory in bytes (Linux /proc); undefined elsewhere. */
function rssOf(pid: number | undefined): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function bytesUnder(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
    // A file the database removes between the listing and its stat counts as gone.
    if (entry.isFile())
      total += await stat(join(entry.parentPath, entry.name)).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

/** The server's latest reading of its own memory, in MiB (bench/support/memory-probe.ts). */
interface MemoryReading {
  heapUsed: number;
  heapTotal: number;
  external: number;
}

function memoryReading(file: string): MemoryReading | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as MemoryReading;
  } catch {
    return undefined;
  }
}

interface Sample {
  seconds: number;
  rss: number | undefined;
  memory: MemoryReading | undefined;
  dir: number;
  jobs: number;
  deleted: number;
}

const counts = { jobs: 0, deleted: 0, failed: 0 };

/** One client loop: submit, long-poll to the end, read the output, delete every fifth job; until `until`. */
async function drive(api: Api, loop: number, until: number): Promise<void> {
  for (let i = 0; performance.now() < until; i++) {
    try {
      const id = await api.start(matrixBody(8, loop * 1_000_003 + i, 9), '?solver=exact');
      await api.waitFor(id, (status) => status === 'FINISHED');
      const output = await send(api.base, 'GET', `/job/${id}/output`, { headers: api.auth });
      if (output.status !== 200) throw new Error(`output ${id}: ${output.status}`);
      counts.jobs++;
      if (counts.jobs % 5 === 0) {
        const deleted = await send(api.base, 'DELETE', `/job/${id}`, { headers: api.auth });
        if (deleted.status !== 204) throw new Error(`delete ${id}: ${deleted.status} ${deleted.body}`);
        counts.deleted++;
      }
    } catch (error) {
      counts.failed++;
      if (counts.failed <= 5) console.error(`loop ${loop}: ${(error as Error).message}`);
    }
  }
}

/**
 * Where the data directory's bytes are, read once the server has stopped: each table with its indexes and TOAST
 * (what a kept job costs, beside the write-ahead log's segments, which PostgreSQL recycles).
 */
async function printTableSizes(dataDir: string, kept: number): Promise<void> {
  const db = await PGlite.create(dataDir);
  try {
    const { rows } = await db.query<{ name: string; bytes: number; live: number }>(
      `select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes, c.reltuples::float8 as live
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by 2 desc`,
    );
    const wal = await bytesUnder(join(dataDir, 'pg_wal'));
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    const perJob = (bytes: number) => (kept ? `${(bytes / kept / 1024).toFixed(2)} KiB` : 'n/a');
    console.log(
      `\nTables with their indexes (${fmt(total)} MiB, ${perJob(total)} per kept job; the log's segments ${fmt(wal)} MiB):\n`,
    );
    console.log('| table | MiB | rows (estimate) | per kept job |');
    console.log('|---|---:|---:|---:|');
    for (const row of rows.filter((r) => r.bytes >= 64 * 1024))
      console.log(`| ${row.name} | ${fmt(row.bytes)} | ${Math.max(0, row.live)} | ${perJob(row.bytes)} |`);
  } finally {
    await db.close();
  }
}

const fmt = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : (bytes / mib).toFixed(1));

async function main(): Promise<void> {
  try {
    const probeFile = join(mkdtempSync(join(tmpdir(), 'jes-soak-')), 'memory.json');
    const nodeOptions = [
      `--import=${JSON.stringify(fileURLToPath(new URL('./support/memory-probe.ts', import.meta.url)))}`,
      heapMib === undefined ? '' : `--max-old-space-size=${heapMib}`,
      options['live-heap'] ? '--expose-gc' : '',
    ];
    const server = await startServer(2, {
      NODE_OPTIONS: nodeOptions.filter(Boolean).join(' '),
      MEMORY_PROBE_FILE: probeFile,
      ...(options['live-heap'] ? { JES_MEMORY_PROBE_GC: '1' } : {}),
    });
    const api = new Api(server.url);
    await api.login();
    console.log(
      `Soak: ${minutes} min of small jobs (${loops} loops: submit, long poll, output, every fifth deleted) on the embedded server, pid ${server.child.pid}, data in ${server.dataDir}; V8's heap ${heapMib === undefined ? "at Node's default limit" : `limited to ${heapMib} MiB`}${options['live-heap'] ? ', collected before each reading (heap used = live heap)' : ''}.\n`,
    );
    console.log(
      '| time | RSS MiB | heap used MiB | heap size MiB | outside the heap MiB (database, buffers) | data dir MiB | jobs done | deleted |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    const started = performance.now();
    const until = started + minutes * 60_000;
    const samples: Sample[] = [];
    const sample = async () => {
      const s: Sample = {
        seconds: Math.round((performance.now() - started) / 1000),
        rss: rssOf(server.child.pid),
        memory: memoryReading(probeFile),
        dir: await bytesUnder(server.dataDir),
        jobs: counts.jobs,
        deleted: counts.deleted,
      };
      samples.push(s);
      console.log(
        `| ${Math.floor(s.seconds / 60)}:${String(s.seconds % 60).padStart(2, '0')} | ${fmt(s.rss)} | ${s.memory?.heapUsed ?? 'n/a'} | ${s.memory?.heapTotal ?? 'n/a'} | ${s.memory?.external ?? 'n/a'} | ${fmt(s.dir)} | ${s.jobs} | ${s.deleted} |`,
      );
    };
    await sample();
    const timer = setInterval(() => void sample(), sampleMs);
    await Promise.all(Array.from({ length: loops }, (_, loop) => drive(api, loop, until)));
    clearInterval(timer);
    await sample();

    const fromMinute2 = samples.filter((s) => s.seconds >= 120 && s.rss !== undefined);
    const base = fromMinute2[0]?.rss;
    console.log('');
    if (base === undefined) {
      console.log(
        'Target: RSS within 10 % of its value at minute 2 from minute 2 to the end: not measured (a run of at least 2 minutes on Linux is needed)',
      );
    } else {
      const worst = Math.max(...fromMinute2.map((s) => Math.abs(s.rss! - base) / base));
      console.log(
        `Target: RSS within 10 % of its value at minute 2 from minute 2 to the end: ${worst <= 0.1 ? 'met' : 'not met'} (at minute 2 ${fmt(base)} MiB, furthest ${(worst * 100).toFixed(1)} % away, at the end ${fmt(fromMinute2.at(-1)!.rss)} MiB)`,
      );
    }
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const kept = last.jobs - last.deleted;
    console.log(
      `Data directory: ${fmt(first.dir)} MiB → ${fmt(last.dir)} MiB (${fmt(last.dir - first.dir)} MiB for ${last.jobs} jobs, ${kept} kept; ${kept ? ((last.dir - first.dir) / kept / 1024).toFixed(1) : 'n/a'} KiB per kept job)`,
    );
    console.log(
      `Jobs: ${last.jobs} done (${(last.jobs / (minutes * 60 || 1)).toFixed(1)}/s), ${last.deleted} deleted, ${counts.failed} failed`,
    );
    await server.stop();
    await printTableSizes(server.dataDir, kept);
  } finally {
    await stopAll();
  }
}

await main();
