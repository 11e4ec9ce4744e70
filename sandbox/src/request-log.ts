// What the sandbox prints per request (as Prism's console does, in two lines): the request, then whether it
// keeps the contract and what was answered. A request Prism found valid shows ✔ and the contract example it got;
// one at odds with the contract, ✖ and each mismatch's pointer; one refused before Prism (no token, a media type
// the operation does not take, a path without operations), ✖ and why.
//
//   2026-11-22T14:03:07.412Z POST /problem/maxcut
//     ✖ request violates the contract: /num_nodes must be integer → 400 invalid_request
import type { FieldError } from './conventions.ts';

/** What became of a request, for its log lines. */
export interface RequestOutcome {
  /** Prism's verdict, when the request reached it: the mismatches it found (none: a valid request). */
  violations?: FieldError[];
  /** The contract example answered, by name. */
  example?: string;
  /** The problem answered, if any. */
  problem?: { code: string; detail: string; errors?: FieldError[] };
  /** The connection was dropped without an answer (a scenario). */
  dropped?: boolean;
}

const clip = (text: string, max = 240) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Up to three pointers with their details, then how many more. */
function mismatches(errors: FieldError[]): string {
  const shown = errors
    .slice(0, 3)
    .map((e) => `${e.pointer} ${clip(e.detail, 100)}`)
    .join('; ');
  return errors.length > 3 ? `${shown} (+${errors.length - 3} more)` : shown;
}

export function requestLogLines(
  at: Date,
  method: string,
  path: string,
  status: number,
  outcome: RequestOutcome,
): string {
  const { violations, example, problem } = outcome;
  if (outcome.dropped)
    return `${at.toISOString()} ${method} ${clip(path, 200)}\n  ✖ connection dropped without an answer (scenario)`;
  const verdict =
    violations?.length || problem?.errors?.length
      ? `✖ request violates the contract: ${mismatches(violations?.length ? violations : problem!.errors!)}`
      : violations
        ? '✔ valid request'
        : problem
          ? `✖ ${clip(problem.detail)}`
          : '✔ answered';
  const answered = [
    String(status),
    ...(problem ? [problem.code] : []),
    ...(example ? [`(example "${example}")`] : []),
  ].join(' ');
  return `${at.toISOString()} ${method} ${clip(path, 200)}\n  ${verdict} → ${answered}`;
}
