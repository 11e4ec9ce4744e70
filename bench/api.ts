// The API benchmark of the reference server (`npm run bench:api`, or `node bench/api.ts [--quick] [--installed]`).
//
// In one run it starts what it needs as child processes on loopback (free ports), measures, prints a
// markdown table, stops every child and exits 0. It talks to 127.0.0.1 only.
//   1. GET /job/{id} (valid bearer token) for a FINISHED job (served from the server's memory) and for a
//      RUNNING job (read from the database at most twice a second, as the server's cache keeps it for 0.5 s), with autocannon, beside a bare Express 5 app
//      (bench/bare-express.ts) serving the same JSON bytes from memory on the same path, and beside the stock
//      Prism mock engine serving openapi.yaml (bench/prism-mock.ts, its own example answer).
//   2. Tiny jobs end to end: N jobs on 8-node random graphs, bounded concurrency, each long-polled until
//      FINISHED; jobs/s and the submit→FINISHED latency. Server with JES_WORKERS=2.
//   3. Accepting a 4 MiB inline body (JES_WORKERS=0, so nothing runs the jobs): median request time beside
//      the median time of Buffer→string→JSON.parse of the same bytes in this process.
// The servers keep response validation on (JES_VALIDATE_RESPONSES=on): the figures are "validation both
// ways". They run on the embedded database in a fresh folder on disk, the default storage (bench/support/processes.ts).
// Targets are printed as met / not met, never asserted.
// With --installed, the server is the one users get: the workspaces packed, @jes/server's tarball installed into a
// fresh project outside the repository (bench/support/installed.ts), its bin run. The run first measures GET /job/{id}
// of a FINISHED job on this clone's server and on the installed one, alternated round by round under the same load,
// then every measure above on the installed server.
// With --observability, only a side-by-side of GET /job/{id} of a FINISHED job with metrics on and off and tracing on
// and off (JES_METRICS=on|off; OTEL_EXPORTER_OTLP_ENDPOINT at a sink the benchmark runs): bench/support/observability.ts.
import os from 'node:os';
import { agent, Api, json, send } from './support/client.ts';
import { bigBody, matrixBody } from './support/inputs.ts';
import { installServer } from './support/installed.ts';
import { type Load, measure, median } from './support/load.ts';
import { startBare, startServer, stopAll } from './support/processes.ts';
import { observabilityBenchmark, observabilityReport } from './support/observability.ts';
import { measurePrismGet } from './support/prism.ts';
import { runTinyJobs, type TinyJobFigures } from './support/tiny-jobs.ts';
import { installed, quick, settings } from './support/settings.ts';

const observability = process.argv.includes('--observability');

// ---------------------------------------------------------------------------------------------------
// Measuring

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const measureGet = (url: string, headers: Record<string, string>, pid: number | undefined) =>
  measure(url, headers, pid);

interface GetFigures {
  label: string;
  server: Load;
  bare: Load;
  bytes: number;
}

/** GET /job/{id} on the server, then the same bytes from a bare Express app in a child process. */
async function compareGet(label: string, api: Api, id: string, pid: number | undefined): Promise<GetFigures> {
  const sample = await api.get(id);
  if (sample.status !== 200) throw new Error(`GET /job/${id}: ${sample.status} ${sample.body}`);
  const server = await measureGet(`${api.base}/job/${id}`, api.auth, pid);
  const bare = await startBare(sample.body);
  try {
    const check = await send(bare.url, 'GET', `/job/${id}`);
    if (!check.body.equals(sample.body)) throw new Error('the bare app does not answer the same bytes');
    return {
      label,
      server,
      bare: await measureGet(`${bare.url}/job/${id}`, {}, bare.child.pid),
      bytes: sample.body.length,
    };
  } finally {
    await bare.stop();
  }
}

async function getBenchmark(script?: string): Promise<GetFigures[]> {
  const server = await startServer(2, {}, script);
  try {
    const api = new Api(server.url);
    await api.login();
    const finished = await api.start(matrixBody(8, 7, 9));
    await api.waitFor(finished, (s) => s === 'FINISHED');
    const figures = [await compareGet('FINISHED', api, finished, server.child.pid)];

    const running = await api.start(matrixBody(8, 8, 9), '?solver=local-search&time_limit_seconds=3600');
    await api.waitFor(running, (s) => s === 'RUNNING');
    try {
      figures.push(await compareGet('RUNNING', api, running, server.child.pid));
      const still = json(await api.get(running)).job[running].status;
      if (still !== 'RUNNING') throw new Error(`the running job became ${still} during the benchmark`);
    } finally {
      await api.cancel(running);
      await api.waitFor(running, (s) => s === 'CANCELLED', 30);
    }
    return figures;
  } finally {
    await server.stop();
  }
}

async function jobBenchmark(script?: string): Promise<TinyJobFigures> {
  const server = await startServer(2, {}, script);
  try {
    const api = new Api(server.url);
    await api.login();
    return await runTinyJobs(api);
  } finally {
    await server.stop();
  }
}

