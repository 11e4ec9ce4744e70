// The max-cut input parsers: inline JSON, the streaming edge-list and JSON data-file readers, format
// detection, their InputError pointers, and (when the folder is there) every Gset benchmark graph.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { graphFromDataFile } from '../src/maxcut/data-file.ts';
import { graphFromEdgeList, MAX_EDGE_LIST_NODES } from '../src/maxcut/edge-list.ts';
import { cutValue, graphFromEdges, type Graph } from '../src/maxcut/graph.ts';
import { graphFromInline } from '../src/maxcut/inline.ts';
import { InputError } from '../src/maxcut/input-error.ts';
import { graphFromJsonStream, MAX_JSON_NODES } from '../src/maxcut/json-stream.ts';

// --- fixtures and helpers -----------------------------------------------------------------------------

const EXAMPLE = {
  num_nodes: 6,
  adj_matrix: [
    [0, 3, 6, 7, 3, 0],
    [3, 0, 4, 5, 8, 9],
    [6, 4, 0, 6, 5, 7],
    [7, 5, 6, 0, 8, 0],
    [3, 8, 5, 8, 0, 0],
    [0, 9, 7, 0, 0, 0],
  ],
};
const EXAMPLE_EDGES = '6 12\n1 2 3\n1 3 6\n1 4 7\n1 5 3\n2 3 4\n2 4 5\n2 5 8\n2 6 9\n3 4 6\n3 5 5\n3 6 7\n4 5 8\n';
const EXAMPLE_PARTITION = [0, 1, 1, 1, 0, 0];
const EXAMPLE_CUT = 53;

const encoder = new TextEncoder();

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Chunking = 'whole' | 'bytes' | { seed: number; max: number };

/** The bytes as a stream of fresh chunks: all at once, one byte at a time, or random sizes 1..max. */
async function* chunksOf(data: string | Uint8Array, chunking: Chunking = 'whole'): AsyncGenerator<Uint8Array> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const next = random(typeof chunking === 'object' ? chunking.seed : 0);
  let at = 0;
  while (at < bytes.length) {
    const size = chunking === 'whole' ? bytes.length : chunking === 'bytes' ? 1 : 1 + Math.floor(next() * chunking.max);
    yield bytes.slice(at, at + size);
    at += size;
  }
}

const CHUNKINGS: Chunking[] = ['whole', 'bytes', { seed: 1, max: 3 }, { seed: 2, max: 17 }, { seed: 3, max: 4096 }];

/**
 * Checks the CSR invariants (sizes, ranges, no self-loops, finite non-zero weights, no repeated neighbour,
 * every entry mirrored with the same weight) and returns the edges as sorted "i j w" lines, i < j.
 */
function canonical(graph: Graph): string {
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
async function inputError(action: () => unknown): Promise<InputError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError, but the input was accepted');
}

const pointers = (error: InputError) => error.errors.map((e) => e.pointer);
const withRow = (matrix: number[][], i: number, row: number[]) => matrix.map((r, k) => (k === i ? row : r.slice()));
const exampleGraph = canonical(graphFromInline(EXAMPLE));

// --- inline ---------------------------------------------------------------------------------------------

