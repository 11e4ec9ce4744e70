// The soak benchmark of the reference server (`npm run bench:soak`, or `node bench/soak.ts [--minutes N]`).
//
// Starts the embedded server (JES_WORKERS=2) as a child process with a temporary data directory, and drives a
// steady load of small jobs for N minutes (default 10, from 1 to 120): in each of a few loops, submit an 8-node
// job, long-poll it to its end, read its output, and delete every fifth job. Every 10 s it samples the server's
// resident memory (VmRSS in /proc/<pid>/status) and the data directory's size, printed as a table; at the end,
// the target "RSS within 10 % of its value at minute 2 from minute 2 to the end" as met or not met (never
// asserted), and the data directory's growth. Talks to 127.0.0.1 only; removes its directory on exit.
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Api, send } from './support/client.ts';
import { matrixBody } from './support/inputs.ts';
import { startServer, stopAll } from './support/processes.ts';

function minutesArgument(): number {
  const at = process.argv.indexOf('--minutes');
  if (at < 0) return 10;
  const minutes = Number(process.argv[at + 1]);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 120) {
    console.error(`--minutes must be an integer from 1 to 120, got "${process.argv[at + 1] ?? ''}"`);
    process.exit(2);
  }
  return minutes;
}

const minutes = minutesArgument();
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

interface Sample {
  seconds: number;
  rss: number | undefined;
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

const fmt = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : (bytes / mib).toFixed(1));

async function main(): Promise<void> {
  try {
    const server = await startServer(2);
    const api = new Api(server.base);
    await api.login();
    console.log(
      `Soak: ${minutes} min of small jobs (${loops} loops: submit, long poll, output, every fifth deleted) on the embedded server, pid ${server.proc.pid}, data in ${server.dataDir}.\n`,
    );
    console.log('| time | RSS MiB | data dir MiB | jobs done | deleted |');
    console.log('|---:|---:|---:|---:|---:|');
    const started = performance.now();
    const until = started + minutes * 60_000;
    const samples: Sample[] = [];
    const sample = async () => {
      const s: Sample = {
        seconds: Math.round((performance.now() - started) / 1000),
        rss: rssOf(server.proc.pid),
        dir: await bytesUnder(server.dataDir),
        jobs: counts.jobs,
        deleted: counts.deleted,
      };
      samples.push(s);
      console.log(
        `| ${Math.floor(s.seconds / 60)}:${String(s.seconds % 60).padStart(2, '0')} | ${fmt(s.rss)} | ${fmt(s.dir)} | ${s.jobs} | ${s.deleted} |`,
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
  } finally {
    await stopAll();
  }
}

await main();