interface BigFigures {
  bytes: number;
  n: number;
  accept: number[];
  parse: number[];
}

async function bigBenchmark(script?: string): Promise<BigFigures> {
  const { body, n } = bigBody();
  // JSON.parse of the same bytes, in this process: Buffer → string → JSON.parse (one warm-up run).
  const parse: number[] = [];
  for (let i = 0; i <= settings.parseRuns; i++) {
    const t0 = performance.now();
    const value = JSON.parse(body.toString('utf8')) as { num_nodes: number };
    const t1 = performance.now();
    if (value.num_nodes !== n) throw new Error('parse check failed');
    if (i > 0) parse.push(t1 - t0);
  }

  const server = await startServer(0, {}, script);
  try {
    const api = new Api(server.url);
    await api.login();
    const accept: number[] = [];
    const headers = { ...api.auth, 'content-type': 'application/json' };
    for (let i = 0; i <= settings.bigRuns; i++) {
      const t0 = performance.now();
      const reply = await send(api.base, 'POST', '/problem/maxcut', { headers, body });
      const t1 = performance.now();
      if (reply.status !== 200) throw new Error(`4 MiB POST: ${reply.status} ${reply.body.subarray(0, 500)}`);
      if (i > 0) accept.push(t1 - t0); // the first is a warm-up
      await sleep(50);
    }
    return { bytes: body.length, n, accept, parse };
  } finally {
    await server.stop();
  }
}

interface Side {
  name: string;
  script: string | undefined;
  loads: Load[];
}

/**
 * GET /job/{id} of a FINISHED job on each server in turn, `settings.rounds` times, the order swapped every round (so
 * neither always runs first, or after the other has warmed the machine); a fresh server of each per round.
 */
async function sideBySide(installedScript: string): Promise<Side[]> {
  const sides: Side[] = [
    { name: 'clone', script: undefined, loads: [] },
    { name: 'installed', script: installedScript, loads: [] },
  ];
  for (let round = 0; round < settings.rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const server = await startServer(2, {}, side.script);
      try {
        const api = new Api(server.url);
        await api.login();
        const finished = await api.start(matrixBody(8, 7, 9));
        await api.waitFor(finished, (s) => s === 'FINISHED');
        side.loads.push(await measureGet(`${api.base}/job/${finished}`, api.auth, server.child.pid));
      } finally {
        await server.stop();
      }
    }
  }
  return sides;
}

// ---------------------------------------------------------------------------------------------------
// Report

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

async function main(): Promise<void> {
  const started = new Date();
  const cpus = os.cpus();
  const out: string[] = [];
  out.push(
    `## jes API benchmark${quick ? ' (--quick)' : ''}${installed ? ' (--installed)' : ''}${observability ? ' (--observability)' : ''}`,
    '',
  );
  out.push(
    `- Node ${process.version}, ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}`,
  );
  out.push(`- ${started.toISOString()}`);
  out.push(
    `- GET: autocannon -c ${settings.connections}, ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s, load generator in the bench process on the same machine; ` +
      `server JES_WORKERS=2, embedded database on disk, LOG_LEVEL=warn, rate limits off, response validation on; ` +
      (observability
        ? 'the job a FINISHED one served from memory'
        : `the RUNNING job is a local-search run, whose solver thread keeps one of the cores busy during both its measurements (jes and bare)`),
  );
  if (!observability)
    out.push(
      `- Tiny jobs: ${settings.jobWarmup} warm-up jobs first (not counted); 4 MiB: one warm-up POST and one warm-up parse first (not counted)`,
    );
  out.push('');

  if (observability) {
    out.push(...observabilityReport(await observabilityBenchmark()));
    out.push('', `Total run time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`);
    console.log(out.join('\n'));
    return;
  }
  const server = installed ? await installServer() : undefined;
  try {
    if (server) reportSideBySide(out, await sideBySide(server.script));
    await report(out, server?.script);
  } finally {
    server?.remove();
  }
  out.push('');
  out.push(`Total run time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`);
  console.log(out.join('\n'));
}

