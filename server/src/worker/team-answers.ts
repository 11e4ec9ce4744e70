// A team's answers as one run's (team.ts): its members' progress passed on only when it improves, and the best
// member's answer by the use case's sense, with the iterations of every member.
import { bestOutput, isBetter } from '../core/best-output.ts';
import type { Progress } from '../core/solver.ts';
import type { Sense, SolverOutput } from '../core/use-case.ts';
import { findUseCase } from '../use-cases.ts';

/** The sense of a request's use case; an unknown one fails in its thread, and any sense will do meanwhile. */
export function senseOf(request: { problemId: string }): Sense {
  return findUseCase(request.problemId)?.sense ?? 'max';
}

/** The members' answers as one run's: progress that only improves, and the best result. */
export interface TeamAnswers {
  /** A member's progress: passed on when it beats every value passed on before, so the run's history is monotone. */
  progress(progress: Progress): void;
  /** Member `index`'s result, or the error it ended with (its solver's, or its thread's death). */
  add(index: number, outcome: SolverOutput | Error): void;
  /**
   * The run's answer: the best member's (ties: the lowest index's), its `iterations` the sum over every member
   * that answered; or, when none did, the lowest index's error, or `none` when no member ended at all.
   */
  outcome(none: Error): SolverOutput | Error;
}

export function teamAnswers(sense: Sense, onProgress: ((p: Progress) => void) | undefined): TeamAnswers {
  const results: SolverOutput[] = [];
  const errors: Error[] = []; // both by member index
  let bestValue: number | undefined;
  return {
    progress(progress) {
      if (bestValue !== undefined && !isBetter(sense, progress.bestValue, bestValue)) return;
      bestValue = progress.bestValue;
      onProgress?.(progress);
    },
    add(index, outcome) {
      if (outcome instanceof Error) errors[index] = outcome;
      else results[index] = outcome;
    },
    outcome(none) {
      const answered = results.filter((r) => r !== undefined);
      const best = bestOutput(sense, answered);
      if (!best) return errors.find((e) => e !== undefined) ?? none;
      if (answered.length === 1) return best;
      let iterations = 0;
      for (const { data } of answered) if (typeof data.iterations === 'number') iterations += data.iterations;
      return { ...best, data: { ...best.data, iterations } };
    },
  };
}
