// The sandbox benchmark (`npm run bench:sandbox`, or `node bench/sandbox.ts [--quick] [--starts N] [--memory-only]`),
// issue 30's "Measure and report".
//
// In one run, on loopback, every server a child process on a free port:
//   1. Requests per second, rounds alternating the order of three servers (a fresh one of each per round): the
//      stateful sandbox (sandbox/src/cli.ts with a --seed and a high --speed, so that jobs end at once), the
//      stateless one (--stateless, the contract's examples) and the stock Prism mock of the same contract
//      (bench/prism-mock.ts). On each, autocannon on GET /job/{id} of a FINISHED job (the stateful sandbox's own
//      job, of another user than the starts; the contract's example id elsewhere), then on job starts
//      (POST /problem/maxcut with the contract's 6-node example, MaxCutInput). Printed: req/s, p99 and the
//      server's main-thread CPU per request of every round, then medians and ranges, and the ratio to Prism per
//      round (median and range).
//   2. Memory: the stateful sandbox with its default caps and N job starts (100,000 unless told) spread over
//      20 users, a pool of requests in flight; its resident size (VmRSS), V8's heap and its live part
//      (bench/support/memory-probe.ts, garbage collected on a signal once the rest is read) and the jobs its listings
//      show after start and at checkpoints, so that the cap shows as a flat line.
// The sandbox prints two lines per request, as users run it; the child starter reads them (test/support/
// child-server.ts), in this process, which also runs autocannon. Figures are printed, never asserted.
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readContract } from '@jes/contract/node';
import { agent, Api, send } from './support/client.ts';
import { type Load, measure, median } from './support/load.ts';
import { startProcess, stopAll } from './support/processes.ts';
import { anyBearer, exampleJobPath, prismVersion, startPrism } from './support/prism.ts';
import { type MemoryCheckpoint, startsAndMemory } from './support/sandbox-memory.ts';
import { quick, settings } from './support/settings.ts';
import { type ChildServer, node, sandboxCli } from '../test/support/child-server.ts';

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    starts: { type: 'string' },
    'memory-only': { type: 'boolean', default: false },
  },
});
const starts = Number(options.starts ?? (quick ? 20_000 : 100_000));
if (!Number.isInteger(starts) || starts < 100 || starts > 10_000_000) {
  console.error(`--starts must be a whole number from 100 to 10,000,000, got "${options.starts}"`);
  process.exit(2);
}
const seed = '30';
/** Simulated seconds per wall second: a job's PENDING and its 10 s run take well under a millisecond. */
const speed = '100000';
const users = 20;
const inFlight = 32;
const body = JSON.stringify(readContract().components.examples.MaxCutInput!.value);
const jsonHeaders = { 'content-type': 'application/json' };

// ---------------------------------------------------------------------------------------------------
// Requests per second

interface Target {
  name: string;
  start(): Promise<ChildServer>;
  /** The path and headers of the GET, and the headers of the starts, on a started server. */
  prepare(url: string): Promise<{ path: string; get: Record<string, string>; post: Record<string, string> }>;
}

const targets: Target[] = [
  {
    name: 'sandbox (stateful)',
    start: () => startProcess('jes sandbox', node(sandboxCli, '--port', '0', '--seed', seed, '--speed', speed)),
    async prepare(url) {
      const reader = new Api(url);
      await reader.login({ username: 'bench-reader', password: 'any' });
      const id = await reader.start(body);
      await reader.waitFor(id, (status) => status === 'FINISHED', 30);
      const starter = new Api(url);
      await starter.login({ username: 'bench-starter', password: 'any' });
      return { path: `/job/${id}`, get: reader.auth, post: { ...starter.auth, ...jsonHeaders } };
    },
  },
  {
    name: 'sandbox --stateless',
    start: () => startProcess('jes sandbox --stateless', node(sandboxCli, '--port', '0', '--stateless')),
    prepare: async () => ({ path: exampleJobPath, get: anyBearer, post: { ...anyBearer, ...jsonHeaders } }),
  },
  {
    name: `stock Prism ${prismVersion()} mock`,
    start: startPrism,
    prepare: async () => ({ path: exampleJobPath, get: anyBearer, post: { ...anyBearer, ...jsonHeaders } }),
  },
];

