// SolverPool end to end: real worker threads running the real solvers (results, progress, cancel, limits,
// unknown solvers, a thread killed by its memory limit, queueing, close).
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cutValue, type Graph, graphFromEdges } from '@jes/contract/inputs';
import { solverByName } from '../src/maxcut/solvers/index.ts';
import { SolverLimitError } from '../src/maxcut/solvers/solver.ts';
import type { Progress } from '../src/maxcut/solvers/solver.ts';
import {
  type RunHandle,
  RunCancelledError,
  SolverCrashedError,
  SolverFailedError,
  SolverPool,
} from '../src/worker/pool.ts';

/** A max-cut run on the pool, its answer read back as the solver's result (the pool carries the use case's output). */
function runOn(
  on: SolverPool,
  request: { solver: string; graph: Graph; timeLimitSeconds: number; seed: number; params?: Record<string, unknown> },
  onProgress?: (p: Progress) => void,
) {
  const { graph, ...rest } = request;
  const handle: RunHandle = on.run({ problemId: 'maxcut', input: graph, ...rest }, onProgress);
  const result = handle.result.then(({ data }) => ({
    cutValue: data.cut_value as number,
    partition: Uint8Array.from(data.partition as number[]),
    optimal: data.optimal as boolean,
    upperBound: data.upper_bound as number | undefined,
  }));
  result.catch(() => {});
  return { result, cancel: handle.cancel };
}

/** A random graph with integer weights in [-3, 9] \ {0}, the same for the same seed. */
function randomGraph(n: number, edges: number, seed: number): Graph {
  let s = seed >>> 0;
  const next = (bound: number): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % bound;
  };
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  for (let e = 0; e < edges; e++) {
    from.push(next(n));
    to.push(next(n));
    weight.push(next(2) ? 1 + next(9) : -1 - next(3));
  }
  return graphFromEdges(n, from, to, weight);
}

/** The maximum cut by brute force (node n-1 fixed in part 0). */
function bruteForceMaxCut(graph: Graph): number {
  let best = -Infinity;
  const side = new Uint8Array(graph.n);
  for (let mask = 0; mask < 2 ** (graph.n - 1); mask++) {
    for (let i = 0; i < graph.n - 1; i++) side[i] = (mask >>> i) & 1;
    best = Math.max(best, cutValue(graph, side));
  }
  return best;
}