describe('graphFromInline', () => {
  it('turns the contract example into 12 edges with a cut of 53 for [0,1,1,1,0,0]', () => {
    const graph = graphFromInline(EXAMPLE);
    expect(graph.n).toBe(6);
    expect(graph.edges).toBe(12);
    expect(cutValue(graph, EXAMPLE_PARTITION)).toBe(EXAMPLE_CUT);
    canonical(graph);
  });

  it('ignores the diagonal and zero weights, and keeps negative and fractional weights', () => {
    const graph = graphFromInline({ num_nodes: 3, adj_matrix: [[9, -1.5, 0], [-1.5, 4, 2e-3], [0, 2e-3, -7]] });
    expect(graph.edges).toBe(2);
    expect(canonical(graph)).toBe('0 1 -1.5\n1 2 0.002');
  });

  it('accepts a single node', () => {
    const graph = graphFromInline({ num_nodes: 1, adj_matrix: [[5]] });
    expect(graph).toMatchObject({ n: 1, edges: 0 });
    expect([...graph.offsets]).toEqual([0, 0]);
  });

  it('answers a short row with the pointer of the contract example', async () => {
    const error = await inputError(() => graphFromInline({ num_nodes: 6, adj_matrix: withRow(EXAMPLE.adj_matrix, 2, [6, 4, 0, 6, 5]) }));
    expect(error.message).toBe('adj_matrix must be num_nodes × num_nodes (6 × 6).');
    expect(error.errors).toEqual([{ pointer: '/adj_matrix/2', detail: 'row 2 has 5 entries; expected 6' }]);
  });

  it('answers a wrong number of rows at /adj_matrix, and every wrong row', async () => {
    const error = await inputError(() => graphFromInline({ num_nodes: 6, adj_matrix: [...EXAMPLE.adj_matrix.slice(0, 4), [1, 2]] }));
    expect(error.message).toBe('adj_matrix must be num_nodes × num_nodes (6 × 6).');
    expect(error.errors).toEqual([
      { pointer: '/adj_matrix', detail: 'adj_matrix has 5 rows; expected 6' },
      { pointer: '/adj_matrix/4', detail: 'row 4 has 2 entries; expected 6' },
    ]);
  });

  it('refuses numbers JSON.parse turned into Infinity', async () => {
    const text = JSON.stringify(EXAMPLE).replace('[3,0,4,5,8,9]', '[3,0,4,1e400,8,9]').replace('[7,5,6,0,8,0]', '[7,-1e400,6,0,8,0]');
    const error = await inputError(() => graphFromInline(JSON.parse(text) as typeof EXAMPLE));
    expect(error.message).toBe('adj_matrix entries must be finite numbers.');
    expect(pointers(error)).toEqual(['/adj_matrix/1/3', '/adj_matrix/3/1']);
    expect(error.errors[0]!.detail).toMatch(/^Infinity is not a finite number/);
  });

  it('refuses an asymmetric matrix, pointing at the upper entry', async () => {
    const matrix = withRow(EXAMPLE.adj_matrix, 1, [3, 0, 4, 2, 8, 9]);
    const error = await inputError(() => graphFromInline({ num_nodes: 6, adj_matrix: matrix }));
    expect(error.message).toBe('adj_matrix must be symmetric.');
    expect(error.errors).toEqual([{ pointer: '/adj_matrix/1/3', detail: 'adj_matrix[1][3] = 2 but adj_matrix[3][1] = 5' }]);
  });

  it('reports at most 20 pointers and says how many problems there were', async () => {
    const n = 10;
    const matrix = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i < j ? 1 : 0)));
    const error = await inputError(() => graphFromInline({ num_nodes: n, adj_matrix: matrix }));
    expect(error.errors).toHaveLength(20);
    expect(error.message).toBe('adj_matrix must be symmetric. 45 problems; the first 20 are listed.');
    expect(error.errors[0]).toEqual({ pointer: '/adj_matrix/0/1', detail: 'adj_matrix[0][1] = 1 but adj_matrix[1][0] = 0' });
  });

  it('converts a dense 1,400 × 1,400 matrix in well under 50 ms', () => {
    const n = 1400;
    const next = random(7);
    const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) matrix[i]![j] = matrix[j]![i] = 1 + Math.floor(next() * 9);
    }
    const body = JSON.parse(JSON.stringify({ num_nodes: n, adj_matrix: matrix })) as typeof EXAMPLE;
    let best = Infinity;
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      const graph = graphFromInline(body);
      best = Math.min(best, performance.now() - start);
      expect(graph.edges).toBe((n * (n - 1)) / 2);
    }
    expect(best).toBeLessThan(50);
  });
});

// --- edge list ------------------------------------------------------------------------------------------