interface Round {
  target: string;
  order: string;
  load: number;
  get: Load;
  post: Load;
  bytes: { get: number; post: number };
}

async function measureTarget(target: Target, order: string): Promise<Round> {
  const server = await target.start();
  try {
    const { path, get, post } = await target.prepare(server.url);
    // One of each first: both must answer 200, or the figures would be of refusals.
    const sampleGet = await send(server.url, 'GET', path, { headers: get });
    const samplePost = await send(server.url, 'POST', '/problem/maxcut', { headers: post, body });
    for (const [what, reply] of [
      [`GET ${path}`, sampleGet],
      ['POST /problem/maxcut', samplePost],
    ] as const)
      if (reply.status !== 200) throw new Error(`${target.name}: ${what}: ${reply.status} ${reply.body}`);
    const pid = server.child.pid;
    const load = os.loadavg()[0]!;
    return {
      target: target.name,
      order,
      load,
      get: await measure(`${server.url}${path}`, get, pid),
      post: await measure(`${server.url}/problem/maxcut`, post, pid, { method: 'POST', body }),
      bytes: { get: sampleGet.body.length, post: samplePost.body.length },
    };
  } finally {
    await server.stop();
  }
}

async function rounds(): Promise<Round[][]> {
  const all: Round[][] = [];
  for (let round = 0; round < settings.rounds; round++) {
    const ordered = round % 2 === 0 ? targets : [...targets].reverse();
    const measured: Round[] = [];
    for (const [i, target] of ordered.entries()) measured.push(await measureTarget(target, `${i + 1}/3`));
    all.push(targets.map((t) => measured.find((m) => m.target === t.name)!));
  }
  return all;
}

// ---------------------------------------------------------------------------------------------------
// Memory

async function memory(): Promise<MemoryCheckpoint[]> {
  const probeFile = join(mkdtempSync(join(tmpdir(), 'jes-sandbox-bench-')), 'memory.json');
  const probe = fileURLToPath(new URL('./support/memory-probe.ts', import.meta.url));
  // --expose-gc for the probe's collection on SIGUSR2 only: no collection is forced while the starts run.
  const sandbox = await startProcess(
    'jes sandbox (memory)',
    node(sandboxCli, '--port', '0', '--seed', seed, '--speed', speed),
    { NODE_OPTIONS: `--import=${JSON.stringify(probe)} --expose-gc`, MEMORY_PROBE_FILE: probeFile },
  );
  try {
    const tokens: string[] = [];
    for (let i = 0; i < users; i++) {
      const api = new Api(sandbox.url);
      await api.login({ username: `bench-${i}`, password: 'any' });
      tokens.push(api.token);
    }
    const checkpoints = [0.1, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * starts));
    return await startsAndMemory(sandbox, probeFile, tokens, body, checkpoints, inFlight);
  } finally {
    await sandbox.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Report

const int = (x: number) => Math.round(x).toLocaleString('en-US');
/** The median, then the range in brackets, the unit once. */
const range = (xs: number[], f: (x: number) => string, unit = '') =>
  `${f(median(xs))}${unit} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
const mibOf = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : (bytes / 1024 / 1024).toFixed(1));
const us = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(0)} µs`);

