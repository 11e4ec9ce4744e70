// Running a generated check with fast-check: a bounded number of cases from the run's seed (printed, so a
// failure repeats with --seed), stopping at the first case the deployment gets wrong (no shrinking: each
// case costs requests to a live deployment). The failure names the case and carries its request.
import fc from 'fast-check';
import type { CheckContext } from '../context.ts';
import { CheckAbort, TargetUnreachable } from '../http.ts';
import type { Failure } from '../types.ts';

/** Runs `test` on `ctx.runs` values of `arbitrary`; `test` resolves to a failure, or undefined when the case passed. */
export async function forAll<T>(
  ctx: CheckContext,
  label: string,
  arbitrary: fc.Arbitrary<T>,
  test: (value: T) => Promise<Failure | undefined>,
): Promise<void> {
  let failure: Failure | undefined;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      failure = await test(value);
      return failure === undefined;
    }),
    { seed: ctx.seed, numRuns: ctx.runs, endOnFailure: true },
  );
  ctx.note(
    `generated with fast-check seed ${ctx.seed}, ${ctx.runs} cases per target (repeat with --seed ${ctx.seed} --runs ${ctx.runs})`,
  );
  if (!details.failed) return;
  const where = `${label}, case ${details.numRuns} of seed ${ctx.seed}`;
  const error = details.errorInstance;
  if (error instanceof TargetUnreachable) throw error;
  if (failure) ctx.fail(`${where}: ${failure.message}`, failure.exchange);
  else if (error instanceof CheckAbort) ctx.fail(`${where}: ${error.message}`, error.exchange);
  else
    ctx.fail(
      `${where}: ${error instanceof Error ? error.message : String(error)} (value ${fc.stringify(details.counterexample?.[0])})`,
    );
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
