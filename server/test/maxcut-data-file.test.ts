// Tests for max-cut data-file format detection (graphFromDataFile): JSON or edge list past a byte-order mark
// and whitespace, empty files, and closing the source when a file proves invalid early.
import { describe, expect, it } from 'vitest';
import { graphFromDataFile } from '../../contract/src/inputs/maxcut/data-file.ts';
import { cutValue } from '../../contract/src/inputs/maxcut/graph.ts';
import {
  canonical,
  CHUNKINGS,
  chunksOf,
  encoder,
  EXAMPLE,
  EXAMPLE_CUT,
  EXAMPLE_EDGES,
  EXAMPLE_PARTITION,
  exampleGraph,
  inputError,
  pointers,
} from './support/maxcut-fixtures.ts';

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
