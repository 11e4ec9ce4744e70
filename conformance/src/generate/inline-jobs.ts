// The inline job requests positive_data_acceptance sends for a use case: inputs made from its example
// (examples.ts, its corner cases first), generated solver choices and query values, time limits of half a second
// at most. Sent once per run (fixtures.ts): positive_data_acceptance judges that each is accepted, and the
// semantics checks judge the answers, so that a run starts no other jobs for either.
import fc from 'fast-check';
import type { Contract } from '../contract/contract.ts';
import { deref } from '../contract/document.ts';
import type { UseCaseInfo } from '../use-cases.ts';
import { exampleArbitrary, exampleCorners } from './examples.ts';
import { arbitraryOf } from './schema-arbitrary.ts';

export interface InlineJobRequest {
  input: Record<string, unknown>;
  /** The query as sent: the generated one over a time limit of half a second. */
  query: Record<string, any>;
}

/** An arbitrary of query objects from an operation's query parameters (each present or not). */
export function queryArbitrary(
  contract: Contract,
  operationId: string,
  overrides: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<Record<string, any>> {
  const params = contract.byId(operationId).parameters.filter((p) => p.in === 'query');
  return fc.record(
    Object.fromEntries(params.map((p) => [p.name, overrides[p.name] ?? arbitraryOf(contract, p.schema)])),
    { requiredKeys: [] },
  );
}

/** Time limits the contract allows, up to half a second (so that a generated job ends soon on its own). */
export function quickTimeLimit(contract: Contract): fc.Arbitrary<unknown> {
  return arbitraryOf(contract, { ...deref(contract.doc, contract.schema('TimeLimitSeconds'))!, maximum: 0.5 });
}

/** Requests of a use case: variants of its example with a generated query, over a time limit of half a second. */
export function inlineJobArbitrary(contract: Contract, useCase: UseCaseInfo): fc.Arbitrary<InlineJobRequest> {
  const operationId = contract.find('POST', `/problem/${useCase.id}`)!.operation.operationId as string;
  return fc
    .record({
      input: exampleArbitrary(useCase.example),
      query: queryArbitrary(contract, operationId, {
        solver: fc.shuffledSubarray(
          useCase.solvers.map((s) => s.name),
          { minLength: 1 },
        ),
        time_limit_seconds: quickTimeLimit(contract),
      }),
    })
    .map(({ input, query }) => ({ input, query: { time_limit_seconds: 0.5, ...query } }));
}

/**
 * `runs` requests from `seed`: the example's corner cases (in place of the first generated ones), then generated
 * variants (inlineJobArbitrary's, so that case i is its i-th value from the seed: it can be shrunk from there).
 */
export function inlineJobRequests(
  contract: Contract,
  useCase: UseCaseInfo,
  seed: number,
  runs: number,
): InlineJobRequest[] {
  const corners = exampleCorners(useCase.example);
  return fc
    .sample(inlineJobArbitrary(contract, useCase), { seed, numRuns: runs })
    .map(({ input, query }, i) => ({ input: corners[i] ?? input, query }));
}
