// The QUBO use case's limits, published in its record (GET /problem/qubo) and enforced by every reader.
//
// maxVariables: max cut's maxNodes, for the same reasons (an assignment is 2 bytes of JSON per variable in every
// answer, and the solvers run on the max-cut graph of n + 1 nodes the reduction builds).
import { InputError } from '../input-error.ts';
import { maxNodes } from '../maxcut/limits.ts';

/** An inline body must be smaller than this many bytes. */
export const maxInlineBytes = 4 * 1024 * 1024;
/** A data file may have at most this many bytes. */
export const maxDataFileBytes = 100 * 1024 * 1024;
/** A QUBO may have at most this many variables, whatever its form. */
export const maxVariables = maxNodes;

/** The detail of an error for a QUBO of `variables` variables (as written in the input), more than maxVariables. */
export function tooManyVariablesDetail(variables: string): string {
  return `${variables} variables is more than the ${maxVariables} a QUBO may have`;
}

/** The error for such a QUBO, pointing at its size (`pointer`): the inline body's and the JSON data file's. */
export function tooManyVariables(variables: string, pointer: string): InputError {
  return new InputError(`A QUBO may have at most ${maxVariables} variables; this one has ${variables}.`, [
    { pointer, detail: tooManyVariablesDetail(variables) },
  ]);
}