function reportRounds(out: string[], all: Round[][]): void {
  out.push(
    `### Requests per second, ${all.length} rounds (a fresh server of each per round, the order reversed every other round)`,
    '',
    '| Round | Server (order) | load avg | GET /job/{id}: req/s | p99 | CPU/req | POST /problem/maxcut: req/s | p99 | CPU/req | non-2xx/errors (GET / POST) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  all.forEach((round, r) => {
    for (const m of round)
      out.push(
        `| ${r + 1} | ${m.target} (${m.order}) | ${m.load.toFixed(2)} | ${int(m.get.rps)} | ${m.get.p99} ms | ${us(m.get.cpuPerRequest)} | ${int(m.post.rps)} | ${m.post.p99} ms | ${us(m.post.cpuPerRequest)} | ${m.get.bad} / ${m.post.bad} |`,
      );
  });
  out.push(
    '',
    `### Medians (range) over the rounds; the ratios to Prism are taken round by round`,
    '',
    '| Server | GET /job/{id}: req/s | ÷ Prism | p99 | CPU/req | ÷ Prism | POST /problem/maxcut: req/s | ÷ Prism | p99 | CPU/req | ÷ Prism | answer bytes (GET / POST) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const prism = targets.length - 1;
  const x = (v: number) => v.toFixed(2);
  targets.forEach((target, t) => {
    const of = all.map((round) => round[t]!);
    const cells = (op: 'get' | 'post') => {
      const rps = (m: Round) => m[op].rps;
      const cpu = (m: Round) => m[op].cpuPerRequest ?? NaN;
      const perRound = (f: (m: Round) => number) => all.map((round) => f(round[t]!) / f(round[prism]!));
      const ratio = (f: (m: Round) => number) => (t === prism ? '' : range(perRound(f), x, '×'));
      const p99s = of.map((m) => m[op].p99);
      return [
        range(of.map(rps), int),
        ratio(rps),
        range(p99s, String, ' ms'),
        range(of.map(cpu), int, ' µs'),
        ratio(cpu),
      ];
    };
    out.push(
      `| ${[target.name, ...cells('get'), ...cells('post'), `${of[0]!.bytes.get} / ${of[0]!.bytes.post}`].join(' | ')} |`,
    );
  });
}

function reportMemory(out: string[], checkpoints: MemoryCheckpoint[]): void {
  out.push(
    '',
    `### Memory: ${int(starts)} job starts on the stateful sandbox with its default caps (--max-jobs 10,000, --max-jobs-per-user 1,000, --max-active-jobs 50), ${users} users in turn, ${inFlight} in flight; RSS and heap read with the starts paused, then the live heap once the sandbox has collected garbage (SIGUSR2 to the probe), then the listings`,
    '',
    '| Job starts | starts/s | RSS MiB | heap used MiB | heap size MiB | live heap MiB | jobs held (listings) | by status | answers so far | load avg |',
    '|---:|---:|---:|---:|---:|---:|---:|---|---|---:|',
  );
  for (const c of checkpoints) {
    const statuses = Object.entries(c.byStatus)
      .map(([status, n]) => `${status} ${int(n)}`)
      .join(', ');
    const answers = Object.entries(c.answers)
      .map(([code, n]) => `${code}: ${int(n)}`)
      .join(', ');
    out.push(
      `| ${int(c.starts)} | ${c.starts ? int(c.perSecond) : ''} | ${mibOf(c.rss)} | ${mibOf(c.heapUsed)} | ${mibOf(c.heapTotal)} | ${mibOf(c.liveHeap)} | ${int(c.held)} | ${statuses} | ${answers} | ${c.load.toFixed(2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const started = new Date();
  const cpus = os.cpus();
  const out: string[] = [];
  out.push(`## jes sandbox benchmark${quick ? ' (--quick)' : ''}`, '');
  out.push(
    `- Node ${process.version}, ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}`,
  );
  out.push(
    `- ${started.toISOString()}, load average at the start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  out.push(
    `- autocannon -c ${settings.connections}, ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s per measure, load generator in the bench process on the same machine; ` +
      `the stateful sandbox with --seed ${seed} --speed ${speed} (jobs end within a millisecond), its GET of a FINISHED job of its own; the stateless sandbox and Prism on the contract's example id; ` +
      `starts of the contract's 6-node example (${body.length} B); the sandboxes log two lines per request to a pipe this process reads, Prism logs nothing`,
  );
  out.push('');
  if (!options['memory-only']) reportRounds(out, await rounds());
  reportMemory(out, await memory());
  out.push(
    '',
    `Load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; total run time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`,
  );
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  agent.destroy();
  await stopAll();
}
