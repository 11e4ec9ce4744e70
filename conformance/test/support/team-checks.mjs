// A check of a team's own, as a user writes one: plain JavaScript against @jes/conformance's public API (defineCheck,
// the context's fixtures, skip and expect), loaded by loadChecks or --checks. Against the reference server it passes;
// a breakage of the broken proxy (breakages.ts: "answers a cut under half the weight") fails it.
import { defineCheck } from '@jes/conformance';

/** The total weight of a graph's edges, each counted once (the matrix is symmetric). */
const totalWeight = (matrix) =>
  matrix.reduce((sum, row, i) => sum + row.slice(i + 1).reduce((part, weight) => part + weight, 0), 0);

export const checks = [
  defineCheck({
    name: 'maxcut_half_weight',
    description:
      "Every solver's cut of the max-cut example (its weights positive) weighs at least half its edges' weight: some cut always does, and a local search finds one.",
    operations: ['startMaxCutJob', 'getJob'],
    async run(ctx) {
      const useCase = await ctx.fixtures.useCase(ctx, 'maxcut');
      if (!useCase) return ctx.skip('the deployment does not list the maxcut use case');
      const matrix = useCase.example.adj_matrix;
      if (matrix.flat().some((weight) => weight < 0)) return ctx.skip('the example has negative weights');
      const half = totalWeight(matrix) / 2;
      // The run's job of the example, shared with the built-in checks: no job of its own.
      const { id, job, reply } = await ctx.fixtures.finishedJob(ctx, useCase);
      for (const [solver, execution] of Object.entries(job.executions)) {
        if (execution.status !== 'SUCCESS') continue;
        const cut = execution.data.cut_value;
        ctx.expect(
          cut >= half,
          `job ${id}: ${solver}'s cut is ${cut}, under half the weight (${half})`,
          reply.exchange,
        );
      }
    },
  }),
];
