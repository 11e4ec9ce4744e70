// The solver benchmarks' runs (bench:maxcut, bench:qubo) on the server's own SolverPool, as a worker runs jobs:
// a pool of --threads threads (the worker's budget, JES_WORKERS) and at most --parallel runs at once, the next
// started when one ends, so that no run waits at dispatch and each takes what the pool's rule gives it
// (worker/team.ts's teamSize: every free thread, up to its solver's `threads`). Each run's time to a target value
// is read from its progress.
import os from 'node:os';
import type { SolverOutput } from '../../server/src/core/use-case.ts';
import { type RunRequest, SolverPool } from '../../server/src/worker/pool.ts';

/** The options both benchmarks take for their pool, for parseArgs. */
export const poolOptions = {
  threads: { type: 'string', default: String(os.availableParallelism()) },
  parallel: { type: 'string', default: '1' },
} as const;

export function positive(name: string, text: string, integer: boolean): number {
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  return value;
}

export interface PoolRun {
  output: SolverOutput;
  /** RunHandle.threads: how many threads its team started on. */
  threads: number;
  /**
   * Seconds to the first value that `reached` accepts: its progress's `foundAtSeconds` (progress comes at most
   * every 100 ms per thread, so this is late by up to that), else its answer's `time_to_best_seconds`; Infinity
   * when neither reaches it.
   */
  timeToTarget: number;
}

export interface PoolRunner {
  /** Runs the request when a slot is free. `reached` says whether a value (a cut, an energy) is at the target. */
  run(request: RunRequest, reached?: (value: number) => boolean): Promise<PoolRun>;
  /** The header line: how many threads each solver's runs got, the same for all or not. */
  describeThreads(): string;
  close(): Promise<void>;
}

export function createPoolRunner(threads: number, parallel: number): PoolRunner {
  if (parallel > threads)
    throw new Error(`--parallel ${parallel} is above --threads ${threads}: runs would wait at dispatch for a thread`);
  const pool = new SolverPool({ size: threads });
  const counts = new Map<string, Map<number, number>>(); // solver → threads → runs
  // Runs that took threads a running team lent them (the pool's rule: a run takes every free thread, and a team
  // gives back those of its members not started yet when another run arrives), so that team ran on fewer.
  let lent = 0;
  let active = 0;
  const waiting: (() => void)[] = [];

  async function inSlot<T>(task: () => Promise<T>): Promise<T> {
    if (active < parallel) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, `active` unchanged
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  }

  async function timed(request: RunRequest, reached: (value: number) => boolean): Promise<PoolRun> {
    let timeToTarget = Infinity;
    const free = pool.idle;
    const handle = pool.run(request, (progress) => {
      if (timeToTarget === Infinity && reached(progress.bestValue)) timeToTarget = progress.foundAtSeconds;
    });
    if (handle.threads > free) lent++;
    const output = await handle.result;
    if (timeToTarget === Infinity && reached(output.objective))
      timeToTarget = output.data.time_to_best_seconds as number;
    const bySolver = counts.get(request.solver) ?? new Map<number, number>();
    bySolver.set(handle.threads, (bySolver.get(handle.threads) ?? 0) + 1);
    counts.set(request.solver, bySolver);
    return { output, threads: handle.threads, timeToTarget };
  }

  return {
    run: (request, reached = () => false) => inSlot(() => timed(request, reached)),
    describeThreads() {
      const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
      const solvers = [...counts].map(([solver, bySolver]) => {
        const sorted = [...bySolver].sort(([a], [b]) => b - a);
        return sorted.length === 1
          ? `${solver}: each run got ${plural(sorted[0]![0], 'thread')}`
          : `${solver}: runs got different thread counts, ${sorted.map(([k, runs]) => `${plural(k, 'thread')} in ${plural(runs, 'run')}`).join(', ')}`;
      });
      const text = `${solvers.join('; ')} (RunHandle.threads)`;
      return lent === 0
        ? text
        : `${text}; ${plural(lent, 'run')} started on threads lent by a team that had just started, which so ran on fewer than it counts`;
    },
    close: () => pool.close(),
  };
}
