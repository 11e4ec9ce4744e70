// qubo_semantics: the answers of the QUBO use case are right (skipped when the deployment does not list it).
// Every SUCCESS execution's energy is xᵀQx of its assignment (n entries of 0 or 1) and its best_value, an
// `optimal: true` claim is true, and a lower_bound bounds the minimum found by enumeration (and is it when
// optimal); run by every solver (or by the exact one with time enough, generated-answers.ts), the best execution
// reaches it. On the run's job of the example, the QUBOs positive_data_acceptance generates (one variable, all
// zero, copies of the example scaled, QUBOs of up to 16 variables that are not symmetric; fixtures.ts) and a
// QUBO of this check's own whose parts are corner cases.
// The example as a .qubo data file gives the answer it gives inline.
import { createHash } from 'node:crypto';
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Reply } from '../http.ts';
import { blockDiagonal } from '../inputs.ts';
import { pollJob, startJob, uploadDataFile } from '../jobs.ts';
import { energy } from '@jes/contract';
import { bruteForceQubo, type Qubo, quboFile, quboOf } from '../qubo.ts';
import { sameValue } from '../same-value.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import type { Check } from './check.ts';
import { generatedAnswers, solveSeconds } from './generated-answers.ts';

const useCaseId = 'qubo';

/**
 * The corner cases as the parts of one QUBO, with no coupling between parts (so its minimum is the sum of
 * theirs), so that one job runs them all: a variable alone of negative weight and one of positive weight, all
 * zero, only positive entries, couplings below the diagonal only.
 */
function cornerQubo(): Qubo {
  const q_matrix = blockDiagonal([
    [[-2.5]],
    [[3]],
    quboOf(3, () => 0).q_matrix,
    quboOf(4, (i, j) => 1 + ((i * 3 + j) % 4)).q_matrix,
    quboOf(6, (i, j) => (i > j ? -((i + j) % 5) - 0.5 : i === j ? 2 : 0)).q_matrix,
  ]);
  return { num_variables: q_matrix.length, q_matrix };
}

/**
 * Checks every SUCCESS execution against the input (`complete`: the best of them must reach the minimum);
 * returns the lowest energy they found (Infinity if none).
 */
function checkExecutions(
  ctx: CheckContext,
  label: string,
  input: Qubo,
  job: any,
  reply: Reply,
  complete = true,
): number {
  const successes = Object.entries<any>(job.executions ?? {}).filter(([, e]) => e.status === 'SUCCESS');
  if (!complete && !successes.length) return Infinity;
  const minimum = bruteForceQubo(input.q_matrix);
  const tolerance = 1e-6 * Math.max(1, Math.abs(minimum));
  let best = Infinity;
  for (const [solver, execution] of successes) {
    const data = execution.data ?? {};
    const where = `${label}, ${solver}`;
    const { assignment, optimal, lower_bound } = data;
    const value = data.energy;
    if (
      !ctx.expect(
        Array.isArray(assignment) &&
          assignment.length === input.num_variables &&
          assignment.every((x: unknown) => x === 0 || x === 1),
        `${where}: the assignment ${shown(assignment)} is not ${input.num_variables} values of 0 or 1`,
        reply.exchange,
      )
    )
      continue;
    const recomputed = energy(input.q_matrix, assignment);
    ctx.expect(
      sameValue(value, recomputed),
      `${where}: energy ${shown(value)}, but its assignment has energy ${recomputed}`,
      reply.exchange,
    );
    if (typeof execution.best_value === 'number')
      ctx.expect(
        sameValue(execution.best_value, value),
        `${where}: best_value ${execution.best_value} differs from the energy ${shown(value)} of the SUCCESS answer`,
        reply.exchange,
      );
    if (optimal === true)
      ctx.expect(
        sameValue(value, minimum),
        `${where}: claims optimal with ${shown(value)}; the minimum energy is ${minimum}`,
        reply.exchange,
      );
    if (typeof lower_bound === 'number') {
      ctx.expect(
        lower_bound <= minimum + tolerance,
        `${where}: lower_bound ${lower_bound} is above the minimum energy ${minimum}`,
        reply.exchange,
      );
      if (optimal === true)
        ctx.expect(
          sameValue(lower_bound, minimum),
          `${where}: optimal, but its lower_bound ${lower_bound} is not the minimum energy ${minimum}`,
          reply.exchange,
        );
    }
    if (typeof value === 'number') best = Math.min(best, value);
  }
  if (!complete) return best;
  if (!ctx.expect(best < Infinity, `${label}: no execution succeeded (job ${job.status})`, reply.exchange)) return best;
  ctx.expect(
    sameValue(best, minimum),
    `${label}: the best execution found ${best}; the minimum energy is ${minimum}`,
    reply.exchange,
  );
  return best;
}

