// maxcut_semantics: the answers of the max-cut use case are right (skipped when the deployment does not list
// it). Every SUCCESS execution's cut_value is the cut of its partition, an `optimal: true` claim is true, and an
// upper_bound bounds the optimum found by enumeration; run by every solver (or by the exact one with time enough,
// generated-answers.ts), the best execution reaches it. On
// the run's job of the example, the graphs positive_data_acceptance generates (a single node, no weight,
// copies of the example with negative and fractional weights, graphs of up to 16 nodes; fixtures.ts) and a graph
// of this check's own whose parts are corner cases (a lone node, only negative weights, fractional weights, a
// self-loop, ignored). A matrix that is not symmetric is refused (422 invalid_input), the use case's own rule.
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import { blockDiagonal } from '../inputs.ts';
import { pollJob, startJob } from '../jobs.ts';
import { cutValue } from '@jes/contract';
import { bruteForceMaxCut, type Graph, graphOf } from '../maxcut.ts';
import type { Reply } from '../http.ts';
import { sameValue } from '../same-value.ts';
import type { Check } from './check.ts';
import { generatedAnswers, solveSeconds } from './generated-answers.ts';
import { refusalProblem } from './refusal.ts';

const useCaseId = 'maxcut';

/**
 * The corner cases as the parts of one graph, with no edge between parts (so its maximum cut is the sum of
 * theirs), so that one job runs them all: a lone node, only negative weights, fractional weights, a self-loop.
 */
function cornerGraph(): Graph {
  const loop = graphOf(4, (i, j) => (i + j) % 3);
  loop.adj_matrix[2]![2] = 50;
  const adj_matrix = blockDiagonal([
    [[0]],
    graphOf(5, (i, j) => -(i + j + 1)).adj_matrix,
    graphOf(6, (i, j) => ((i * 5 + j * 3) % 7) / 4 - 0.5).adj_matrix,
    loop.adj_matrix,
  ]);
  return { num_nodes: adj_matrix.length, adj_matrix };
}

/** Checks every SUCCESS execution against the graph; `complete`: the best of them must reach the optimum. */
function checkExecutions(
  ctx: CheckContext,
  label: string,
  graph: Graph,
  job: any,
  reply: Reply,
  complete = true,
): void {
  const successes = Object.entries<any>(job.executions ?? {}).filter(([, e]) => e.status === 'SUCCESS');
  if (!complete && !successes.length) return;
  const optimum = bruteForceMaxCut(graph.adj_matrix);
  let best = -Infinity;
  for (const [solver, execution] of successes) {
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
  if (!complete) return;
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
    "Each SUCCESS execution's cut_value equals the cut of its partition and optimal: true and upper_bound are true, on the example and the generated graphs of up to 18 nodes (one node, no weight, negative and fractional weights) and a graph of corner cases (a self-loop too); run by every solver, the best execution reaches the optimum by enumeration; a matrix that is not symmetric is refused (422).",
  operations: ['startMaxCutJob', 'getJob'],
  async run(ctx) {
    const useCase = await ctx.fixtures.useCase(ctx, useCaseId);
    if (!useCase) return ctx.skip(`the deployment does not list the ${useCaseId} use case (GET /problem)`);
    // The example, run by every solver that takes its size: the run's shared job of it.
    const example = await ctx.fixtures.finishedJob(ctx, useCase);
    const graph = structuredClone(useCase.example) as unknown as Graph;
    checkExecutions(ctx, `the use case's example graph (job ${example.id})`, graph, example.job, example.reply);
    if (ctx.sandbox)
      return ctx.note(
        "skipped in the sandbox profile: every graph but the use case's example (the sandbox answers the example's cut whatever the input), and refusing a matrix that is not symmetric (the sandbox checks shapes, not the use case's rules)",
      );
    const corners = cornerGraph();
    const solver = useCase.solvers.filter((s) => (s.max_nodes ?? Infinity) >= corners.num_nodes).map((s) => s.name);
    const { id } = await startJob(
      ctx,
      useCaseId,
      corners,
      { solver, time_limit_seconds: solveSeconds },
      'starting a job on the graph of corner cases',
    );
    await generatedAnswers(ctx, useCase, (label, input, job, reply, complete) =>
      checkExecutions(ctx, label, input as unknown as Graph, job, reply, complete),
    );
    const ended = await pollJob(ctx, id);
    checkExecutions(ctx, `the graph of corner cases (job ${id})`, corners, ended.job, ended.reply);
    await asymmetricRefused(ctx);
  },
};