describe('graphFromEdgeList', () => {
  it('reads the contract example: 12 edges, cut 53, the same graph as inline', async () => {
    const graph = await graphFromEdgeList(chunksOf(EXAMPLE_EDGES));
    expect(graph.n).toBe(6);
    expect(graph.edges).toBe(12);
    expect(cutValue(graph, EXAMPLE_PARTITION)).toBe(EXAMPLE_CUT);
    expect(canonical(graph)).toBe(exampleGraph);
  });

  const lines = EXAMPLE_EDGES.trimEnd().split('\n');
  const variants: Record<string, string | Uint8Array> = {
    'CRLF line ends': lines.join('\r\n') + '\r\n',
    'a byte-order mark': new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(EXAMPLE_EDGES)]),
    'trailing spaces and tabs': lines.map((l, i) => l + (i % 2 ? ' \t ' : '  ')).join('\n') + '\n',
    'leading spaces and tabs, several between numbers': lines.map((l) => '\t ' + l.replaceAll(' ', ' \t  ')).join('\n') + '\n',
    'blank lines at the start, in between and at the end': '\n  \n' + lines.join('\n\n \t\n') + '\n\n\n  \n',
    'no final newline': lines.join('\n'),
    'everything at once': new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('\r\n \t\r\n' + lines.map((l) => ` ${l}\t `).join('\r\n\r\n'))]),
  };
  for (const [name, text] of Object.entries(variants)) {
    it(`tolerates ${name}, in any chunking`, async () => {
      for (const chunking of CHUNKINGS) expect(canonical(await graphFromEdgeList(chunksOf(text, chunking)))).toBe(exampleGraph);
    });
  }

  it('reads any finite weight: negative, fractional, with an exponent or a sign', async () => {
    const graph = await graphFromEdgeList(chunksOf('4 5\n1 2 -2\n1 3 0.25\n2 3 1e-3\n3 4 -2.5E+1\n1 4 +.5\n'));
    expect(canonical(graph)).toBe(['0 1 -2', '0 2 0.25', '0 3 0.5', '1 2 0.001', '2 3 -25'].join('\n'));
  });

  it('merges repeated edges by adding weights, drops zero sums, zero weights and self-loops', async () => {
    const text = '4 7\n1 2 1\n2 1 2.5\n3 3 9\n3 4 0\n1 3 4\n3 1 -4\n2 4 -1\n';
    const graph = await graphFromEdgeList(chunksOf(text, 'bytes'));
    expect(graph.edges).toBe(2);
    expect(canonical(graph)).toBe('0 1 3.5\n1 3 -1');
  });

  it('builds the same graph as graphFromEdges for random lists with repeats, in random chunks', async () => {
    const next = random(11);
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(next() * 12);
      const m = Math.floor(next() * 40);
      const from: number[] = [], to: number[] = [], weight: number[] = [];
      const rows = [`${n} ${m}`];
      for (let e = 0; e < m; e++) {
        const a = Math.floor(next() * n), b = Math.floor(next() * n);
        const w = [1, -1, 2, 0, 0.5, -0.25, 3e-2, 1e5][Math.floor(next() * 8)]!;
        from.push(a); to.push(b); weight.push(w);
        rows.push(`${a + 1} ${b + 1} ${w}`);
      }
      const graph = await graphFromEdgeList(chunksOf(rows.join('\n') + '\n', { seed: round, max: 9 }));
      expect(graph.n).toBe(n);
      expect(canonical(graph)).toBe(canonical(graphFromEdges(n, from, to, weight)));
    }
  });

  describe('errors, with /line/N pointers', () => {
    it('a header that is not "n m"', async () => {
      for (const [text, line] of [['6\n1 2 3\n', 1], ['6 x\n', 1], ['6 12 4\n', 1], ['\n \r\n-6 12\n', 3], ['6.5 12\n', 1]] as const) {
        const error = await inputError(() => graphFromEdgeList(chunksOf(text, 'bytes')));
        expect(pointers(error)).toEqual([`/line/${line}`]);
        expect(error.errors[0]!.detail).toMatch(/^expected "n m" \(node and edge counts\), found "/);
        expect(error.message).toMatch(new RegExp(`^Line ${line}: expected "n m"`));
      }
      const zero = await inputError(() => graphFromEdgeList(chunksOf('0 0\n')));
      expect(zero.errors).toEqual([{ pointer: '/line/1', detail: 'the graph must have at least 1 node' }]);
      const huge = await inputError(() => graphFromEdgeList(chunksOf(`${MAX_EDGE_LIST_NODES + 1} 0\n`)));
      expect(huge.errors).toEqual([{ pointer: '/line/1', detail: `${MAX_EDGE_LIST_NODES + 1} nodes is more than the ${MAX_EDGE_LIST_NODES} supported` }]);
    });

    it('a weight that is not a number, as in the contract example', async () => {
      const error = await inputError(() => graphFromEdgeList(chunksOf('3 2\n1 2 1\n1 3 x\n')));
      expect(error.message).toBe('Line 3: expected "i j w" with a numeric weight, found "1 3 x".');
      expect(error.errors).toEqual([{ pointer: '/line/3', detail: 'weight "x" is not a number' }]);
    });

    it('a node out of range, and line numbers that count blank lines and CRLF', async () => {
      const text = EXAMPLE_EDGES.replace('2 6 9', '2 7 9').replace('1 2 3\n', '1 2 3\n\n').replaceAll('\n', '\r\n');
      for (const chunking of CHUNKINGS) {
        const error = await inputError(() => graphFromEdgeList(chunksOf(text, chunking)));
        expect(error.errors).toEqual([{ pointer: '/line/10', detail: 'node 7 is out of range 1..6' }]);
        expect(error.message).toBe('Line 10: node 7 is out of range 1..6.');
      }
      const zero = await inputError(() => graphFromEdgeList(chunksOf(EXAMPLE_EDGES.replace('3 4 6', '0 4 6'))));
      expect(zero.errors).toEqual([{ pointer: '/line/10', detail: 'node 0 is out of range 1..6' }]);
    });

    it('a line without three numbers, or with a node that is not an integer', async () => {
      const error = await inputError(() => graphFromEdgeList(chunksOf(EXAMPLE_EDGES.replace('1 3 6', '1 3').replace('2 4 5', '2 4 5 1').replace('3 5 5', '3.0 5 5'))));
      expect(error.errors).toEqual([
        { pointer: '/line/3', detail: 'expected "i j w", found "1 3"' },
        { pointer: '/line/7', detail: 'expected "i j w", found "2 4 5 1"' },
        { pointer: '/line/11', detail: 'node "3.0" is not a node number' },
      ]);
      expect(error.message).toBe('Line 3: expected "i j w", found "1 3".');
    });

    it('a weight that is not finite', async () => {
      const error = await inputError(() => graphFromEdgeList(chunksOf(EXAMPLE_EDGES.replace('1 3 6', '1 3 1e400'))));
      expect(error.errors).toEqual([{ pointer: '/line/3', detail: '1e400 is not a finite number' }]);
    });

    it('too few edge lines: the pointer is the header', async () => {
      const error = await inputError(() => graphFromEdgeList(chunksOf(EXAMPLE_EDGES.replace('4 5 8\n', '\n\n'))));
      expect(error.errors).toEqual([{ pointer: '/line/1', detail: 'the header says 12 edges but the file has 11' }]);
      expect(error.message).toBe('Line 1: the header says 12 edges but the file has 11.');
    });

    it('too many edge lines: the pointer is the first extra line', async () => {
      const error = await inputError(() => graphFromEdgeList(chunksOf(EXAMPLE_EDGES + '5 6 1\n\n1 6 1')));
      expect(error.errors).toEqual([{ pointer: '/line/14', detail: 'the header says 12 edges but the file has 14' }]);
    });

    it('lists at most 20 bad lines', async () => {
      const text = '3 30\n' + '1 2 x\n'.repeat(30);
      const error = await inputError(() => graphFromEdgeList(chunksOf(text)));
      expect(error.errors).toHaveLength(20);
      expect(error.errors[19]).toEqual({ pointer: '/line/21', detail: 'weight "x" is not a number' });
    });

    it('an overlong line, a file of blank lines, an empty file', async () => {
      const long = await inputError(() => graphFromEdgeList(chunksOf('6 12\n' + '1'.repeat(100_000), { seed: 5, max: 1000 })));
      expect(pointers(long)).toEqual(['/line/2']);
      const blank = await inputError(() => graphFromEdgeList(chunksOf('\n \r\n\t\n')));
      expect(pointers(blank)).toEqual(['/line/1']);
      const empty = await inputError(() => graphFromEdgeList(chunksOf('')));
      expect(empty.message).toMatch(/file is empty/);
    });
  });
});