const small = randomGraph(14, 50, 7);
const medium = randomGraph(3000, 12_000, 11);
const pool = new SolverPool({ size: 2 });
afterAll(() => pool.close());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('SolverPool', () => {
  it('runs exact to a proven optimum', async () => {
    const result = await runOn(pool, { solver: 'exact', graph: small, timeLimitSeconds: 10, seed: 1 }).result;
    expect(result.optimal).toBe(true);
    expect(result.partition).toBeInstanceOf(Uint8Array);
    expect(result.partition.length).toBe(small.n);
    expect(result.cutValue).toBe(cutValue(small, result.partition));
    expect(result.cutValue).toBe(bruteForceMaxCut(small));
    expect(result.upperBound).toBe(result.cutValue);
  });

  it('runs local-search to its time limit, reporting progress', async () => {
    const progress: Progress[] = [];
    const started = performance.now();
    const result = await runOn(pool, { solver: 'local-search', graph: medium, timeLimitSeconds: 0.5, seed: 3 }, (p) =>
      progress.push(p),
    ).result;
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(0.45);
    expect(seconds).toBeLessThan(1.5);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.at(-1)!.bestValue).toBeLessThanOrEqual(result.cutValue);
    expect(result.optimal).toBe(false);
    expect(result.cutValue).toBe(cutValue(medium, result.partition));
  });

  it('cancel makes a long local-search resolve with its best so far within 1 s', async () => {
    let firstProgress!: () => void;
    const progressed = new Promise<void>((resolve) => {
      firstProgress = resolve;
    });
    const handle = runOn(pool, { solver: 'local-search', graph: medium, timeLimitSeconds: 30, seed: 5 }, () =>
      firstProgress(),
    );
    await progressed;
    await sleep(200);
    const cancelledAt = performance.now();
    handle.cancel();
    const result = await handle.result;
    expect(performance.now() - cancelledAt).toBeLessThan(1000);
    expect(result.partition.length).toBe(medium.n);
    expect(result.cutValue).toBe(cutValue(medium, result.partition));
    handle.cancel(); // a no-op once settled
  });

  it('rejects exact above its node limit with SolverLimitError', async () => {
    const maxNodes = solverByName('exact')!.maxNodes!;
    const big = randomGraph(maxNodes + 1, 100, 2);
    const error = await runOn(pool, { solver: 'exact', graph: big, timeLimitSeconds: 5, seed: 1 }).result.catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SolverLimitError);
    expect((error as Error).name).toBe('SolverLimitError');
    expect((error as Error).message).toContain(String(maxNodes));
  });

  it('rejects an unknown solver with SolverFailedError', async () => {
    const error = await runOn(pool, {
      solver: 'no-such-solver',
      graph: small,
      timeLimitSeconds: 1,
      seed: 1,
    }).result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SolverFailedError);
    expect((error as Error).message).toContain('no-such-solver');
  });

  it('queues runs beyond its size and resolves them all', async () => {
    const started = performance.now();
    const handles = [0, 1, 2, 3].map((seed) =>
      runOn(pool, { solver: 'local-search', graph: medium, timeLimitSeconds: 0.3, seed }),
    );
    handles.push(runOn(pool, { solver: 'exact', graph: small, timeLimitSeconds: 10, seed: 1 }));
    expect(pool.idle).toBe(0);
    const results = await Promise.all(handles.map((h) => h.result));
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(0.55); // two rounds of 0.3 s: only two ran at once
    expect(seconds).toBeLessThan(3);
    for (const [i, result] of results.entries()) {
      const graph = i < 4 ? medium : small;
      expect(result.cutValue).toBe(cutValue(graph, result.partition));
    }
    expect(results[4]!.optimal).toBe(true);
    expect(pool.idle).toBe(2);
  });

  it('rejects a run cancelled while still queued with RunCancelledError', async () => {
    const one = new SolverPool({ size: 1 });
    try {
      const running = runOn(one, { solver: 'local-search', graph: medium, timeLimitSeconds: 0.3, seed: 1 });
      const queued = runOn(one, { solver: 'local-search', graph: medium, timeLimitSeconds: 0.3, seed: 2 });
      queued.cancel();
      await expect(queued.result).rejects.toBeInstanceOf(RunCancelledError);
      await expect(running.result).resolves.toMatchObject({ optimal: false });
    } finally {
      await one.close();
    }
  });

  it('survives a thread killed by its memory limit', async () => {
    // The graph cannot exhaust the heap limit: its arrays (and every array the solvers allocate) are typed
    // arrays, which live outside the V8 heap that maxOldGenerationSizeMb bounds. Solver params are plain
    // objects, deserialised onto the thread's heap, so a large params value does. It is made of many small
    // objects: V8 interrupts the deserialisation when the heap limit is reached and the thread dies cleanly
    // (ERR_WORKER_OUT_OF_MEMORY), whereas one huge string or array would abort the whole process.
    const tiny = new SolverPool({ size: 1, resourceLimits: { maxOldGenerationSizeMb: 24 } });
    try {
      const ballast = Array.from({ length: 256 }, (_, j) => Array.from({ length: 4096 }, (_, i) => ({ i, j })));
      const crashed = runOn(tiny, {
        solver: 'local-search',
        graph: small,
        timeLimitSeconds: 1,
        seed: 1,
        params: { ballast },
      });
      const error = await crashed.result.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SolverCrashedError);
      expect((error as Error).message).toMatch(/memory/i);

      const result = await runOn(tiny, { solver: 'exact', graph: small, timeLimitSeconds: 10, seed: 1 }).result;
      expect(result.optimal).toBe(true);
      expect(result.cutValue).toBe(bruteForceMaxCut(small));
      expect(tiny.idle).toBe(1);
    } finally {
      await tiny.close();
    }
  });

  it('close() rejects pending runs', async () => {
    const closing = new SolverPool({ size: 1 });
    const running = runOn(closing, { solver: 'local-search', graph: medium, timeLimitSeconds: 30, seed: 1 });
    const queued = runOn(closing, { solver: 'exact', graph: small, timeLimitSeconds: 10, seed: 1 });
    await sleep(200);
    await closing.close();
    await expect(running.result).rejects.toBeInstanceOf(RunCancelledError);
    await expect(queued.result).rejects.toBeInstanceOf(RunCancelledError);
    await expect(
      runOn(closing, { solver: 'exact', graph: small, timeLimitSeconds: 1, seed: 1 }).result,
    ).rejects.toBeInstanceOf(RunCancelledError);
    expect(closing.idle).toBe(0);
  });

  it('a thread slow to start does not eat the time limit: its run succeeds (regression: killed as an overrun)', () => {
    // Every solver thread of the child process spends 4 s before it loads (as a new thread loading its modules does on
    // a loaded machine): longer than the run's 0.2 s time limit, its 2 s grace and the 1 s to answer a stop.
    const slowStart =
      "import { isMainThread } from 'node:worker_threads'; if (!isMainThread) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000);";
    const script = `
      import { SolverPool } from ${JSON.stringify(new URL('../src/worker/pool.ts', import.meta.url).href)};
      import { graphFromEdges } from '@jes/contract/inputs';
      const graph = graphFromEdges(3, [0, 1], [1, 2], [1, 1]);
      const pool = new SolverPool({ size: 1 });
      const run = pool.run({ problemId: 'maxcut', solver: 'local-search', input: graph, timeLimitSeconds: 0.2, seed: 1 });
      const outcome = await run.result.then((r) => 'cut ' + r.objective, (e) => e.name + ': ' + e.message);
      await pool.close();
      console.log(outcome);
    `;
    const child = spawnSync(
      process.execPath,
      ['--conditions=jes-source', `--import=data:text/javascript,${encodeURIComponent(slowStart)}`, '-e', script],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('cut 2');
  });

  it('close() leaves no thread alive: a process closing a busy pool exits at once', () => {
    // A 30 s run keeps its thread (and so the process) alive unless close() really terminates it. (No
    // --input-type=module: threads inherit execArgv and a worker refuses that flag; -e detects ESM itself.)
    const script = `
      import { SolverPool } from ${JSON.stringify(new URL('../src/worker/pool.ts', import.meta.url).href)};
      import { graphFromEdges } from '@jes/contract/inputs';
      const graph = graphFromEdges(3, [0, 1], [1, 2], [1, 1]);
      const pool = new SolverPool({ size: 2 });
      const a = pool.run({ problemId: 'maxcut', solver: 'local-search', input: graph, timeLimitSeconds: 30, seed: 1 });
      const b = pool.run({ problemId: 'maxcut', solver: 'local-search', input: graph, timeLimitSeconds: 30, seed: 2 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await pool.close();
      const outcomes = await Promise.allSettled([a.result, b.result]);
      console.log(outcomes.map((o) => o.status === 'rejected' ? o.reason.name : 'resolved').join(','));
    `;
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--conditions=jes-source', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('RunCancelledError,RunCancelledError');
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
