// The exact solver's timing for the max-cut benchmark: dense random graphs (every pair of nodes joined,
// integer weights from -10 to 10 without 0, seeded), each solved to proven optimality in a worker thread.
import { graphFromEdges } from '../../contract/src/inputs/maxcut/graph.ts';
import { createRandom } from '../../server/src/maxcut/solvers/random.ts';
import type { SolverPool } from '../../server/src/worker/pool.ts';

function denseGraph(n: number, seed: number) {
  const rng = createRandom(seed);
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = rng.int(20) - 10;
      from.push(i);
      to.push(j);
      weight.push(w >= 0 ? w + 1 : w);
    }
  }
  return graphFromEdges(n, from, to, weight);
}

export async function runExact(pool: SolverPool, sizes: number[], seeds = 3): Promise<void> {
  await pool.run({ problemId: 'maxcut', solver: 'exact', input: denseGraph(12, 0), timeLimitSeconds: 10, seed: 0 })
    .result; // start a thread first
  console.log('| n | seed | states | seconds | states/s | optimal |\n|---:|---:|---:|---:|---:|---|');
  for (const n of sizes) {
    for (let seed = 1; seed <= seeds; seed++) {
      const graph = denseGraph(n, seed);
      const started = performance.now();
      const { data: result } = await pool.run({
        problemId: 'maxcut',
        solver: 'exact',
        input: graph,
        timeLimitSeconds: 60,
        seed,
      }).result;
      const elapsed = (performance.now() - started) / 1000;
      console.log(
        `| ${n} | ${seed} | ${(result.iterations as number).toExponential(2)} | ${elapsed.toFixed(2)} | ${((result.iterations as number) / elapsed).toExponential(2)} | ${result.optimal} |`,
      );
    }
  }
}