// --- JSON data files ------------------------------------------------------------------------------------

/** A JSON text of `value` with random JSON whitespace between tokens (strings in it hold no spaces). */
function spaced(value: unknown, next: () => number): string {
  const ws = [' ', '\n', '\t', '\r\n', '  '];
  return JSON.stringify(value).replace(/[[\]{},:]/g, (token) => {
    const pad = () => (next() < 0.5 ? '' : ws[Math.floor(next() * ws.length)]!);
    return pad() + token + pad();
  });
}

/** A random symmetric matrix, written with a random mix of number forms. */
function randomMatrixText(next: () => number): { n: number; text: string } {
  const n = 1 + Math.floor(next() * 12);
  const forms = ['0', '1', '-3', '0.5', '-0.125', '1e-7', '2.5E+3', '123456789012345678', '0.1', '3.14159265358979323846', '-0', '1e22', '1e23', '5e-324', '1.7976931348623157e308'];
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

describe('graphFromJsonStream', () => {
  it('reads the contract example in any layout and chunking: 12 edges, cut 53', async () => {
    const next = random(3);
    const swapped = { adj_matrix: EXAMPLE.adj_matrix, num_nodes: 6 };
    const texts: Array<string | Uint8Array> = [
      JSON.stringify(EXAMPLE),
      JSON.stringify(EXAMPLE, null, 2),
      JSON.stringify(swapped, null, '\t'),
      spaced(EXAMPLE, next),
      spaced(swapped, next) + '\r\n\n',
      new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(' \n' + JSON.stringify(EXAMPLE))]),
    ];
    for (const text of texts) {
      for (const chunking of CHUNKINGS) {
        const graph = await graphFromJsonStream(chunksOf(text, chunking));
        expect(graph.edges).toBe(12);
        expect(cutValue(graph, EXAMPLE_PARTITION)).toBe(EXAMPLE_CUT);
        expect(canonical(graph)).toBe(exampleGraph);
      }
    }
  });

  it('gives the same graph as JSON.parse and graphFromInline for random matrices in random chunks', async () => {
    const next = random(17);
    for (let round = 0; round < 150; round++) {
      const { text } = randomMatrixText(next);
      const body = round % 2 === 0 ? text : spaced(JSON.parse(text), next);
      const expected = canonical(graphFromInline(JSON.parse(body) as typeof EXAMPLE));
      const chunking = round % 5 === 0 ? 'bytes' : { seed: round, max: 1 + Math.floor(next() * 40) };
      expect(canonical(await graphFromJsonStream(chunksOf(body, chunking)))).toBe(expected);
    }
  });

  it('reads every number literal exactly as JSON.parse does', async () => {
    const literals = ['0.1', '0.30000000000000004', '1.7976931348623157e308', '5e-324', '2.2250738585072014e-308', '123456789012345678901234567890',
      '1e22', '1e23', '9007199254740993', '-0.0', '1E+2', '0.000001', '123.456e-7', '4.35e-1', '1e-22', '8.5070591730234615e37', '0.0000000000000000000001'];
    for (const literal of literals) {
      const graph = await graphFromJsonStream(chunksOf(`{"num_nodes":2,"adj_matrix":[[0,${literal}],[${literal},0]]}`, 'bytes'));
      const expected = JSON.parse(literal) as number;
      expect(graph.weights[0], literal).toBe(expected === 0 ? undefined : expected);
    }
  });

  it('reports shape, finiteness and symmetry exactly as graphFromInline does', async () => {
    const cases: unknown[] = [
      { num_nodes: 6, adj_matrix: withRow(EXAMPLE.adj_matrix, 2, [6, 4, 0, 6, 5]) },
      { num_nodes: 6, adj_matrix: [...EXAMPLE.adj_matrix.slice(0, 4), [1, 2]] },
      { num_nodes: 6, adj_matrix: [...EXAMPLE.adj_matrix, [1, 2, 3, 4, 5, 6]] },
      { num_nodes: 5, adj_matrix: EXAMPLE.adj_matrix },
      { num_nodes: 6, adj_matrix: withRow(EXAMPLE.adj_matrix, 1, [3, 0, 4, 2, 8, 9]) },
      { num_nodes: 10, adj_matrix: Array.from({ length: 10 }, (_, i) => Array.from({ length: 10 }, (_, j) => (i < j ? 1 : 0))) },
    ];
    for (const value of cases) {
      for (const text of [JSON.stringify(value), JSON.stringify({ adj_matrix: (value as typeof EXAMPLE).adj_matrix, num_nodes: (value as typeof EXAMPLE).num_nodes })]) {
        const inline = await inputError(() => graphFromInline(JSON.parse(text) as typeof EXAMPLE));
        const streamed = await inputError(() => graphFromJsonStream(chunksOf(text, { seed: 9, max: 7 })));
        expect(streamed.message).toBe(inline.message);
        expect(streamed.errors).toEqual(inline.errors);
      }
    }
  });

  it('refuses numbers too large for a double, with the literal in the detail', async () => {
    const text = JSON.stringify(EXAMPLE).replace('[3,0,4,5,8,9]', '[3,0,4,1e400,8,9]');
    const error = await inputError(() => graphFromJsonStream(chunksOf(text)));
    expect(error.message).toBe('adj_matrix entries must be finite numbers.');
    expect(error.errors).toEqual([{ pointer: '/adj_matrix/1/3', detail: '1e400 is not a finite number' }]);
  });

  it('refuses a missing key, an unknown key and a repeated key', async () => {
    const missing = await inputError(() => graphFromJsonStream(chunksOf('{"adj_matrix": [[0]]}')));
    expect(missing.errors).toEqual([{ pointer: '/num_nodes', detail: 'this required key is missing' }]);
    const both = await inputError(() => graphFromJsonStream(chunksOf('{ }')));
    expect(pointers(both)).toEqual(['/num_nodes', '/adj_matrix']);
    const extra = await inputError(() => graphFromJsonStream(chunksOf('{"num_nodes": 1, "adj_matrix": [[0]], "a/b": 1}')));
    expect(pointers(extra)).toEqual(['/a~1b']);
    expect(extra.message).toMatch(/only "num_nodes" and "adj_matrix"/);
    const repeated = await inputError(() => graphFromJsonStream(chunksOf('{"num_nodes": 1, "num_nodes": 1, "adj_matrix": [[0]]}')));
    expect(pointers(repeated)).toEqual(['/num_nodes']);
    // Escapes in keys mean what JSON says they mean.
    const escaped = await graphFromJsonStream(chunksOf('{"num\\u005fnodes": 1, "adj_matrix": [[0]]}'));
    expect(escaped.n).toBe(1);
  });

  it('refuses a num_nodes that is not an integer ≥ 1, and one too large for the JSON format', async () => {
    for (const value of ['0', '-1', '2.5', '"6"', 'null', '[6]']) {
      const error = await inputError(() => graphFromJsonStream(chunksOf(`{"num_nodes": ${value}, "adj_matrix": [[0]]}`)));
      expect(pointers(error)).toEqual(['/num_nodes']);
    }
    const large = await inputError(() => graphFromJsonStream(chunksOf(`{"num_nodes": ${MAX_JSON_NODES + 1}, "adj_matrix": [[0]]}`)));
    expect(pointers(large)).toEqual(['/num_nodes']);
    expect(large.message).toMatch(/too large for the JSON format.*edge list/);
    expect(MAX_JSON_NODES * MAX_JSON_NODES * 8).toBeLessThanOrEqual(512 * 1024 * 1024);
  });

  it('refuses grammar errors inside the matrix at the matrix position', async () => {
    const cases: Array<[string, string]> = [
      ['[[0,1,],[1,0]]', '/adj_matrix/0/2'],
      ['[[0,01],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,.5],[.5,0]]', '/adj_matrix/0/1'],
      ['[[0,+1],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,1.],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,1e],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,1],[1,,0]]', '/adj_matrix/1/1'],
      ['[[0,NaN],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,"1"],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,null],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,[1]],[1,0]]', '/adj_matrix/0/1'],
      ['[[0,1] [1,0]]', '/adj_matrix/1'],
      ['[[0,1],1]', '/adj_matrix/1'],
      ['{"a": 1}', '/adj_matrix'],
    ];
    for (const [matrix, pointer] of cases) {
      const error = await inputError(() => graphFromJsonStream(chunksOf(`{"num_nodes": 2, "adj_matrix": ${matrix}}`, 'bytes')));
      expect(pointers(error), matrix).toEqual([pointer]);
    }
  });

  it('refuses trailing garbage and other grammar errors at their byte offset', async () => {
    const text = JSON.stringify(EXAMPLE);
    const trailing = await inputError(() => graphFromJsonStream(chunksOf(text + ' \n x')));
    expect(trailing.errors).toEqual([{ pointer: `/byte/${text.length + 3}`, detail: `unexpected "x" at byte ${text.length + 3}; expected nothing after the end of the JSON object` }]);
    const twice = await inputError(() => graphFromJsonStream(chunksOf(text + text)));
    expect(pointers(twice)).toEqual([`/byte/${text.length}`]);
    const noColon = await inputError(() => graphFromJsonStream(chunksOf('{"num_nodes" 6}')));
    expect(pointers(noColon)).toEqual(['/byte/13']);
    const array = await inputError(() => graphFromJsonStream(chunksOf('[1]')));
    expect(pointers(array)).toEqual(['/byte/0']);
  });

  it('refuses every truncation of a valid file', async () => {
    const text = JSON.stringify(EXAMPLE, null, 1);
    for (let length = 0; length < text.trimEnd().length; length++) {
      const error = await inputError(() => graphFromJsonStream(chunksOf(text.slice(0, length), { seed: length, max: 5 })));
      expect(error.message, `a prefix of ${length} bytes`).toMatch(length === 0 ? /^The file is empty\.$/ : /^The JSON file ends early \(at byte \d+\); expected /);
      expect(error.errors).toHaveLength(1);
    }
  });

  it('agrees with JSON.parse on randomly damaged files: accepts what it accepts, refuses the rest with an InputError', async () => {
    const next = random(23);
    const alphabet = '[]{},:"0123456789.-+eE x\n\t';
    const base = [JSON.stringify(EXAMPLE), JSON.stringify({ adj_matrix: [[0, 1.5, -2], [1.5, 0, 0], [-2, 0, 7]], num_nodes: 3 })];
    let accepted = 0;
    let refusedByBoth = 0;
    for (let round = 0; round < 1500; round++) {
      let text = base[round % 2]!;
      for (let edits = 1 + Math.floor(next() * 2); edits > 0; edits--) {
        const at = Math.floor(next() * text.length);
        const char = alphabet[Math.floor(next() * alphabet.length)]!;
        const kind = next();
        text = kind < 0.4 ? text.slice(0, at) + char + text.slice(at + 1) : kind < 0.7 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + char + text.slice(at);
      }
      let parsed: unknown;
      let parses = true;
      try {
        parsed = JSON.parse(text);
      } catch {
        parses = false;
      }
      const stream = () => graphFromJsonStream(chunksOf(text, { seed: round, max: 6 }));
      if (!parses || !schemaValid(parsed)) {
        await inputError(stream);
        continue;
      }
      if (parsed.num_nodes > MAX_JSON_NODES) {
        expect((await inputError(stream)).message).toMatch(/too large for the JSON format/);
        continue;
      }
      let inline: Graph | InputError;
      try {
        inline = graphFromInline(parsed);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        inline = error;
      }
      if (inline instanceof InputError) {
        const streamed = await inputError(stream);
        expect(streamed.message, text).toBe(inline.message);
        expect(pointers(streamed), text).toEqual(pointers(inline));
        refusedByBoth++;
      } else {
        accepted++;
        expect(canonical(await stream()), text).toBe(canonical(inline));
      }
    }
    // The damage must sometimes leave a valid file and sometimes a valid JSON the checks refuse.
    expect(accepted).toBeGreaterThan(20);
    expect(refusedByBoth).toBeGreaterThan(20);
  });
});

