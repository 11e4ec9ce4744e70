// Running a generated check with fast-check: a bounded number of cases from the run's seed (printed, so a
// failure repeats with --seed). The first case the deployment gets wrong is shrunk by fast-check, within a bound
// (every step sends requests to a live deployment), and reported with the path that replays exactly the shrunk
// case (--replay-path <target>/<path>, a check's targets numbered in the order it runs them). The failure names
// the case and carries the request of the shrunk case.
import fc from 'fast-check';
import type { CheckContext } from '../context.ts';
import { CheckAbort, TargetUnreachable } from '../http.ts';
import type { Failure, GeneratedCase } from '../types.ts';

/** Shrinking a failing case sends at most this many cases (each its requests), for at most this long. */
export const maxShrinkCases = 48;
export const maxShrinkMs = 30_000;

/** `<target>/<fast-check path>`: the check's target (from 1) and fast-check's path to one of its cases. */
export const replayPathPattern = /^([1-9]\d*)\/(\d+(?::\d+)*)$/;

/** A check's generated target: its number, and whether this run sends its cases (not when replaying another). */
export interface Target {
  number: number;
  sends: boolean;
  /** The fast-check path to replay, when this run replays a case of this target. */
  replay?: string;
}

/** How many targets each check has numbered so far, and whether the replayed one was reached. */
const numbered = new WeakMap<CheckContext, { count: number; replayed: boolean }>();

/** The check's next generated target (in the order it runs them: the same on every run with the same deployment). */
export function nextTarget(ctx: CheckContext): Target {
  const state = numbered.get(ctx) ?? { count: 0, replayed: false };
  numbered.set(ctx, state);
  const number = ++state.count;
  const wanted = ctx.options.replayPath && replayPathPattern.exec(ctx.options.replayPath);
  if (!wanted) return { number, sends: true };
  if (Number(wanted[1]) !== number) return { number, sends: false };
  state.replayed = true;
  return { number, sends: true, replay: wanted[2]! };
}

/** Whether the check runs only a replayed case (--replay-path): its fixed, non-generated parts are left out. */
export const replaying = (ctx: CheckContext): boolean => ctx.options.replayPath !== undefined;

/** When the run replays a case and this check never reached its target: why, for a failure. */
export function replayMissed(ctx: CheckContext): string | undefined {
  if (!ctx.options.replayPath) return undefined;
  const state = numbered.get(ctx) ?? { count: 0, replayed: false };
  if (state.replayed) return undefined;
  const targets = state.count === 1 ? 'one generated target' : `${state.count || 'no'} generated targets`;
  return `--replay-path ${ctx.options.replayPath}: ${ctx.name} has ${targets} with this deployment, no target ${ctx.options.replayPath.split('/')[0]}`;
}

type Test<T> = (value: T) => Promise<Failure | undefined>;

/** Runs `test` on `ctx.runs` values of `arbitrary`; `test` resolves to a failure, or undefined when the case passed. */
export async function forAll<T>(
  ctx: CheckContext,
  label: string,
  arbitrary: fc.Arbitrary<T>,
  test: Test<T>,
  target: Target = nextTarget(ctx),
): Promise<void> {
  if (!target.sends) return;
  if (target.replay === undefined) note(ctx);
  await property(ctx, target, label, arbitrary, test, target.replay !== undefined ? { replay: target.replay } : {});
}

/**
 * Case `index` of `arbitrary` from the run's seed, found failing elsewhere (`found`: sent from a sample of the
 * same arbitrary), sent again and shrunk as forAll shrinks; `found` is reported as it is when it passes this time.
 */
export async function shrinkFound<T>(
  ctx: CheckContext,
  target: Target,
  label: string,
  arbitrary: fc.Arbitrary<T>,
  test: Test<T>,
  index: number,
  found: Failure,
): Promise<void> {
  await property(ctx, target, label, arbitrary, test, { index, found });
}

function note(ctx: CheckContext): void {
  ctx.note(
    `generated with fast-check seed ${ctx.seed}, ${ctx.runs} cases per target (repeat with --seed ${ctx.seed} --runs ${ctx.runs}); a failing case is shrunk, sending at most ${maxShrinkCases} more cases`,
  );
}

const shown = (text: string, max = 500) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A failure of `test`'s own making: what it threw (an error of the check itself names the case). */
function thrown(error: unknown, printed: string): Failure {
  if (error instanceof CheckAbort)
    return { message: error.message, ...(error.exchange ? { exchange: error.exchange } : {}) };
  return { message: `${error instanceof Error ? error.message : String(error)} (value ${shown(printed, 200)})` };
}

