// Large answers are written in slices (http/sliced-writes.ts): the text must be exactly what JSON.stringify gives,
// for every shape an answer has, and come in several slices when it is large.
import { describe, expect, it } from 'vitest';
import { jsonSlices } from '../src/http/sliced-writes.ts';

const collect = async (value: unknown) => {
  const parts: string[] = [];
  for await (const part of jsonSlices(value)) parts.push(part);
  return parts;
};

describe('jsonSlices', () => {
  it.each([
    ['a number', 53],
    ['null', null],
    ['a string with quotes, escapes and astral characters', 'a "q" \\ \n 😀 \u2028'],
    ['an empty object and array', { a: {}, b: [] }],
    ['members holding undefined or a function, which are left out', { a: 1, b: undefined, c: () => 1, d: 'x' }],
    ['array items undefined, NaN, -0 and Infinity', [undefined, NaN, -0, Infinity, 1.5e-7]],
    ['nested outputs', { job: 'K7Q2M9X4TB1R', outputs: { exact: { cut_value: 53, partition: [0, 1, 1] }, ls: null } }],
    ['an array of objects and values mixed', [1, { a: [2, 3] }, 'x', [4, [5]], true]],
    ['a Date (toJSON)', { at: new Date(Date.UTC(2027, 0, 1)) }],
  ])('writes %s as JSON.stringify does', async (_what, value) => {
    expect((await collect(value)).join('')).toBe(JSON.stringify(value));
  });

  it('writes a matrix of 1,447 rows and a partition of a million nodes in many slices, the same text', async () => {
    const matrix = Array.from({ length: 1447 }, (_, i) => Array.from({ length: 1447 }, (_, j) => (i * j) % 7));
    const partition = Array.from({ length: 1_000_000 }, (_, i) => i % 2);
    for (const value of [{ num_nodes: 1447, adj_matrix: matrix }, { partition }]) {
      const parts = await collect(value);
      expect(parts.length).toBeGreaterThan(20);
      expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(1024 * 1024);
      expect(parts.join('')).toBe(JSON.stringify(value));
    }
  });
});