/** The JSON Schema's MaxCutInput, by hand. */
function schemaValid(value: unknown): value is typeof EXAMPLE {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !keys.includes('num_nodes') || !keys.includes('adj_matrix')) return false;
  const { num_nodes: n, adj_matrix: matrix } = value as Record<string, unknown>;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return false;
  if (!Array.isArray(matrix) || matrix.length < 1) return false;
  return matrix.every((row) => Array.isArray(row) && row.length >= 1 && row.every((v) => typeof v === 'number'));
}

// --- format detection -----------------------------------------------------------------------------------

describe('graphFromDataFile', () => {
  it('reads the contract example as JSON and as an edge list', async () => {
    for (const chunking of CHUNKINGS) {
      const json = await graphFromDataFile(chunksOf(JSON.stringify(EXAMPLE), chunking));
      expect(json.format).toBe('json');
      expect(cutValue(json.graph, EXAMPLE_PARTITION)).toBe(EXAMPLE_CUT);
      expect(canonical(json.graph)).toBe(exampleGraph);
      const edges = await graphFromDataFile(chunksOf(EXAMPLE_EDGES, chunking));
      expect(edges.format).toBe('edge_list');
      expect(cutValue(edges.graph, EXAMPLE_PARTITION)).toBe(EXAMPLE_CUT);
      expect(canonical(edges.graph)).toBe(exampleGraph);
    }
  });

  it('looks past a byte-order mark and whitespace, even split over chunks', async () => {
    const bom = [0xef, 0xbb, 0xbf];
    const json = new Uint8Array([...bom, ...encoder.encode(' \r\n\t' + JSON.stringify(EXAMPLE))]);
    expect((await graphFromDataFile(chunksOf(json, 'bytes'))).format).toBe('json');
    const edges = new Uint8Array([...bom, ...encoder.encode('\n\n ' + EXAMPLE_EDGES)]);
    const read = await graphFromDataFile(chunksOf(edges, 'bytes'));
    expect(read.format).toBe('edge_list');
    expect(canonical(read.graph)).toBe(exampleGraph);
  });

  it('says an empty or blank file is empty', async () => {
    for (const text of ['', ' \n\r\n\t', '\uFEFF']) {
      const error = await inputError(() => graphFromDataFile(chunksOf(text, 'bytes')));
      expect(error.message).toBe('The file is empty.');
    }
    // Part of a byte-order mark is not nothing.
    for (const bytes of [[0xef], [0xef, 0xbb], [0xef, 0xbb, 0x7b]]) {
      const error = await inputError(() => graphFromDataFile(chunksOf(new Uint8Array(bytes), 'bytes')));
      expect(error.message).not.toBe('The file is empty.');
    }
  });

  it('stops reading the source when the file proves invalid early', async () => {
    let closed = false;
    let served = 0;
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          served++;
          return { done: false, value: encoder.encode(served === 1 ? '3 1000000\n' : '1 9 1\n') };
        },
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const error = await inputError(() => graphFromDataFile(source));
    expect(pointers(error)).toHaveLength(20);
    expect(closed).toBe(true);
    expect(served).toBeLessThan(100);
  });
});

