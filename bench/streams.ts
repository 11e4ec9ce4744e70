// The event streams benchmark (`npm run bench:streams`, or `node bench/streams.ts [--quick] [--streams N]`): what
// open streams cost the server, and how soon a job's end reaches its followers.
//
// Starts the embedded server (JES_WORKERS=2, the default storage on disk, responses validated) as a child process
// with the caps on streams and connections raised, and:
//   1. Memory: the server's resident memory (VmRSS) idle, then with N streams of GET /events open (10,000 unless told;
//      each a connection of its own that reads its preamble and then waits), after they settle: the RSS above idle,
//      in all and per stream. Each stream is two file descriptors here (the benchmark's socket and the server's):
//      `ulimit -n` must allow N and some, and the run says what it found.
//   2. Latency: with 1,000 streams open (GET /events, each sent every job's status changes), jobs run one after the
//      other, each followed by a GET /job/{id}/events stream; for each, the time from its execution's end (the
//      ended timestamp in the `end` event, written by the database's clock on this machine) to the `end` event at
//      the client: p50 and p99.
// Talks to 127.0.0.1 only. Targets are printed as met / not met, never asserted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { Api } from './support/client.ts';
import { matrixBody } from './support/inputs.ts';
import { startServer, stopAll } from './support/processes.ts';
import { quick } from './support/settings.ts';

const streamsAt = process.argv.indexOf('--streams');
const streams = streamsAt < 0 ? (quick ? 2000 : 10_000) : Number(process.argv[streamsAt + 1]);
const latencyStreams = 1000;
const jobs = quick ? 50 : 200;
const mib = 1024 * 1024;

/** The process's resident memory in bytes (Linux). */
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** A stream on a socket of its own, resolved once its head and preamble came; `onData` gets what follows. */
function openStream(base: string, path: string, token: string, onData?: (text: string) => void): Promise<Socket> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`),
    );
    let head = '';
    let open = false;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      if (open) return onData?.(text);
      head += text;
      const at = head.indexOf('retry: 1000\n\n');
      if (at < 0) return;
      open = true;
      if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(head.slice(0, 300)));
      resolve(socket);
      const rest = head.slice(at + 'retry: 1000\n\n'.length);
      if (rest) onData?.(rest);
    });
    socket.on('error', reject);
  });
}

async function openMany(base: string, token: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += 250)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(250, count - i) }, () => openStream(base, '/events', token)),
      )),
    );
  return sockets;
}

/** From a job's start to its `end` event: ms from its last execution's end to the event's arrival. */
async function followOne(api: Api, body: string): Promise<number> {
  const id = await api.start(body, '?solver=exact');
  return new Promise((resolve, reject) => {
    let buffer = '';
    let socket: Socket | undefined;
    void openStream(api.base, `/job/${id}/events`, api.token, (text) => {
      buffer += text;
      const at = buffer.indexOf('event: end\ndata: ');
      if (at < 0) return;
      const line = buffer.indexOf('\n', at + 'event: end\ndata: '.length);
      if (line < 0) return;
      const arrived = Date.now();
      socket?.destroy();
      const job = JSON.parse(buffer.slice(at + 'event: end\ndata: '.length, line)).job[id];
      const ended = Math.max(...Object.values<any>(job.executions).map((e) => Date.parse(e.timestamps.ended)));
      resolve(arrived - ended);
    }).then((s) => (socket = s), reject);
  });
}

async function main(): Promise<void> {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  console.log(`# Event streams: ${streams} streams (memory), ${latencyStreams} streams and ${jobs} jobs (latency)`);
  console.log(`ulimit -n: ${limit} (each stream takes a descriptor in this process and one in the server's)`);
  if (limit < streams + 500) {
    console.log(`raise it first (ulimit -n ${streams + 1000}) or pass --streams ${Math.max(100, limit - 1000)}`);
    process.exitCode = 1;
    return;
  }
  const server = await startServer(2, {
    JES_MAX_STREAMS_PER_USER: String(streams + 100),
    JES_MAX_CONNECTIONS: String(streams + 200),
    JES_MAX_CONNECTIONS_PER_ADDRESS: String(streams + 200),
  });
  try {
    const api = new Api(server.url);
    await api.login();
    const pid = server.child.pid!;
    // A few jobs first, so the idle figure includes what serving them made (code loaded, caches started).
    const body = matrixBody(8, 1, 9);
    for (let i = 0; i < 5; i++) await followOne(api, body);
    await sleep(3000);
    const idle = rss(pid);
    const started = performance.now();
    const open = await openMany(server.url, api.token, streams);
    const openSeconds = (performance.now() - started) / 1000;
    await sleep(5000);
    const loaded = rss(pid);
    const above = loaded - idle;
    console.log(`\n## Memory: ${streams} open streams (GET /events), embedded server`);
    console.log(`| RSS idle | RSS with the streams | above idle | per stream | opened in |`);
    console.log(`|---:|---:|---:|---:|---:|`);
    console.log(
      `| ${(idle / mib).toFixed(0)} MiB | ${(loaded / mib).toFixed(0)} MiB | ${(above / mib).toFixed(0)} MiB | ${(above / streams / 1024).toFixed(1)} KiB | ${openSeconds.toFixed(1)} s |`,
    );
    const target = (500 * streams) / 10_000;
    console.log(`target ≤ ${target.toFixed(0)} MiB above idle: ${above / mib <= target ? 'met' : 'not met'}`);
    for (const socket of open.slice(latencyStreams)) socket.destroy();
    await sleep(2000);

    const latencies: number[] = [];
    for (let i = 0; i < jobs; i++) latencies.push(await followOne(api, matrixBody(8, i + 2, 9)));
    latencies.sort((a, b) => a - b);
    console.log(`\n## Latency: execution's end → \`end\` event at the client, ${latencyStreams} streams open`);
    console.log(`| jobs | p50 | p99 | max |`);
    console.log(`|---:|---:|---:|---:|`);
    console.log(
      `| ${jobs} | ${percentile(latencies, 0.5)} ms | ${percentile(latencies, 0.99)} ms | ${latencies.at(-1)} ms |`,
    );
    for (const socket of open.slice(0, latencyStreams)) socket.destroy();
  } finally {
    await stopAll();
  }
}

await main();
