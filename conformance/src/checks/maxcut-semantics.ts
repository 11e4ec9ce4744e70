// maxcut_semantics: the answers of the max-cut use case are right (skipped when the deployment does not list
// it). Every SUCCESS execution's cut_value is the cut of its partition; on small graphs (up to 16 nodes,
// negative, fractional and zero weights, a self-loop) the best execution reaches the optimum found by
// enumeration, an `optimal: true` claim is true, and an upper_bound bounds it. A matrix that is not symmetric
// is refused (422 invalid_input), the use case's own rule.
import fc from 'fast-check';
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { graphArbitrary } from '../generate/graphs.ts';
import { pollJob, startJob } from '../jobs.ts';
import { bruteForceMaxCut, cutValue, type Graph, graphOf } from '../maxcut.ts';
import type { Reply } from '../http.ts';
import { sameValue } from '../same-value.ts';
import type { Check } from './check.ts';
import { refusalProblem } from './refusal.ts';

const useCaseId = 'maxcut';

/** Fixed graphs that corner cases hide in (beside the example, whose job the run shares). */
function fixedGraphs(): [string, Graph][] {
  const loop = graphOf(4, (i, j) => (i + j) % 3);
  loop.adj_matrix[2]![2] = 50;
  return [
    ['a single node', { num_nodes: 1, adj_matrix: [[0]] }],
    ['only negative weights', graphOf(5, (i, j) => -(i + j + 1))],
    ['fractional weights', graphOf(6, (i, j) => ((i * 5 + j * 3) % 7) / 4 - 0.5)],
    ['a self-loop (ignored)', loop],
  ];
}

function checkExecutions(ctx: CheckContext, label: string, graph: Graph, job: any, reply: Reply): void {
  const optimum = bruteForceMaxCut(graph.adj_matrix);
  let best = -Infinity;
  for (const [solver, execution] of Object.entries<any>(job.executions ?? {})) {
    if (execution.status !== 'SUCCESS') continue;
    const { cut_value, partition, optimal, upper_bound } = execution.data ?? {};
    const where = `${label}, ${solver}`;
    if (
      !ctx.expect(
        Array.isArray(partition) && partition.length === graph.num_nodes,
        `${where}: a partition of ${partition?.length} nodes for a graph of ${graph.num_nodes}`,
        reply.exchange,
      )
    )
      continue;
    const recomputed = cutValue(graph.adj_matrix, partition);
    ctx.expect(
      sameValue(cut_value, recomputed),
      `${where}: cut_value ${shown(cut_value)}, but its partition cuts ${recomputed}`,
      reply.exchange,
    );
    if (optimal === true)
      ctx.expect(
        sameValue(cut_value, optimum),
        `${where}: claims optimal with ${shown(cut_value)}; the maximum cut is ${optimum}`,
        reply.exchange,
      );
    if (typeof upper_bound === 'number')
      ctx.expect(
        upper_bound >= optimum - 1e-6 * Math.max(1, Math.abs(optimum)),
        `${where}: upper_bound ${shown(upper_bound)} is below the maximum cut ${optimum}`,
        reply.exchange,
      );
    best = Math.max(best, cut_value);
  }
  if (!ctx.expect(best > -Infinity, `${label}: no execution succeeded (job ${job.status})`, reply.exchange)) return;
  ctx.expect(
    sameValue(best, optimum),
    `${label}: the best execution found ${best}; the maximum cut is ${optimum}`,
    reply.exchange,
  );
}

/** A matrix that is not symmetric answers 422 invalid_input pointing at the matrix (a shape the schema allows). */
async function asymmetricRefused(ctx: CheckContext): Promise<void> {
  const reply = await ctx.send({
    method: 'POST',
    path: `/problem/${useCaseId}`,
    json: {
      num_nodes: 2,
      adj_matrix: [
        [0, 1],
        [2, 0],
      ],
    },
  });
  const failure = refusalProblem(reply, 422, 'invalid_input', '/adj_matrix');
  if (failure) ctx.fail(`a matrix that is not symmetric: ${failure.message}`, failure.exchange);
}

export const maxcutSemantics: Check = {
  name: 'maxcut_semantics',
  description:
    "Each SUCCESS execution's cut_value equals the cut of its partition; on graphs of up to 16 nodes (negative and fractional weights, a self-loop) the best execution reaches the optimum by enumeration, and optimal: true and upper_bound are true; a matrix that is not symmetric is refused (422).",
  operations: ['startMaxCutJob', 'getJob'],
  async run(ctx) {
    const useCase = await ctx.fixtures.useCase(ctx, useCaseId);
    if (!useCase) return ctx.skip(`the deployment does not list the ${useCaseId} use case (GET /problem)`);
    const { solvers } = useCase;
    // The example, run by every solver that takes its size: the run's shared job of it.
    const example = await ctx.fixtures.finishedJob(ctx, useCase);
    const graph = structuredClone(useCase.example) as unknown as Graph;
    checkExecutions(ctx, `the use case's example graph (job ${example.id})`, graph, example.job, example.reply);
    let graphs = fixedGraphs();
    if (ctx.sandbox) {
      graphs = [];
      ctx.note(
        "skipped in the sandbox profile: every graph but the use case's example (the sandbox answers the example's cut whatever the input), and refusing a matrix that is not symmetric (the sandbox checks shapes, not the use case's rules)",
      );
    } else {
      const count = Math.max(2, Math.ceil(ctx.runs / 2));
      const generated = fc.sample(graphArbitrary(2, 16), { seed: ctx.seed, numRuns: count });
      graphs.push(
        ...generated.map((g, i): [string, Graph] => [
          `generated graph ${i + 1} of seed ${ctx.seed} (${g.num_nodes} nodes)`,
          g,
        ]),
      );
    }
    const jobs = await Promise.all(
      graphs.map(async ([label, graph]) => {
        const solver = solvers.filter((s) => (s.max_nodes ?? Infinity) >= graph.num_nodes).map((s) => s.name);
        const { id } = await startJob(
          ctx,
          useCaseId,
          graph,
          { solver, time_limit_seconds: 0.3 },
          `starting a job on ${label}`,
        );
        return { label, graph, id };
      }),
    );
    for (const { label, graph, id } of jobs) {
      const { job, reply } = await pollJob(ctx, id);
      checkExecutions(ctx, `${label} (job ${id})`, graph, job, reply);
    }
    if (!ctx.sandbox) await asymmetricRefused(ctx);
  },
};