function reportSideBySide(out: string[], sides: Side[]): void {
  const [clone, inst] = sides as [Side, Side];
  const us = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(0)} µs`);
  out.push(
    `### GET /job/{id}, FINISHED job: this clone's server and the installed package, ${settings.rounds} rounds alternated`,
    '',
    '| Round | clone: req/s | clone: CPU per request | installed: req/s | installed: CPU per request | installed / clone (CPU) |',
    '|---|---:|---:|---:|---:|---:|',
  );
  const cpuRatio = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined ? (a / b).toFixed(2) : '';
  clone.loads.forEach((c, i) => {
    const n = inst.loads[i]!;
    const bad = c.bad || n.bad ? ` (non-2xx/errors: ${c.bad} / ${n.bad})` : '';
    out.push(
      `| ${i + 1}${i % 2 ? ' (installed first)' : ''}${bad} | ${int(c.rps)} | ${us(c.cpuPerRequest)} | ${int(n.rps)} | ${us(n.cpuPerRequest)} | ${cpuRatio(n.cpuPerRequest, c.cpuPerRequest)} |`,
    );
  });
  const cpus = (side: Side) => side.loads.flatMap((l) => (l.cpuPerRequest === undefined ? [] : [l.cpuPerRequest]));
  const mc = median(cpus(clone));
  const mi = median(cpus(inst));
  out.push(
    `| median | ${int(median(clone.loads.map((l) => l.rps)))} | ${us(mc)} | ${int(median(inst.loads.map((l) => l.rps)))} | ${us(mi)} | ${cpuRatio(mi, mc)} |`,
  );
  out.push('', 'Every measure below is of the installed server.', '');
}

async function report(out: string[], script: string | undefined): Promise<void> {
  const gets = await getBenchmark(script);
  const prism = await measurePrismGet(measureGet);
  const jobs = await jobBenchmark(script);
  const big = await bigBenchmark(script);

  out.push('| Measure | jes | Reference | jes / reference | Target | |');
  out.push('|---|---:|---:|---:|---|---|');
  for (const g of gets) {
    const ratio = g.server.rps / g.bare.rps;
    const errors = g.server.bad || g.bare.bad ? ` (non-2xx/errors: ${g.server.bad} / ${g.bare.bad})` : '';
    out.push(
      `| GET /job/{id}, ${g.label} job (${g.bytes} B): req/s${errors} | ${int(g.server.rps)} | ${int(g.bare.rps)} (bare Express 5) | ${ratio.toFixed(2)} | ≥ 0.50 of bare Express | ${met(ratio >= 0.5)} |`,
    );
    out.push(
      `| GET /job/{id}, ${g.label} job: p50 / p99 latency | ${g.server.p50} / ${g.server.p99} ms | ${g.bare.p50} / ${g.bare.p99} ms | ${(g.server.p99 / Math.max(1, g.bare.p99)).toFixed(1)} (p99) | | |`,
    );
    const us = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(0)} µs`);
    const cpuRatio =
      g.server.cpuPerRequest !== undefined && g.bare.cpuPerRequest
        ? (g.server.cpuPerRequest / g.bare.cpuPerRequest).toFixed(1)
        : '';
    out.push(
      `| GET /job/{id}, ${g.label} job: main-thread CPU per request | ${us(g.server.cpuPerRequest)} | ${us(g.bare.cpuPerRequest)} | ${cpuRatio} | | |`,
    );
  }
  // Prism answers its FINISHED example, on an otherwise idle machine: beside the FINISHED figure (the RUNNING one is
  // measured with a solver thread busy on one of the cores).
  const finishedGet = gets.find((g) => g.label === 'FINISHED')!;
  const prismRatio = finishedGet.server.rps / prism.load.rps;
  out.push(
    `| GET /job/{id}, FINISHED job: req/s beside the stock Prism ${prism.version} mock (its ${prism.bytes} B example; non-2xx/errors: ${finishedGet.server.bad} / ${prism.load.bad}) | ${int(finishedGet.server.rps)} | ${int(prism.load.rps)} (Prism mock) | ${prismRatio.toFixed(1)}× | ≥ 5× Prism | ${met(prismRatio >= 5 && finishedGet.server.bad + prism.load.bad === 0)} |`,
  );
  const failed = jobs.failed ? ` (${jobs.failed} not FINISHED)` : '';
  out.push(
    `| Tiny jobs (8 nodes, exact), ${jobs.jobs} jobs, ${settings.inFlight} in flight: jobs/s${failed} | ${jobs.perSecond.toFixed(0)} | | | ≥ 200 jobs/s | ${met(jobs.perSecond >= 200 && jobs.failed === 0)} |`,
  );
  out.push(`| Tiny jobs: submit → FINISHED p50 / p99 | ${ms(jobs.p50)} / ${ms(jobs.p99)} ms | | | | |`);
  out.push(`| Tiny jobs: first submit → last FINISHED | ${jobs.seconds.toFixed(2)} s | | | | |`);
  const accept = median(big.accept);
  const parse = median(big.parse);
  out.push(
    `| Accept a ${int(big.bytes)}-byte inline body (n = ${big.n}), median of ${big.accept.length} (min–max) | ${ms(accept)} ms (${ms(Math.min(...big.accept))}–${ms(Math.max(...big.accept))}) | ` +
      `${ms(parse)} ms (${ms(Math.min(...big.parse))}–${ms(Math.max(...big.parse))}) (JSON.parse) | ${(accept / parse).toFixed(1)}× | ≤ 3× JSON.parse | ${met(accept <= 3 * parse)} |`,
  );
}

try {
  await main();
} finally {
  agent.destroy();
  await stopAll();
}