async function property<T>(
  ctx: CheckContext,
  target: Target,
  label: string,
  arbitrary: fc.Arbitrary<T>,
  test: Test<T>,
  start: { replay?: string; index?: number; found?: Failure },
): Promise<void> {
  /** Each failing case's failure, by the case as fast-check prints it (fast-check reports the last one it kept). */
  const failures = new Map<string, Failure>();
  /** Whether each case sent passed, by the case as fast-check prints it. */
  const answers = new Map<string, boolean>();
  let unreachable: TargetUnreachable | undefined;
  let shrinking: { from: number; requests: number; cases: number; sizeBefore: number } | undefined;
  let bounded = false;
  let sent = 0;
  // In a promise: fast-check throws at once for a path it cannot walk.
  const checked = Promise.resolve().then(() =>
    fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        // A replay sends exactly its case: fast-check would go on to the next sibling of a case that passes now.
        if (start.replay !== undefined && sent > 0) throw new fc.PreconditionFailure(true);
        if (shrinking && (shrinking.cases >= maxShrinkCases || Date.now() - shrinking.from >= maxShrinkMs)) {
          bounded = true;
          throw new fc.PreconditionFailure(true);
        }
        const printed = fc.stringify(value);
        if (answers.has(printed)) {
          // Sent already: its answer again, without a request. While shrinking, a case equal to one tried is
          // passed over rather than taken (it would only lengthen the path to the reported case).
          if (shrinking) throw new fc.PreconditionFailure(false);
          return answers.get(printed)!;
        }
        if (shrinking) shrinking.cases++;
        sent++;
        let failure: Failure | undefined;
        try {
          failure = await test(value);
        } catch (error) {
          if (error instanceof TargetUnreachable) {
            unreachable = error;
            throw new fc.PreconditionFailure(true);
          }
          failure = thrown(error, printed);
        }
        answers.set(printed, !failure);
        if (!failure) return true;
        failures.set(printed, failure);
        shrinking ??= { from: Date.now(), requests: ctx.requests, cases: 0, sizeBefore: printed.length };
        return false;
      }),
      {
        seed: ctx.seed,
        // A case found elsewhere is sent alone (fast-check would go on to the cases after it).
        numRuns: start.index !== undefined ? 1 : ctx.runs,
        ...(start.replay !== undefined ? { path: start.replay, endOnFailure: true } : {}),
        ...(start.index !== undefined ? { path: String(start.index) } : {}),
      },
    ),
  );
  const unwalkable = (why: string) =>
    ctx.fail(
      `--replay-path ${target.number}/${start.replay}: ${why} (is it from this version of the suite, against this deployment, with --seed ${ctx.seed}?)`,
    );
  let details: Awaited<typeof checked>;
  try {
    details = await checked;
  } catch (error) {
    // fast-check cannot walk a path that this target's cases do not have.
    if (start.replay === undefined) throw error;
    return unwalkable((error as Error).message);
  }
  if (unreachable) throw unreachable;
  if (start.replay !== undefined && sent === 0) return unwalkable(`${label} has no such case`);
  const where = `${label}, case`;
  if (!details.failed) {
    if (start.replay !== undefined)
      ctx.note(`${where} ${target.number}/${start.replay} of seed ${ctx.seed} replayed: it passes now`);
    if (start.found) {
      ctx.note(`${where} ${start.index! + 1} of seed ${ctx.seed} passed when sent again: reported as first found`);
      ctx.fail(`${where} ${start.index! + 1} of seed ${ctx.seed}: ${start.found.message}`, start.found.exchange);
    }
    return;
  }
  const counterexample = fc.stringify(details.counterexample?.[0]);
  const failure = failures.get(counterexample) ?? { message: 'failed' };
  const replayPath = `${target.number}/${details.counterexamplePath}`;
  const generated: GeneratedCase = {
    target: target.number,
    label,
    seed: ctx.seed,
    runs: ctx.runs,
    case:
      start.index !== undefined
        ? start.index + 1
        : start.replay !== undefined
          ? Number(start.replay.split(':')[0]) + 1
          : details.numRuns,
    replayPath,
    replayed: start.replay !== undefined,
    shrinks: details.numShrinks,
    bounded,
    shrinkCases: shrinking?.cases ?? 0,
    shrinkRequests: shrinking ? ctx.requests - shrinking.requests : 0,
    shrinkMs: shrinking ? Date.now() - shrinking.from : 0,
    sizeBefore: shrinking?.sizeBefore ?? counterexample.length,
    sizeAfter: counterexample.length,
    value: shown(counterexample),
  };
  // The targets a check numbers depend on the operations the run was narrowed to: the replay narrows them alike.
  const operations = ctx.options.operations?.length ? ` --operation ${ctx.options.operations.join(',')}` : '';
  const replay = `--only ${ctx.name}${operations} --seed ${ctx.seed} --runs ${ctx.runs} --replay-path ${replayPath}`;
  const message =
    start.replay !== undefined
      ? `${where} ${replayPath} of seed ${ctx.seed} replayed: ${failure.message}`
      : `${where} ${generated.case} of seed ${ctx.seed}: ${failure.message} (${shrunkText(generated)}; replay it alone: ${replay})`;
  ctx.fail(message, failure.exchange, generated);
}

/** `shrunk in 4 steps from 412 to 38 characters`, and when shrinking stopped at its bound. */
export function shrunkText(g: GeneratedCase): string {
  const steps = g.shrinks
    ? `shrunk in ${g.shrinks} step${g.shrinks === 1 ? '' : 's'} from ${g.sizeBefore} to ${g.sizeAfter} characters`
    : `not shrunk: no smaller case failed (${g.sizeAfter} characters)`;
  return `${steps}${g.bounded ? `, stopped at the bound of ${maxShrinkCases} cases or ${maxShrinkMs / 1000} s` : ''}`;
}

/** A query or path value as a server reads it from text: a number when it reads as one. */
export function coerce(schema: { type?: unknown; items?: unknown }, raw: string): unknown {
  if (schema.type === 'array') return [coerce((schema.items ?? {}) as { type?: unknown }, raw)];
  if ((schema.type === 'integer' || schema.type === 'number') && raw.trim() !== '' && Number.isFinite(Number(raw)))
    return Number(raw);
  return raw;
}

/** Text values for a query or path parameter: words, numbers (integers, decimals, out of range) and odd ones. */
export const parameterText = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/),
  fc.constantFrom(
    '-1',
    '0',
    '101',
    '3601',
    '1e9',
    'abc',
    'NaN',
    'true',
    '1.5',
    'K7Q2M9X4TB1',
    'use_case!',
    'RUNNING ',
    'd6e02699b78918a5032ec7a872e2de7800c3a15',
  ),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
);
