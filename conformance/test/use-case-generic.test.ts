// The suite is use-case generic: only the max-cut semantics check and its helpers know the max-cut use case
// by name (the rest reads the use cases from GET /problem), a request maps to the concrete operation before
// the template, and inputs made from an example without knowing its use case are valid ones.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Contract } from '../src/contract/contract.ts';
import { exampleArbitrary, exampleCorners } from '../src/generate/examples.ts';
import { jsonDataFile, largeInput, longInput, repeated, sizeOf, squareShape } from '../src/inputs.ts';

const src = join(import.meta.dirname, '../src');
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
const contract = new Contract();
const maxcut = contract.doc.components.examples.MaxCutInput.value;
const qubo = contract.doc.components.examples.QuboInput.value;

it('names maxcut only in the max-cut semantics check, its helpers, and where the registry lists it', () => {
  const helpers = ['checks/maxcut-semantics.ts', 'maxcut.ts', 'generate/graphs.ts'];
  const found = files.flatMap((file) =>
    readFileSync(join(src, file), 'utf8')
      .split('\n')
      .flatMap((line) => (line.includes('maxcut') ? [`${file}: ${line.trim()}`] : [])),
  );
  const elsewhere = found.filter((hit) => !helpers.some((helper) => hit.startsWith(`${helper}:`)));
  expect(elsewhere).toEqual([
    "checks/registry.ts: import { maxcutSemantics } from './maxcut-semantics.ts';",
    'checks/registry.ts: maxcutSemantics,',
  ]);
  expect(files.length).toBeGreaterThan(40);
});

describe('the operation a request reaches', () => {
  it('is the concrete one where the contract has a path for the use case, else the template', () => {
    const id = (method: string, path: string) => contract.find(method, path)?.operation.operationId;
    expect(id('POST', '/problem/maxcut')).toBe('startMaxCutJob');
    expect(id('POST', '/problem/qubo')).toBe('startQuboJob');
    expect(id('GET', '/problem/maxcut')).toBe('getMaxCutUseCase');
    expect(id('GET', '/problem/qubo')).toBe('getQuboUseCase');
    expect(id('POST', '/problem/tsp')).toBe('startJob');
    expect(id('GET', '/problem/tsp')).toBe('getProblem');
    expect(id('PUT', '/problem/qubo')).toBeUndefined();
  });
});

describe('inputs made from an example', () => {
  it('find the size and the square matrix of both examples, and nothing in other shapes', () => {
    expect(squareShape(maxcut)).toEqual({ matrix: 'adj_matrix', sizes: ['num_nodes'], n: 6 });
    expect(squareShape(qubo)).toEqual({ matrix: 'q_matrix', sizes: ['num_variables'], n: 4 });
    expect(squareShape({ cities: [[0, 1]], count: 1 })).toBeUndefined();
    expect(squareShape({ points: [1, 2, 3] })).toBeUndefined();
  });

  it('are copies along the diagonal that the contract accepts (and a symmetric matrix stays symmetric)', () => {
    for (const [example, schema] of [
      [maxcut, 'MaxCutInput'],
      [qubo, 'QuboInput'],
    ] as const) {
      const three = repeated(example, 3)!;
      expect(sizeOf(example, three)).toBe(3 * squareShape(example)!.n);
      expect(contract.validate(contract.schema(schema), three)).toEqual([]);
      const n = squareShape(example)!.n;
      const matrix = three[squareShape(example)!.matrix] as number[][];
      expect(matrix[n + 1]![n + 2]).toBe((example as any)[squareShape(example)!.matrix][1][2]);
      expect(matrix[1]![n + 2]).toBe(0);
      expect(sizeOf(example, longInput(example))).toBeGreaterThanOrEqual(60);
    }
    const graph = repeated(maxcut, 4)!.adj_matrix as number[][];
    graph.forEach((row, i) => row.forEach((w, j) => expect(w).toBe(graph[j]![i])));
  });

  it('vary as the contract allows: symmetric without a diagonal where the example is, any entries where it is not', () => {
    for (const [example, schema] of [
      [maxcut, 'MaxCutInput'],
      [qubo, 'QuboInput'],
    ] as const) {
      const { matrix } = squareShape(example)!;
      const sample = [...exampleCorners(example), ...fc.sample(exampleArbitrary(example), { seed: 3, numRuns: 60 })];
      for (const input of sample) expect(contract.validate(contract.schema(schema), input)).toEqual([]);
      const matrices = sample.map((input) => input[matrix] as number[][]);
      const entries = matrices.flat(2);
      expect(entries.some((x) => x < 0)).toBe(true);
      expect(entries.some((x) => !Number.isInteger(x))).toBe(true);
      expect(matrices.some((m) => m.length === 1) && matrices.some((m) => m.flat().every((x) => x === 0))).toBe(true);
      expect(Math.max(...matrices.map((m) => m.length))).toBeGreaterThan(12);
      const asymmetric = matrices.filter((m) => m.some((row, i) => row.some((x, j) => x !== m[j]![i])));
      const diagonal = matrices.filter((m) => m.some((row, i) => row[i] !== 0));
      if (example === maxcut) expect([asymmetric, diagonal]).toEqual([[], []]);
      else expect([asymmetric.length, diagonal.length].every((n) => n > 10)).toBe(true);
    }
    expect(exampleCorners(maxcut).map((input) => input.adj_matrix)).toEqual([
      [[0]],
      maxcut.adj_matrix.map((row: number[]) => row.map(() => 0)),
    ]);
  });

  it('fill a body limit without passing it, and fall back to the example in an unknown shape', () => {
    const big = largeInput(qubo, 4_194_303);
    const bytes = Buffer.byteLength(JSON.stringify(big));
    expect(bytes).toBeLessThanOrEqual(4_194_303);
    expect(bytes).toBeGreaterThan(3_000_000);
    const odd = { items: [1, 2], capacity: 3 };
    expect(largeInput(odd, 1000)).toEqual(odd);
    expect(longInput(odd)).toEqual(odd);
  });

  it('as a JSON data file, parse back to the input, with bytes of their own per salt', () => {
    const a = jsonDataFile(qubo, 'run-1');
    const b = jsonDataFile(qubo, 'run-2');
    expect(JSON.parse(a)).toEqual(qubo);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\{.*\}\n[ \t]+\n$/s);
  });
});