// --- the Gset benchmark graphs --------------------------------------------------------------------------

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gsetDir = path.resolve(repoRoot, process.env.GSET_DIR ?? path.join('..', 'shared', 'data', 'gset'));
const gsetPresent = fs.existsSync(gsetDir);
if (!gsetPresent) console.warn(`maxcut-input: skipping the Gset checks: ${gsetDir} does not exist (set GSET_DIR to the folder of G*.txt and best-known.tsv).`);

describe.skipIf(!gsetPresent)(`the Gset graphs in ${gsetDir}`, () => {
  it('loads all 71 G*.txt files by streaming, as edge lists with the nodes and edges of best-known.tsv', async () => {
    const [header, ...rows] = fs.readFileSync(path.join(gsetDir, 'best-known.tsv'), 'utf8').trimEnd().split('\n').map((line) => line.split('\t'));
    expect(header!.slice(0, 6)).toEqual(['name', 'nodes', 'edges', 'weights', 'best_known_cut', 'source']);
    const listed = new Map(rows.map(([name, nodes, edges, weights]) => [name!, { nodes: Number(nodes), edges: Number(edges), weights: weights! }]));
    const files = fs.readdirSync(gsetDir).filter((name) => /^G\d+\.txt$/.test(name));
    expect(files).toHaveLength(71);
    expect(listed.size).toBe(71);
    for (const file of files) {
      const name = file.slice(0, -'.txt'.length);
      const expected = listed.get(name);
      expect(expected, `${name} is not in best-known.tsv`).toBeDefined();
      const { format, graph } = await graphFromDataFile(fs.createReadStream(path.join(gsetDir, file)));
      expect(format, name).toBe('edge_list');
      expect({ name, n: graph.n, edges: graph.edges }).toEqual({ name, n: expected!.nodes, edges: expected!.edges });
      const allowed = expected!.weights === '1' ? [1] : [1, -1];
      expect(graph.weights.every((w) => allowed.includes(w)), `${name} weights ${expected!.weights}`).toBe(true);
    }
  }, 20_000);
});
