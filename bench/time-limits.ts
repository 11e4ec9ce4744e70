// The time-limit benchmark (`npm run bench:limits -- [options]`): does each heuristic solver end on time on the
// largest inputs a use case accepts?
//
//   --time 0.1,1        time limits in seconds (default 0.1,1)
//   --nodes 100000      nodes (maxcut) and variables (qubo) of every input (default: each use case's max_nodes)
//   --edges 7000000     edges of the heaviest input: about what a 100 MiB edge list of 100,000 nodes holds
//
// Each input is written as a data file and read by its use case (as a validation does), then every heuristic solver
// runs on it through the server's SolverPool, in a worker thread, one run at a time, as a job's execution does.
// Printed per run: the wall time from the run's start to its answer, how far past the limit that is, and the
// answer's size as JSON. The pool stops a run 2 s past its limit (and ends its thread a second later): such a run
// prints as stopped. A benchmark reports; tests check.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { maxcut } from '../server/src/maxcut/use-case.ts';
import { qubo } from '../server/src/qubo/use-case.ts';
import type { UseCase } from '../server/src/core/use-case.ts';
import { SolverPool } from '../server/src/worker/pool.ts';

const { values } = parseArgs({
  options: {
    time: { type: 'string', default: '0.1,1' },
    nodes: { type: 'string' },
    edges: { type: 'string', default: '7000000' },
  },
});

/** A seeded generator (an LCG is enough to draw edges). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
}

/**
 * A data file's text in chunks of about 1 MiB: `header`, then `count` lines `i j w`. An edge list's ends are random
 * (repeats merge); a .qubo file's pair (i, i + 1 + round) is each entry once, as the format requires.
 */
function* fileChunks(header: string, count: number, n: number, format: 'edge_list' | 'qubo'): Generator<Uint8Array> {
  const next = random(count + n);
  let text = header;
  for (let e = 0; e < count; e++) {
    const i = format === 'qubo' ? e % n : Math.floor(next() * n);
    const j = (i + 1 + (format === 'qubo' ? Math.floor(e / n) : Math.floor(next() * (n - 1)))) % n;
    const base = format === 'qubo' ? 0 : 1;
    text += `${i + base} ${j + base} ${1 + Math.floor(next() * 3)}\n`;
    if (text.length > 1 << 20) {
      yield Buffer.from(text);
      text = '';
    }
  }
  yield Buffer.from(text);
}

async function* asAsync(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

/** A two-node graph. */
async function example(): Promise<unknown> {
  return (await maxcut.readDataFile(asAsync([Buffer.from('2 1\n1 2 1\n')]))).input;
}

interface Input {
  useCase: UseCase;
  name: string;
  /** The data file as chunks, made on demand (the largest is about 100 MiB). */
  chunks: () => Iterable<Uint8Array>;
}

function inputs(maxcutNodes: number, quboVariables: number, heavy: number): Input[] {
  const n = maxcutNodes,
    v = quboVariables;
  return [
    { useCase: maxcut, name: `${n} nodes, no edges`, chunks: () => fileChunks(`${n} 0\n`, 0, n, 'edge_list') },
    {
      useCase: maxcut,
      name: `${n} nodes, ${2 * n} edges`,
      chunks: () => fileChunks(`${n} ${2 * n}\n`, 2 * n, n, 'edge_list'),
    },
    {
      useCase: maxcut,
      name: `${n} nodes, ${heavy} edges`,
      chunks: () => fileChunks(`${n} ${heavy}\n`, heavy, n, 'edge_list'),
    },
    {
      useCase: qubo,
      name: `${v} variables, no entries`,
      chunks: () => fileChunks(`p qubo 0 ${v} 0 0\n`, 0, v, 'qubo'),
    },
    {
      useCase: qubo,
      name: `${v} variables, ${2 * v} couplings`,
      chunks: () => fileChunks(`p qubo 0 ${v} 0 ${2 * v}\n`, 2 * v, v, 'qubo'),
    },
  ];
}

const limits = values.time.split(',').map(Number);
if (!limits.every((t) => t > 0)) throw new Error(`--time must list positive numbers, got "${values.time}"`);
const nodes = (useCase: UseCase) => Number(values.nodes ?? useCase.record.max_nodes);
const pool = new SolverPool({ size: 1 });
console.log(
  `time-limit benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log('| use case | input | solver | limit (s) | wall (s) | past the limit (s) | answer (MB) |');
console.log('|---|---|---|---|---|---|---|');
try {
  // The thread starts (and loads the solvers) on the first run: not a cost of the runs measured.
  const input = await example();
  await pool.run({ problemId: 'maxcut', solver: 'annealing', input, timeLimitSeconds: 0.01, seed: 1 }).result;
  for (const { useCase, name, chunks } of inputs(nodes(maxcut), nodes(qubo), Number(values.edges))) {
    let input: unknown;
    try {
      // As a job loads it: the input a validation prepared and stored.
      input = useCase.decode(useCase.encode((await useCase.readDataFile(asAsync(chunks()))).input));
      globalThis.gc?.(); // the garbage of reading 100 MiB is collected now, not during the runs
    } catch (error) {
      console.log(`| ${useCase.id} | ${name} | refused: ${(error as Error).message} | | | | |`);
      continue;
    }
    for (const solver of useCase.solvers.filter((s) => !s.exact)) {
      for (const limit of limits) {
        const started = performance.now();
        const outcome = await pool
          .run({ problemId: useCase.id, solver: solver.name, input, timeLimitSeconds: limit, seed: 1 })
          .result.then(
            (result) => `${(JSON.stringify(result.data).length / 1e6).toFixed(2)}`,
            (error: Error) => `stopped: ${error.name}`,
          );
        const wall = (performance.now() - started) / 1000;
        console.log(
          `| ${useCase.id} | ${name} | ${solver.name} | ${limit} | ${wall.toFixed(2)} | ${(wall - limit).toFixed(2)} | ${outcome} |`,
        );
      }
    }
  }
} finally {
  await pool.close();
}
