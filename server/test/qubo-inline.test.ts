// Tests for the QUBO use case's inline input (checkQubo through qubo.checkInline): the prepared form,
// the checks with their pointers, and the use case's record, size and encoding.
import { describe, expect, it } from 'vitest';
import { contract } from '../src/core/contract.ts';
import { InputError } from '../../contract/src/inputs/input-error.ts';
import { energy } from '../../contract/src/inputs/qubo/input.ts';
import { qubo } from '../src/qubo/use-case.ts';
import { inputError } from './support/maxcut-fixtures.ts';
import {
  denseEnergy,
  EXAMPLE,
  EXAMPLE_ASSIGNMENT,
  EXAMPLE_MINIMUM,
  plain,
  randomMatrix,
} from './support/qubo-fixtures.ts';

describe('qubo.checkInline', () => {
  it('prepares the contract example: the diagonal and W_ij = Q[i][j] + Q[j][i], i < j, non-zero only', () => {
    const input = qubo.checkInline(EXAMPLE).prepare();
    expect(plain(input)).toEqual({
      n: 4,
      diagonal: [-5, -3, -8, -6],
      offsets: [0, 2, 3, 4, 4],
      columns: [1, 2, 2, 3],
      couplings: [4, 4, 2, 5],
    });
    expect(energy(input, EXAMPLE_ASSIGNMENT)).toBe(EXAMPLE_MINIMUM);
    expect(qubo.size(input)).toEqual({ nodes: 4, edges: 4 });
  });

  it('gives every assignment the energy of the dense matrix (random matrices, n ≤ 8)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const n = 1 + (seed % 8);
      const q = randomMatrix(seed, n, seed % 2 ? 'integer' : 'sparse');
      const input = qubo.checkInline({ num_variables: n, q_matrix: q }).prepare();
      const x = new Uint8Array(n);
      for (let mask = 0; mask < 2 ** n; mask++) {
        for (let i = 0; i < n; i++) x[i] = (mask >>> i) & 1;
        expect(energy(input, x)).toBe(denseEnergy(q, x));
      }
    }
  });

  it('drops couplings that cancel (Q[i][j] = -Q[j][i]) and keeps a lone diagonal', () => {
    const input = qubo
      .checkInline({
        num_variables: 3,
        q_matrix: [
          [1, 2, 0],
          [-2, 0, 0],
          [0, 3, -0],
        ],
      })
      .prepare();
    expect(plain(input)).toEqual({ n: 3, diagonal: [1, 0, -0], offsets: [0, 0, 1, 1], columns: [2], couplings: [3] });
    expect(qubo.size(input)).toEqual({ nodes: 3, edges: 1 });
  });

  const refusals: Array<[string, unknown, string, Array<{ pointer: string; detail: string }>]> = [
    [
      'too few rows',
      {
        num_variables: 3,
        q_matrix: [
          [1, 2, 3],
          [4, 5, 6],
        ],
      },
      'q_matrix must be num_variables × num_variables (3 × 3).',
      [{ pointer: '/q_matrix', detail: 'q_matrix has 2 rows; expected 3' }],
    ],
    [
      'rows of the wrong length',
      { num_variables: 2, q_matrix: [[1], [2, 3, 4]] },
      'q_matrix must be num_variables × num_variables (2 × 2).',
      [
        { pointer: '/q_matrix/0', detail: 'row 0 has 1 entry; expected 2' },
        { pointer: '/q_matrix/1', detail: 'row 1 has 3 entries; expected 2' },
      ],
    ],
    [
      'the contract example: Infinity (1e400 as JSON.parse reads it)',
      JSON.parse('{"num_variables": 2, "q_matrix": [[1, 2], [1e400, -1e400]]}'),
      'q_matrix entries must be finite numbers.',
      [
        { pointer: '/q_matrix/1/0', detail: 'Infinity is not a finite number (numbers beyond ±1.8e308 overflow)' },
        { pointer: '/q_matrix/1/1', detail: '-Infinity is not a finite number (numbers beyond ±1.8e308 overflow)' },
      ],
    ],
    [
      'finite entries whose absolute values sum past a double',
      {
        num_variables: 2,
        q_matrix: [
          [1e308, 0],
          [0, -1e308],
        ],
      },
      'The absolute values of the entries of Q must sum to a finite number (below about 1.8e308), or an energy could not be represented.',
      [{ pointer: '/q_matrix', detail: 'the absolute values of the entries sum past the largest double' }],
    ],
  ];
  for (const [name, body, message, errors] of refusals) {
    it(`refuses ${name}`, async () => {
      const error = await inputError(() => qubo.checkInline(body).prepare());
      expect(error.message).toBe(message);
      expect(error.errors).toEqual(errors);
    });
  }

  it('lists at most 20 pointers and says how many problems there were', () => {
    const q = Array.from({ length: 5 }, () => Array.from({ length: 5 }, () => Infinity));
    try {
      qubo.checkInline({ num_variables: 5, q_matrix: q }).prepare();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).errors).toHaveLength(20);
      expect((error as InputError).message).toBe(
        'q_matrix entries must be finite numbers. 25 problems; the first 20 are listed.',
      );
    }
  });
});

