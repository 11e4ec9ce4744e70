// The answers to the run's generated inline jobs of a use case (fixtures.ts: positive_data_acceptance's), for a
// semantics check to hold against enumeration instead of starting jobs of its own: each accepted job read until
// it ends. With its generated solvers and time limit a job need not find the optimum; it must when the exact
// solver answered it with as much time as a semantics check gives every solver of its own jobs (`solveSeconds`).
import type { CheckContext } from '../context.ts';
import type { Reply } from '../http.ts';
import { sizeOf } from '../inputs.ts';
import { pollJob } from '../jobs.ts';
import type { UseCaseInfo } from '../use-cases.ts';

/** The time limit a semantics check gives its own jobs: ample for the exact solver at 16 nodes or variables. */
export const solveSeconds = 0.3;

export type Answered = (
  label: string,
  input: Record<string, unknown>,
  job: any,
  reply: Reply,
  /** Whether its best execution must reach the optimum. */
  complete: boolean,
) => void;

/** Calls `check` with each accepted generated job of the use case once it has ended (a refusal is positive_data_acceptance's to report). */
export async function generatedAnswers(ctx: CheckContext, useCase: UseCaseInfo, check: Answered): Promise<void> {
  const exact = useCase.exact?.name;
  for (const [i, { input, query, reply }] of (await ctx.fixtures.generatedJobs(ctx, useCase)).entries()) {
    const id = reply.status === 200 ? reply.json?.job : undefined;
    if (typeof id !== 'string') continue;
    const ended = await pollJob(ctx, id);
    // The exact solver (named, or among the defaults) answered with time enough: its answer is the optimum.
    const complete =
      exact !== undefined &&
      ended.job.executions?.[exact]?.status === 'SUCCESS' &&
      query.time_limit_seconds >= solveSeconds;
    const size = sizeOf(useCase.example, input) ?? '?';
    check(
      `generated input ${i + 1} of seed ${ctx.seed} (size ${size}, job ${id})`,
      input,
      ended.job,
      ended.reply,
      complete,
    );
  }
}
