// A named check of the suite: what it means, the operations it exercises, when it cannot run, and its body.
import type { CheckContext } from '../context.ts';
import type { ConformanceOptions, Profile } from '../types.ts';

export interface Check {
  /** snake_case, as `--only` takes it. */
  name: string;
  /** One sentence: what passing means. */
  description: string;
  /** The operationIds it exercises (`*` for every operation). */
  operations: readonly string[];
  /** Why the check cannot run here (the profile, a missing second user), or undefined to run it. */
  skip?(run: { profile: Profile; options: ConformanceOptions }): string | undefined;
  run(ctx: CheckContext): Promise<void>;
}

/** Why a part that needs the password itself (logging in) is left out. */
export const tokenInstead = 'a token was given instead of a username and password';

export const statelessSkip =
  'the sandbox is stateless: it answers every request with the same examples, so nothing it stores can be observed';
