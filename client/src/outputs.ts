// A solver's output told apart by its shape. An execution's `data` and a `JobOutput` entry do not name their use
// case (the job does, in `problem_id`), but the contract's output shapes have disjoint required members: a cut
// has `cut_value`, a QUBO answer `energy`.
import type { MaxCutOutput, ProblemId, ProblemOutputs, QuboOutput } from './types.ts';

/** True when the output is a maximum cut (`cut_value`, `partition`). */
export function isMaxCutOutput(output: ProblemOutputs[ProblemId]): output is MaxCutOutput {
  return 'cut_value' in output;
}

/** True when the output is a QUBO answer (`energy`, `assignment`). */
export function isQuboOutput(output: ProblemOutputs[ProblemId]): output is QuboOutput {
  return 'energy' in output;
}
