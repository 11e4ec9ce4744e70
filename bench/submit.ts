// The submit-to-running benchmark (`npm run bench:submit`, or `node bench/submit.ts [--runs N]`): how long a
// 2-solver job takes from its submit until both executions run, which is what parsing and loading the input cost.
//
// Starts the embedded server (JES_WORKERS=2) as a child process on a temporary data directory, and for each input
// (the largest Gset graph as a data file, a generated 100 MiB edge list as a data file, a dense matrix just under
// the 4 MiB inline limit) prints: the upload, the validation (upload answered → READY), and for each of N runs the
// time from POST /problem/maxcut (annealing and local-search, 5 s) to both executions RUNNING, polled every 10 ms.
// Each job is cancelled once both run. Talks to 127.0.0.1 only; removes its directory on exit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { maxcutLimits } from '@jes/contract/inputs';
import { Api, json } from './support/client.ts';
import { uploadDataFile as upload } from './support/data-files.ts';
import { gsetDir } from './support/gset.ts';
import { bigBody } from './support/inputs.ts';
import { startServer, stopAll } from './support/processes.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt < 0 ? 3 : Number(process.argv[runsAt + 1]);
const mib = 1024 * 1024;

/**
 * A weighted edge list of about `bytes` bytes (Gset/rudy format), deterministic, on the most nodes a data file may
 * have (a graph of more is refused at its header line, so it measured nothing but that refusal), its edges distinct.
 */
function edgeList(bytes: number): Buffer {
  const n = maxcutLimits.maxNodes;
  const lines: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes - 64; k++) {
    const i = (k % n) + 1;
    const j = ((k * 7919 + 13 + Math.floor(k / n) * 104_729) % n) + 1;
    if (i === j) continue;
    const line = `${i} ${j} ${(k % 9) + 1}\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(`${n} ${lines.length}\n${lines.join('')}`);
}

/** Milliseconds from the submit until both executions are RUNNING. */
async function submitToRunning(api: Api, body: string | Buffer, query: string): Promise<number> {
  const started = performance.now();
  const id = await api.start(body, query);
  for (;;) {
    const job = json(await api.get(id)).job[id];
    const states = Object.values<{ status: string }>(job.executions).map((e) => e.status);
    if (states.every((s) => s === 'RUNNING')) break;
    if (states.some((s) => ['SUCCESS', 'ERROR', 'CANCELLED'].includes(s)))
      throw new Error(`job ${id} ended before both ran: ${JSON.stringify(job.executions)}`);
    await sleep(10);
  }
  const elapsed = performance.now() - started;
  await api.cancel(id);
  await api.waitFor(id, (s) => s === 'CANCELLED' || s === 'FINISHED');
  return elapsed;
}

const ms = (x: number) => `${Math.round(x)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  try {
    const server = await startServer(2);
    const api = new Api(server.url);
    await api.login();
    const solvers = '?solver=annealing&solver=local-search&time_limit_seconds=5';
    console.log(
      `Submit to both executions RUNNING, ${runs} runs each (median, then every run); embedded server, JES_WORKERS=2.\n`,
    );
    console.log('| input | bytes | upload | validation | submit → both running (median) | runs |');
    console.log('|---|---:|---:|---:|---:|---|');
    const inputs: { name: string; file: Buffer }[] = [
      { name: 'G81 (20,000 nodes, 40,000 edges)', file: readFileSync(join(gsetDir(), 'G81.txt')) },
      { name: '100 MiB edge list (100,000 nodes)', file: edgeList(100 * mib) },
    ];
    for (const input of inputs) {
      const { id, uploadMs, readyMs } = await upload(api, input.file, input.name);
      const times: number[] = [];
      for (let r = 0; r < runs; r++)
        times.push(await submitToRunning(api, JSON.stringify({ data_file_identifier: id }), solvers));
      console.log(
        `| ${input.name} | ${input.file.length} | ${ms(uploadMs)} | ${ms(readyMs)} | ${ms(median(times))} | ${times.map(ms).join(', ')} |`,
      );
    }
    // The largest dense matrix under the inline limit.
    const { body: inline, n } = bigBody();
    const times: number[] = [];
    for (let r = 0; r < runs; r++) times.push(await submitToRunning(api, inline, solvers));
    console.log(
      `| inline dense ${n} × ${n} | ${inline.length} | – | – | ${ms(median(times))} | ${times.map(ms).join(', ')} |`,
    );
  } finally {
    await stopAll();
  }
}

await main();
