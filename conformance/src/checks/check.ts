// A named check of the suite: what it means, the operations it exercises, when it cannot run, and its body. The
// built-in checks and a team's own (`--checks ./team-checks.mjs`, `ConformanceOptions.checks`) are written against
// this one type.
import type { CheckContext } from '../context.ts';
import type { ConformanceOptions, Profile } from '../types.ts';

/**
 * A check: a run calls `run` with a context whose requests are recorded under the check's name, so that the
 * response checks validate their answers against the contract too, and each failure it records (`ctx.fail`,
 * `ctx.expect…`) is reported with the request that shows it. A check that throws fails with "the check itself
 * failed" and the error; the run goes on with the next check.
 */
export interface Check {
  /**
   * snake_case (lower-case words joined by `_`), as `--only` takes it; unique in the run (a check of your own cannot
   * take a built-in check's name).
   */
  name: string;
  /** One sentence: what passing means (printed by `--list` and in the markdown report). */
  description: string;
  /**
   * The operationIds it exercises (`*` for every operation): `--operation` runs the checks that name one of those it
   * selects, and the reports list them. A check that names `*` should keep to `ctx.selected(…)` operations.
   */
  operations: readonly string[];
  /** Why the check cannot run here (the profile, a missing second user), or undefined to run it. */
  skip?(run: { profile: Profile; options: ConformanceOptions }): string | undefined;
  run(ctx: CheckContext): Promise<void>;
}

/** Why a part that needs the password itself (logging in) is left out. */
export const tokenInstead = 'a token was given instead of a username and password';

/**
 * Returns the check as it is: in a plain `.mjs` module it gives the object the type `Check` (and `ctx` its
 * type, `CheckContext`) for an editor or `tsc --checkJs`, where no annotation can.
 */
export function defineCheck(check: Check): Check {
  return check;
}

export const statelessSkip =
  'the sandbox is stateless: it answers every request with the same examples, so nothing it stores can be observed';