/** Pairs i < j whose coupling Q[i][j] + Q[j][i] is not zero (the record's num_edges of a .qubo file). */
function couplings(input: Qubo): number {
  let count = 0;
  for (let i = 0; i < input.num_variables; i++)
    for (let j = i + 1; j < input.num_variables; j++)
      if (input.q_matrix[i]![j]! + input.q_matrix[j]![i]! !== 0) count++;
  return count;
}

/** The example uploaded as a .qubo file (its comment naming this run): the record describes it, the answer is the inline one's. */
async function fromQuboFile(ctx: CheckContext, useCase: UseCaseInfo, example: Qubo, inlineBest: number): Promise<void> {
  if (!useCase.formats.includes('qubo'))
    return ctx.note(`not run: a .qubo data file (the record's data_file_formats are ${useCase.formats.join(', ')})`);
  const comment = `jes-conformance run ${createHash('sha1').update(ctx.runId).digest('hex').slice(0, 12)}`;
  const text = quboFile(example, comment);
  const { id, file, reply: uploaded } = await uploadDataFile(ctx, useCaseId, text, 'example.qubo');
  if (
    !ctx.expect(
      file?.status === 'READY' &&
        file.format === 'qubo' &&
        file.num_nodes === example.num_variables &&
        file.num_edges === couplings(example),
      `the .qubo file ${id} is ${shown(file?.status)}, format ${shown(file?.format)}, ${shown(file?.num_nodes)} variables and ${shown(file?.num_edges)} couplings; expected READY, qubo, ${example.num_variables} and ${couplings(example)}`,
      uploaded.exchange,
    )
  )
    return;
  const solvers = useCase.solvers.filter((s) => (s.max_nodes ?? Infinity) >= example.num_variables);
  const { id: jobId } = await startJob(
    ctx,
    useCaseId,
    { data_file_identifier: id, solvers: solvers.map((s) => ({ name: s.name })), time_limit_seconds: solveSeconds },
    undefined,
    'starting a job from the example as a .qubo file',
  );
  const { job, reply } = await pollJob(ctx, jobId);
  const best = checkExecutions(ctx, `the example as a .qubo file (job ${jobId})`, example, job, reply);
  if (best < Infinity && inlineBest < Infinity)
    ctx.expect(
      sameValue(best, inlineBest),
      `the example as a .qubo file: the best energy is ${best}, inline ${inlineBest}`,
      reply.exchange,
    );
}

export const quboSemantics: Check = {
  name: 'qubo_semantics',
  description:
    "Each SUCCESS execution's energy equals xᵀQx of its assignment (and its best_value), optimal: true is true and lower_bound bounds the minimum by enumeration, on the example and the generated QUBOs of up to 16 variables (not symmetric, negative and fractional entries, one variable, all zero) and a QUBO of corner cases; run by every solver, the best execution reaches the minimum; the example as a .qubo data file answers as inline.",
  operations: ['startQuboJob', 'getJob', 'uploadDataFile', 'getDataFile'],
  skip: ({ profile }) =>
    profile === 'sandbox'
      ? 'the sandbox answers its max-cut example job whatever the input, so it has no QUBO answer to check'
      : undefined,
  async run(ctx) {
    const useCase = await ctx.fixtures.useCase(ctx, useCaseId);
    if (!useCase) return ctx.skip(`the deployment does not list the ${useCaseId} use case (GET /problem)`);
    const example = structuredClone(useCase.example) as unknown as Qubo;
    // The example, run by every solver that takes its size: the run's shared job of it.
    const shared = await ctx.fixtures.finishedJob(ctx, useCase);
    const inlineBest = checkExecutions(
      ctx,
      `the use case's example (job ${shared.id})`,
      example,
      shared.job,
      shared.reply,
    );
    const corners = cornerQubo();
    const solver = useCase.solvers.filter((s) => (s.max_nodes ?? Infinity) >= corners.num_variables).map((s) => s.name);
    const { id } = await startJob(
      ctx,
      useCaseId,
      corners,
      { solver, time_limit_seconds: solveSeconds },
      'starting a job on the QUBO of corner cases',
    );
    await generatedAnswers(ctx, useCase, (label, input, job, reply, complete) =>
      checkExecutions(ctx, label, input as unknown as Qubo, job, reply, complete),
    );
    const ended = await pollJob(ctx, id);
    checkExecutions(ctx, `the QUBO of corner cases (job ${id})`, corners, ended.job, ended.reply);
    await fromQuboFile(ctx, useCase, example, inlineBest);
  },
};
