// The QUBO reference computations qubo_semantics trusts: energy over every entry of a matrix that is not
// symmetric, the minimum by enumeration (the example's -11), and the .qubo text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Contract } from '../src/contract/contract.ts';
import { exampleArbitrary } from '../src/generate/examples.ts';
import { energy } from '@jes/contract';
import { bruteForceQubo, type Qubo, quboFile, quboOf } from '../src/qubo.ts';

const contract = new Contract();
const example = contract.doc.components.examples.QuboInput.value;

describe('QUBO reference computations', () => {
  it("energy counts every entry whose variables are both 1; the example's minimum is -11 at x = (1, 0, 0, 1)", () => {
    expect(energy(example.q_matrix, [1, 0, 0, 1])).toBe(-11);
    expect(energy(example.q_matrix, [0, 0, 0, 0])).toBe(0);
    expect(energy(example.q_matrix, [1, 1, 0, 0])).toBe(-5 - 3 + 2 + 2);
    expect(energy(example.q_matrix, [0, 0, 1, 1])).toBe(-8 - 6 + 5 + 0);
    expect(bruteForceQubo(example.q_matrix)).toBe(-11);
  });

  it('enumeration: one variable, all zero, all positive, and against a second enumeration on generated inputs', () => {
    expect(bruteForceQubo([[-2.5]])).toBe(-2.5);
    expect(bruteForceQubo([[3]])).toBe(0);
    expect(bruteForceQubo(quboOf(5, () => 0).q_matrix)).toBe(0);
    expect(bruteForceQubo(quboOf(4, (i, j) => 1 + i + j).q_matrix)).toBe(0);
    const generated = fc.sample(exampleArbitrary(example), { seed: 7, numRuns: 40 }) as unknown as Qubo[];
    for (const q of generated.filter((q) => q.num_variables <= 8)) {
      const n = q.num_variables;
      let best = Infinity;
      for (let mask = 0; mask < 2 ** n; mask++) {
        let e = 0;
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) if ((mask >> i) & 1 && (mask >> j) & 1) e += q.q_matrix[i]![j]!;
        best = Math.min(best, e);
      }
      expect(bruteForceQubo(q.q_matrix)).toBeCloseTo(best, 9);
    }
  });

  it('a 16-variable QUBO enumerates its 65,536 assignments', () => {
    const q = quboOf(16, (i, j) => (i === j ? -1 : (i + j) % 3 === 0 ? 0.75 : 0));
    expect(Number.isFinite(bruteForceQubo(q.q_matrix))).toBe(true);
  });

  it("writes the example as the contract's .qubo file (comment, p line, diagonal, then the others)", () => {
    const documented = contract.byId('uploadDataFile').operation.requestBody.content['multipart/form-data'].examples
      .qubo.value.file as string;
    expect(quboFile(example, 'minimum energy -11 at x = 1 0 0 1')).toBe(documented);
    expect(
      quboFile(
        quboOf(2, () => 0),
        'empty',
      ),
    ).toBe('c empty\np qubo 0 2 0 0\n');
  });
});
