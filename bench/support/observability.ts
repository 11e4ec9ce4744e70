// bench:api --observability: what metrics and tracing cost a `GET /job/{id}` of a FINISHED job, the four ways side by
// side in one run: JES_METRICS off/on × tracing off/on. Tracing on is the standard OTEL variables pointing the server's
// OTLP/HTTP exporter at a sink in this process (an HTTP server answering 200 to every export), with the SDK's defaults
// otherwise (every request sampled, spans batched). A build without /metrics or without tracing still runs: the rows
// that need what is missing say n/a (found out from the server: /metrics answering 200, the sink receiving exports).
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Api, send } from './client.ts';
import { matrixBody } from './inputs.ts';
import { cannon, type Load, median } from './load.ts';
import { cpuSince } from './process-cpu.ts';
import { startServer } from './processes.ts';
import { settings } from './settings.ts';

/** An OTLP/HTTP receiver that keeps count: export requests and their bytes. */
export async function startOtlpSink(): Promise<{
  url: string;
  exports(): number;
  bytes(): number;
  close(): Promise<void>;
}> {
  let exports = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      if (req.method === 'POST') exports++;
      // An empty ExportTraceServiceResponse: no bytes in protobuf, {} in JSON.
      const asJson = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': asJson ? 'application/json' : 'application/x-protobuf' });
      res.end(asJson ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => exports,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Variant {
  metrics: boolean;
  tracing: boolean;
  /** Why its figures are n/a: what this build lacks. */
  missing?: string;
  loads: { load: Load; processCpuPerRequest: number | undefined; exports: number }[];
}

export interface ObservabilityFigures {
  variants: Variant[];
}

/** The server's settings for a variant; `sink` is the OTLP receiver's URL. */
function variantEnv(v: Variant, sink: string): Record<string, string> {
  return {
    JES_METRICS: v.metrics ? 'on' : 'off',
    ...(v.tracing
      ? {
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: sink,
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
        }
      : {}),
  };
}

async function measureVariant(v: Variant, sink: Awaited<ReturnType<typeof startOtlpSink>>): Promise<void> {
  const server = await startServer(2, variantEnv(v, sink.url));
  try {
    const api = new Api(server.url);
    await api.login();
    if (v.metrics && (await send(server.url, 'GET', '/metrics')).status !== 200)
      v.missing = 'no /metrics in this build';
    if (v.missing) return;
    const id = await api.start(matrixBody(8, 7, 9));
    await api.waitFor(id, (s) => s === 'FINISHED');
    const url = `${api.base}/job/${id}`;
    const pid = server.child.pid;
    await cannon(url, api.auth, settings.warmupSeconds, pid);
    const exports0 = sink.exports();
    const cpu = cpuSince(pid);
    const load = await cannon(url, api.auth, settings.durationSeconds, pid);
    const used = cpu.read();
    // A batch of spans is sent when 512 are queued, or 5 s after the first (the SDK's defaults).
    for (let waited = 0; v.tracing && sink.exports() === exports0 && waited < 6000; waited += 200) await sleep(200);
    const exports = sink.exports() - exports0;
    if (v.tracing && exports === 0)
      v.missing = [v.missing, 'no traces exported (no tracing in this build)'].filter(Boolean).join('; ');
    v.loads.push({
      load,
      exports,
      processCpuPerRequest: used === undefined || load.requests === 0 ? undefined : (used * 1e6) / load.requests,
    });
  } finally {
    await server.stop();
  }
}

/** `settings.rounds` rounds of the four variants, the order turned by one each round; a fresh server each time. */
export async function observabilityBenchmark(): Promise<ObservabilityFigures> {
  // The shell's own OTEL_* settings would trace the variants meant without tracing (child processes inherit them).
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
  const variants: Variant[] = [
    { metrics: false, tracing: false, loads: [] },
    { metrics: true, tracing: false, loads: [] },
    { metrics: false, tracing: true, loads: [] },
    { metrics: true, tracing: true, loads: [] },
  ];
  const sink = await startOtlpSink();
  try {
    for (let round = 0; round < settings.rounds; round++)
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + round) % variants.length]!;
        if (!v.missing) await measureVariant(v, sink);
      }
  } finally {
    await sink.close();
  }
  return { variants };
}

const us = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(0)} µs`);
const definedOnly = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);

export function observabilityReport({ variants }: ObservabilityFigures): string[] {
  const cpuOf = (v: Variant) => median(definedOnly(v.loads.map((l) => l.load.cpuPerRequest)));
  const base = cpuOf(variants[0]!);
  const out = [
    `### GET /job/{id} of a FINISHED job: metrics and tracing on and off, ${settings.rounds} rounds, a fresh server each, the order turned every round`,
    '',
    '| JES_METRICS | tracing (OTLP to a local sink) | req/s | p99 | main-thread CPU per request | − both off | whole-process CPU per request | OTLP exports received | rounds |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const v of variants) {
    const label = `| ${v.metrics ? 'on' : 'off'} | ${v.tracing ? 'on' : 'off'} |`;
    if (v.missing) {
      out.push(`${label} n/a | n/a | n/a | n/a | n/a | n/a | n/a: ${v.missing} |`);
      continue;
    }
    const cpu = cpuOf(v);
    const bad = v.loads.reduce((s, l) => s + l.load.bad, 0);
    out.push(
      `${label} ${Math.round(median(v.loads.map((l) => l.load.rps))).toLocaleString('en-US')} | ${median(v.loads.map((l) => l.load.p99))} ms | ` +
        `${us(cpu)} | ${v === variants[0] ? '' : us(cpu - base)} | ${us(median(definedOnly(v.loads.map((l) => l.processCpuPerRequest))))} | ` +
        `${v.tracing ? v.loads.map((l) => l.exports).join(', ') : ''} | ${v.loads.map((l) => us(l.load.cpuPerRequest)).join(', ')}${bad ? ` (non-2xx/errors: ${bad})` : ''} |`,
    );
  }
  out.push(
    '',
    'Medians of the rounds; the last column is each round’s main-thread CPU per request. Metrics on: prom-client counting ' +
      'each request (no scrape during the load). Tracing on: a span per request, every request sampled, exported in batches ' +
      'over OTLP/HTTP to a receiver in the benchmark’s process (its CPU is not the server’s).',
  );
  return out;
}