describe('qubo.checkInline', () => {
  it('gives the size and encoded length of the input prepare() builds, and the same errors', async () => {
    for (const body of [
      EXAMPLE,
      { num_variables: 1, q_matrix: [[0]] },
      { num_variables: 9, q_matrix: randomMatrix(5, 9, 'fractional') },
      { num_variables: 12, q_matrix: randomMatrix(6, 12, 'sparse') },
    ]) {
      const checked = qubo.checkInline(body);
      const input = checked.prepare();
      expect(input).toEqual(qubo.checkInline(body).prepare());
      expect(checked.size).toEqual(qubo.size(input));
      expect(checked.encodedBytes).toBe(qubo.encode(input).length);
    }
    const body = {
      num_variables: 2,
      q_matrix: [
        [1, Infinity],
        [0, 1],
      ],
    };
    const [checked, accepted] = await Promise.all([
      inputError(() => qubo.checkInline(body)),
      inputError(() => qubo.checkInline(body).prepare()),
    ]);
    expect(checked.errors).toEqual(accepted.errors);
    expect(checked.errors).toEqual([
      { pointer: '/q_matrix/0/1', detail: 'Infinity is not a finite number (numbers beyond ±1.8e308 overflow)' },
    ]);
  });
});

describe('qubo.encode and qubo.decode', () => {
  const inputs = [
    qubo.checkInline(EXAMPLE).prepare(),
    qubo.checkInline({ num_variables: 1, q_matrix: [[0]] }).prepare(),
    qubo
      .checkInline({
        num_variables: 3,
        q_matrix: [
          [0.1, 0, 0],
          [0, -2.5e-300, 0],
          [0, 0, 7],
        ],
      })
      .prepare(),
    qubo.checkInline({ num_variables: 9, q_matrix: randomMatrix(5, 9, 'fractional') }).prepare(),
  ];
  for (const input of inputs) {
    it(`round-trips ${input.n} variables and ${input.columns.length} couplings`, () => {
      const bytes = qubo.encode(input);
      expect(qubo.decode(bytes)).toEqual(input);
      expect(qubo.encodedBytes(input)).toBe(bytes.length);
      // From a Buffer at an odd offset of a larger one, as a database driver may hand it back.
      const pool = Buffer.alloc(bytes.length + 3);
      pool.set(bytes, 3);
      expect(qubo.decode(pool.subarray(3))).toEqual(input);
    });
  }

  it('refuses bytes it did not write', () => {
    const bytes = qubo.encode(inputs[0]!);
    expect(() => qubo.decode(bytes.subarray(0, bytes.length - 4))).toThrow(/has \d+ bytes/);
    const other = bytes.slice();
    other[0] = 9;
    expect(() => qubo.decode(other)).toThrow('format version 9');
  });
});

describe('qubo.record', () => {
  it('is the contract’s QuboUseCase example, its schemas the contract’s own', () => {
    const example = contract.components.examples.QuboUseCase!.value as Record<string, unknown>;
    const { input_schema, output_schema, ...rest } = qubo.record as unknown as Record<string, unknown>;
    const { input_schema: exampleInput, output_schema: exampleOutput, ...exampleRest } = example;
    expect(rest).toEqual(exampleRest);
    // The example abbreviates the schemas; the record serves them whole. Both name the same properties.
    for (const [served, shown, name] of [
      [input_schema, exampleInput, 'QuboInput'],
      [output_schema, exampleOutput, 'QuboOutput'],
    ] as Array<[Record<string, unknown>, Record<string, unknown>, string]>) {
      expect(served.$schema).toBe(shown.$schema);
      expect(served.required).toEqual(shown.required);
      expect(Object.keys(served.properties as object)).toEqual(Object.keys(shown.properties as object));
      const schema = contract.components.schemas[name] as Record<string, unknown>;
      expect(served.required).toEqual(schema.required);
    }
  });

  it('chooses exact up to 32 variables, annealing beyond and while the size is unknown', () => {
    expect(qubo.defaultSolvers({ nodes: 32, edges: 0 })).toEqual(['exact']);
    expect(qubo.defaultSolvers({ nodes: 33, edges: 0 })).toEqual(['annealing']);
    expect(qubo.defaultSolvers(undefined)).toEqual(['annealing']);
    expect(qubo.solvers.map((s) => s.name)).toEqual(['exact', 'annealing', 'local-search']);
  });
});
