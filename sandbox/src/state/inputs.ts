// The two use cases as the sandbox needs them, read with @jes/contract/inputs exactly as a deployment reads them
// (the same checks, messages and pointers): an inline body or a data file's bytes become the prepared input, whose
// answers are valued with the contract's own cutValue and energy.
import {
  checkMaxCutInline,
  checkQubo,
  cutValue,
  energy,
  type Graph,
  graphFromDataFile,
  type MaxCutInlineInput,
  type QuboInlineInput,
  type QuboInput,
  quboFromDataFile,
} from '@jes/contract/inputs';

/** An input, read and checked. */
export interface Prepared {
  /** Nodes (maxcut) or variables (qubo). */
  n: number;
  /** Edges or couplings. */
  edges: number;
  /** True when a larger value is better (a cut), false when a smaller one is (an energy). */
  maximise: boolean;
  /** The value of an assignment (one 0/1 per node or variable), as the contract computes it. */
  value(x: ArrayLike<number>): number;
  /** Σ over pairs i < j of their weight into `pairs` (n × n), and each one's own weight into `own` (for enumeration). */
  dense(pairs: Float64Array, own: Float64Array): void;
  /** Bytes the prepared input holds in memory. */
  bytes: number;
}

export interface SandboxUseCase {
  id: string;
  /** What its inputs are made of, for messages: `nodes` of a `graph`, `variables` of a `QUBO`. */
  units: string;
  thing: string;
  /** The inline body, checked as a deployment checks it; throws InputError. */
  inline(body: unknown): Prepared;
  /** A data file's bytes, read as a deployment reads them; rejects with InputError. */
  dataFile(bytes: Uint8Array): Promise<{ format: string; prepared: Prepared }>;
  /** An answer in the use case's output shape (MaxCutOutput, QuboOutput). */
  output(x: Uint8Array, value: number, optimal: boolean, more: Record<string, number>): Record<string, unknown>;
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

function fromGraph(graph: Graph): Prepared {
  const { n, offsets, targets, weights } = graph;
  return {
    n,
    edges: graph.edges,
    maximise: true,
    value: (x) => cutValue(graph, x),
    dense(pairs) {
      for (let i = 0; i < n; i++)
        for (let k = offsets[i]!; k < offsets[i + 1]!; k++) pairs[i * n + targets[k]!] = weights[k]!;
    },
    bytes: offsets.byteLength + targets.byteLength + weights.byteLength,
  };
}

function fromQubo(input: QuboInput): Prepared {
  const { n, diagonal, offsets, columns, couplings } = input;
  return {
    n,
    edges: columns.length,
    maximise: false,
    value: (x) => energy(input, x),
    dense(pairs, own) {
      own.set(diagonal);
      for (let i = 0; i < n; i++)
        for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
          pairs[i * n + columns[k]!] = couplings[k]!;
          pairs[columns[k]! * n + i] = couplings[k]!;
        }
    },
    bytes: diagonal.byteLength + offsets.byteLength + columns.byteLength + couplings.byteLength,
  };
}

export const maxcut: SandboxUseCase = {
  id: 'maxcut',
  units: 'nodes',
  thing: 'graph',
  inline: (body) => fromGraph(checkMaxCutInline(body as MaxCutInlineInput).graph()),
  async dataFile(bytes) {
    const { format, graph } = await graphFromDataFile(once(bytes));
    return { format, prepared: fromGraph(graph) };
  },
  output: (x, value, optimal, more) => ({ cut_value: value, partition: Array.from(x), optimal, ...more }),
};

export const qubo: SandboxUseCase = {
  id: 'qubo',
  units: 'variables',
  thing: 'QUBO',
  inline: (body) => fromQubo(checkQubo(body as QuboInlineInput).input()),
  async dataFile(bytes) {
    const { format, input } = await quboFromDataFile(once(bytes));
    return { format, prepared: fromQubo(input) };
  },
  output: (x, value, optimal, more) => ({ energy: value, assignment: Array.from(x), optimal, ...more }),
};

export const sandboxUseCases: Readonly<Record<string, SandboxUseCase>> = { maxcut, qubo };
