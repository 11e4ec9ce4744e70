// The max-cut use case: a weighted undirected graph in, a partition out. Inputs become a CSR Graph once (inline
// bodies and data files alike); the solvers run on it and their answers become the contract's MaxCutOutput.
import { toMillisecond } from '@jes/contract';
import {
  checkMaxCutInline,
  type Graph,
  graphFromDataFile,
  type MaxCutInlineInput,
  maxcutLimits,
} from '@jes/contract/inputs';
import type { CheckedInline, UseCase, UseCaseSolver } from '../core/use-case.ts';
import { useCaseRecord } from '../core/use-case-record.ts';
import { decodeGraph, encodedGraphBytes, encodeGraph } from './graph-bytes.ts';
import { defaultSolvers, solvers as graphSolvers } from './solvers/index.ts';
import type { Solver, SolveResult } from './solvers/solver.ts';

const { maxDataFileBytes, maxInlineBytes, maxNodes } = maxcutLimits;

/** MaxCutOutput: the cut, its partition, and what the solver proved. */
function output(result: SolveResult) {
  return {
    cut_value: result.cutValue,
    partition: Array.from(result.partition),
    optimal: result.optimal,
    ...(result.upperBound !== undefined ? { upper_bound: result.upperBound } : {}),
    iterations: result.iterations,
    // Stored to the millisecond, as every duration is given (the solver measures in fractions of one).
    time_to_best_seconds: toMillisecond(result.timeToBestSeconds),
  };
}

function asUseCaseSolver(solver: Solver): UseCaseSolver<Graph> {
  const { solve, ...info } = solver;
  return {
    ...info,
    solve(graph, options) {
      const result = solve(graph, options);
      return { data: output(result), objective: result.cutValue };
    },
  };
}

const solvers = graphSolvers.map(asUseCaseSolver);

/** The inline checks, as @jes/contract/inputs makes them (the sandbox's too). */
function checkInline(body: unknown): CheckedInline<Graph> {
  const checked = checkMaxCutInline(body as MaxCutInlineInput);
  const { n, edges } = checked;
  return { size: { nodes: n, edges }, encodedBytes: encodedGraphBytes({ n, edges }), prepare: checked.graph };
}

const record = useCaseRecord({
  id: 'maxcut',
  name: 'Maximum cut',
  description:
    'Split the nodes of a weighted undirected graph into two parts so that the total weight of the edges between the parts is as large as possible.',
  inputSchema: 'MaxCutInput',
  outputSchema: 'MaxCutOutput',
  example: 'MaxCutInput',
  maxInlineBytes,
  maxDataFileBytes,
  maxNodes,
  dataFileFormats: ['json', 'edge_list'],
  solvers,
});

export const maxcut: UseCase<Graph> = {
  id: 'maxcut',
  sense: 'max',
  // Built at its first read (use-case-record.ts).
  get record() {
    return record();
  },
  maxInlineBytes,
  maxDataFileBytes,
  checkInline,
  async readDataFile(chunks) {
    const { format, graph } = await graphFromDataFile(chunks);
    return { format, input: graph };
  },
  size: (graph) => ({ nodes: graph.n, edges: graph.edges }),
  encode: encodeGraph,
  encodedBytes: encodedGraphBytes,
  decode: decodeGraph,
  inline: ({ n, offsets, targets, weights }) => {
    const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++)
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) matrix[i]![targets[k]!] = weights[k]!;
    return { num_nodes: n, adj_matrix: matrix };
  },
  solvers,
  // The size of a data file still being validated is unknown: run what works for any size.
  defaultSolvers: (size) => defaultSolvers({ n: size?.nodes ?? Infinity }).map((s) => s.name),
};
