// The QUBO use case (problem_id `qubo`): minimise xᵀQx over x ∈ {0,1}ⁿ. Its inputs are read by inline.ts and
// data-file.ts into the prepared QuboInput, stored by encoding.ts, and solved through the reduction to max cut.
import { useCaseRecord } from '../core/use-case-record.ts';
import type { UseCase } from '../core/use-case.ts';
import { checkQubo, quboFromDataFile, type QuboInlineInput, type QuboInput, quboLimits } from '@jes/contract/inputs';
import { decodeQubo, encodedQuboBytes, encodeQubo, quboBytes } from './encoding.ts';
import { defaultSolvers, solvers } from './solvers.ts';

const { maxDataFileBytes, maxInlineBytes, maxVariables } = quboLimits;

export type { QuboInput } from '@jes/contract/inputs';

const record = useCaseRecord({
  id: 'qubo',
  name: 'QUBO',
  description:
    'Choose 0 or 1 for each variable so that the energy xᵀQx (the sum of Q[i][j] over the pairs of variables both set to 1) is as low as possible.',
  inputSchema: 'QuboInput',
  outputSchema: 'QuboOutput',
  example: 'QuboInput',
  maxInlineBytes,
  maxDataFileBytes,
  maxNodes: maxVariables,
  dataFileFormats: ['json', 'qubo'],
  solvers,
});

export const qubo: UseCase<QuboInput> = {
  id: 'qubo',
  sense: 'min',
  // Built at its first read (use-case-record.ts).
  get record() {
    return record();
  },
  maxInlineBytes,
  maxDataFileBytes,
  checkInline(body) {
    const { n, couplings, input } = checkQubo(body as QuboInlineInput);
    return { size: { nodes: n, edges: couplings }, encodedBytes: quboBytes(n, couplings), prepare: input };
  },
  readDataFile: quboFromDataFile,
  size: (input) => ({ nodes: input.n, edges: input.columns.length }),
  encode: encodeQubo,
  encodedBytes: encodedQuboBytes,
  decode: decodeQubo,
  // The couplings W_ij = Q_ij + Q_ji in the upper triangle: the same energy for every assignment.
  inline: ({ n, diagonal, offsets, columns, couplings }) => {
    const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) {
      matrix[i]![i] = diagonal[i]!;
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) matrix[i]![columns[k]!] = couplings[k]!;
    }
    return { num_variables: n, q_matrix: matrix };
  },
  solvers,
  defaultSolvers,
};
