// Tests that the streaming JSON data-file reader (graphFromJsonStream) agrees with JSON.parse and
// graphFromInline: layouts, chunkings, random matrices, number literals, errors and randomly damaged files.
import { describe, expect, it } from 'vitest';
import { cutValue, type Graph, graphFromInline, InputError } from '@jes/contract/inputs';
import { graphFromJsonStream } from '../../contract/src/inputs/maxcut/json-matrix.ts';
import { MAX_JSON_SIZE } from '../../contract/src/inputs/read/json-matrix.ts';
import {
  canonical,
  CHUNKINGS,
  chunksOf,
  encoder,
  EXAMPLE,
  EXAMPLE_CUT,
  EXAMPLE_PARTITION,
  exampleGraph,
  inputError,
  pointers,
  random,
  randomMatrixText,
  schemaValid,
  spaced,
  withRow,
} from './support/maxcut-fixtures.ts';

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
    const literals = [
      '0.1',
      '0.30000000000000004',
      '1.7976931348623157e308',
      '5e-324',
      '2.2250738585072014e-308',
      '123456789012345678901234567890',
      '1e22',
      '1e23',
      '9007199254740993',
      '-0.0',
      '1E+2',
      '0.000001',
      '123.456e-7',
      '4.35e-1',
      '1e-22',
      '8.5070591730234615e37',
      '0.0000000000000000000001',
    ];
    for (const literal of literals) {
      const graph = await graphFromJsonStream(
        chunksOf(`{"num_nodes":2,"adj_matrix":[[0,${literal}],[${literal},0]]}`, 'bytes'),
      );
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
      {
        num_nodes: 10,
        adj_matrix: Array.from({ length: 10 }, (_, i) => Array.from({ length: 10 }, (_, j) => (i < j ? 1 : 0))),
      },
    ];
    for (const value of cases) {
      for (const text of [
        JSON.stringify(value),
        JSON.stringify({
          adj_matrix: (value as typeof EXAMPLE).adj_matrix,
          num_nodes: (value as typeof EXAMPLE).num_nodes,
        }),
      ]) {
        const inline = await inputError(() => graphFromInline(JSON.parse(text) as typeof EXAMPLE));
        const streamed = await inputError(() => graphFromJsonStream(chunksOf(text, { seed: 9, max: 7 })));
        expect(streamed.message).toBe(inline.message);
        expect(streamed.errors).toEqual(inline.errors);
      }
    }
  });

  it('agrees with JSON.parse on randomly damaged files: accepts what it accepts, refuses the rest with an InputError', async () => {
    const next = random(23);
    const alphabet = '[]{},:"0123456789.-+eE x\n\t';
    const base = [
      JSON.stringify(EXAMPLE),
      JSON.stringify({
        adj_matrix: [
          [0, 1.5, -2],
          [1.5, 0, 0],
          [-2, 0, 7],
        ],
        num_nodes: 3,
      }),
    ];
    let accepted = 0;
    let refusedByBoth = 0;
    for (let round = 0; round < 1500; round++) {
      let text = base[round % 2]!;
      for (let edits = 1 + Math.floor(next() * 2); edits > 0; edits--) {
        const at = Math.floor(next() * text.length);
        const char = alphabet[Math.floor(next() * alphabet.length)]!;
        const kind = next();
        text =
          kind < 0.4
            ? text.slice(0, at) + char + text.slice(at + 1)
            : kind < 0.7
              ? text.slice(0, at) + text.slice(at + 1)
              : text.slice(0, at) + char + text.slice(at);
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
      if (parsed.num_nodes > MAX_JSON_SIZE) {
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
