// Tests for the streaming edge-list reader (graphFromEdgeList): layouts and chunkings it tolerates, weights,
// merged repeats, agreement with graphFromEdges and with a naive merge, and its errors with /line/N pointers.
import { describe, expect, it } from 'vitest';
import { graphFromEdgeList } from '../../contract/src/inputs/maxcut/edge-list.ts';
import { maxNodes } from '../../contract/src/inputs/maxcut/limits.ts';
import { cutValue, graphFromEdges } from '@jes/contract/inputs';
import {
  canonical,
  CHUNKINGS,
  chunksOf,
  encoder,
  EXAMPLE_CUT,
  EXAMPLE_EDGES,
  EXAMPLE_PARTITION,
  exampleGraph,
  inputError,
  pointers,
  random,
} from './support/maxcut-fixtures.ts';

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
    'leading spaces and tabs, several between numbers':
      lines.map((l) => '\t ' + l.replaceAll(' ', ' \t  ')).join('\n') + '\n',
    'blank lines at the start, in between and at the end': '\n  \n' + lines.join('\n\n \t\n') + '\n\n\n  \n',
    'no final newline': lines.join('\n'),
    'everything at once': new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...encoder.encode('\r\n \t\r\n' + lines.map((l) => ` ${l}\t `).join('\r\n\r\n')),
    ]),
  };
  for (const [name, text] of Object.entries(variants)) {
    it(`tolerates ${name}, in any chunking`, async () => {
      for (const chunking of CHUNKINGS)
        expect(canonical(await graphFromEdgeList(chunksOf(text, chunking)))).toBe(exampleGraph);
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

  it('builds the same graph as graphFromEdges, and both as a naive merge, for random lists with repeats, in random chunks', async () => {
    const next = random(11);
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(next() * 12);
      const m = Math.floor(next() * 40);
      const from: number[] = [],
        to: number[] = [],
        weight: number[] = [];
      const rows = [`${n} ${m}`];
      for (let e = 0; e < m; e++) {
        const a = Math.floor(next() * n),
          b = Math.floor(next() * n);
        const w = [1, -1, 2, 0, 0.5, -0.25, 3e-2, 1e5][Math.floor(next() * 8)]!;
        from.push(a);
        to.push(b);
        weight.push(w);
        rows.push(`${a + 1} ${b + 1} ${w}`);
      }
      const graph = await graphFromEdgeList(chunksOf(rows.join('\n') + '\n', { seed: round, max: 9 }));
      expect(graph.n).toBe(n);
      expect(canonical(graph)).toBe(naiveMerge(from, to, weight));
      expect(canonical(graphFromEdges(n, from, to, weight))).toBe(naiveMerge(from, to, weight));
    }
  });

  /** The reference: merge by pair in a map, adding in input order; the canonical form of the result. */
  function naiveMerge(from: number[], to: number[], weight: number[]): string {
    const sums = new Map<string, number>();
    for (let e = 0; e < from.length; e++) {
      const a = Math.min(from[e]!, to[e]!),
        b = Math.max(from[e]!, to[e]!);
      if (a === b || weight[e] === 0) continue;
      sums.set(`${a} ${b}`, (sums.get(`${a} ${b}`) ?? 0) + weight[e]!);
    }
    return [...sums]
      .filter(([, w]) => w !== 0)
      .map(([pair, w]) => `${pair} ${w}`)
      .sort()
      .join('\n');
  }

  describe('errors, with /line/N pointers', () => {
    it('a header that is not "n m"', async () => {
      for (const [text, line] of [
        ['6\n1 2 3\n', 1],
        ['6 x\n', 1],
        ['6 12 4\n', 1],
        ['\n \r\n-6 12\n', 3],
        ['6.5 12\n', 1],
      ] as const) {
        const error = await inputError(() => graphFromEdgeList(chunksOf(text, 'bytes')));
        expect(pointers(error)).toEqual([`/line/${line}`]);
        expect(error.errors[0]!.detail).toMatch(/^expected "n m" \(node and edge counts\), found "/);
        expect(error.message).toMatch(new RegExp(`^Line ${line}: expected "n m"`));
      }
      const zero = await inputError(() => graphFromEdgeList(chunksOf('0 0\n')));
      expect(zero.errors).toEqual([{ pointer: '/line/1', detail: 'the graph must have at least 1 node' }]);
      const huge = await inputError(() => graphFromEdgeList(chunksOf(`${maxNodes + 1} 0\n`)));
      expect(huge.errors).toEqual([
        { pointer: '/line/1', detail: `${maxNodes + 1} nodes is more than the ${maxNodes} a graph may have` },
      ]);
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
      const error = await inputError(() =>
        graphFromEdgeList(
          chunksOf(EXAMPLE_EDGES.replace('1 3 6', '1 3').replace('2 4 5', '2 4 5 1').replace('3 5 5', '3.0 5 5')),
        ),
      );
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
      const long = await inputError(() =>
        graphFromEdgeList(chunksOf('6 12\n' + '1'.repeat(100_000), { seed: 5, max: 1000 })),
      );
      expect(pointers(long)).toEqual(['/line/2']);
      // A long line in one chunk was read (the bound held only for a line the chunks split): refused either way now.
      const padded = '2 1\n1 2' + ' '.repeat(5000) + '3\n';
      for (const chunking of CHUNKINGS) {
        const error = await inputError(() => graphFromEdgeList(chunksOf(padded, chunking)));
        expect(error.message).toBe('Line 2 is longer than 4096 bytes.');
      }
      const blank = await inputError(() => graphFromEdgeList(chunksOf('\n \r\n\t\n')));
      expect(pointers(blank)).toEqual(['/line/1']);
      const empty = await inputError(() => graphFromEdgeList(chunksOf('')));
      expect(empty.message).toMatch(/file is empty/);
    });
  });
});
