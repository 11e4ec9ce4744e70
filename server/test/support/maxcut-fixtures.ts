// Shared fixtures and helpers for the max-cut input parser tests: the contract example, chunked streams,
// random inputs, a CSR checker and InputError helpers.
import { expect } from 'vitest';
import { type Graph, graphFromInline, InputError } from '@jes/contract/inputs';

import { sixNodes, sixNodesCut, sixNodesEdgeList, sixNodesPartition } from '../../../test/support/six-nodes.ts';

export const EXAMPLE = sixNodes;
export const EXAMPLE_EDGES = sixNodesEdgeList;
export const EXAMPLE_PARTITION = sixNodesPartition;
export const EXAMPLE_CUT = sixNodesCut;

export const encoder = new TextEncoder();

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Chunking = 'whole' | 'bytes' | { seed: number; max: number };

/** The bytes as a stream of fresh chunks: all at once, one byte at a time, or random sizes 1..max. */
export async function* chunksOf(data: string | Uint8Array, chunking: Chunking = 'whole'): AsyncGenerator<Uint8Array> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const next = random(typeof chunking === 'object' ? chunking.seed : 0);
  let at = 0;
  while (at < bytes.length) {
    const size = chunking === 'whole' ? bytes.length : chunking === 'bytes' ? 1 : 1 + Math.floor(next() * chunking.max);
    yield bytes.slice(at, at + size);
    at += size;
  }
}

export const CHUNKINGS: Chunking[] = [
  'whole',
  'bytes',
  { seed: 1, max: 3 },
  { seed: 2, max: 17 },
  { seed: 3, max: 4096 },
];

/**
 * Checks the CSR invariants (sizes, ranges, no self-loops, finite non-zero weights, no repeated neighbour,
 * every entry mirrored with the same weight) and returns the edges as sorted "i j w" lines, i < j.
 */
export function canonical(graph: Graph): string {
  const { n, edges, offsets, targets, weights } = graph;
  expect(offsets.length).toBe(n + 1);
  expect(offsets[0]).toBe(0);
  expect(offsets[n]).toBe(2 * edges);
  expect(targets.length).toBe(2 * edges);
  expect(weights.length).toBe(2 * edges);
  const entries = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    expect(offsets[i + 1]!).toBeGreaterThanOrEqual(offsets[i]!);
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
      const j = targets[k]!;
      const w = weights[k]!;
      expect(j >= 0 && j < n && j !== i).toBe(true);
      expect(Number.isFinite(w) && w !== 0).toBe(true);
      expect(entries.has(`${i} ${j}`)).toBe(false);
      entries.set(`${i} ${j}`, w);
    }
  }
  const lines: string[] = [];
  for (const [key, w] of entries) {
    const [i, j] = key.split(' ').map(Number) as [number, number];
    expect(entries.get(`${j} ${i}`)).toBe(w);
    if (i < j) lines.push(`${i} ${j} ${w}`);
  }
  return lines.sort().join('\n');
}

/** Runs `action`, expects an InputError, returns it. */
export async function inputError(action: () => unknown): Promise<InputError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError, but the input was accepted');
}

export const pointers = (error: InputError) => error.errors.map((e) => e.pointer);
export const withRow = (matrix: number[][], i: number, row: number[]) =>
  matrix.map((r, k) => (k === i ? row : r.slice()));
export const exampleGraph = canonical(graphFromInline(EXAMPLE));

/** A JSON text of `value` with random JSON whitespace between tokens (strings in it hold no spaces). */
export function spaced(value: unknown, next: () => number): string {
  const ws = [' ', '\n', '\t', '\r\n', '  '];
  return JSON.stringify(value).replace(/[[\]{},:]/g, (token) => {
    const pad = () => (next() < 0.5 ? '' : ws[Math.floor(next() * ws.length)]!);
    return pad() + token + pad();
  });
}

/** A random symmetric matrix, written with a random mix of number forms. */
export function randomMatrixText(next: () => number): { n: number; text: string } {
  const n = 1 + Math.floor(next() * 12);
  const forms = [
    '0',
    '1',
    '-3',
    '0.5',
    '-0.125',
    '1e-7',
    '2.5E+3',
    '123456789012345678',
    '0.1',
    '3.14159265358979323846',
    '-0',
    '1e22',
    '1e23',
    '5e-324',
    '1.7976931348623157e308',
  ];
  const cells: string[][] = Array.from({ length: n }, () => new Array<string>(n).fill('0'));
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const form = next() < 0.3 ? '0' : forms[Math.floor(next() * forms.length)]!;
      cells[i]![j] = cells[j]![i] = form;
    }
  }
  const matrix = '[' + cells.map((row) => '[' + row.join(',') + ']').join(',') + ']';
  const text = next() < 0.5 ? `{"num_nodes":${n},"adj_matrix":${matrix}}` : `{"adj_matrix":${matrix},"num_nodes":${n}}`;
  return { n, text };
}

/** The JSON Schema's MaxCutInput, by hand. */
export function schemaValid(value: unknown): value is typeof EXAMPLE {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !keys.includes('num_nodes') || !keys.includes('adj_matrix')) return false;
  const { num_nodes: n, adj_matrix: matrix } = value as Record<string, unknown>;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return false;
  if (!Array.isArray(matrix) || matrix.length < 1) return false;
  return matrix.every((row) => Array.isArray(row) && row.length >= 1 && row.every((v) => typeof v === 'number'));
}
