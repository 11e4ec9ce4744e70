// What a data file declares, held to what its bytes can hold (issue 27, 5): a header's counts size nothing, and
// counts no data file could hold are refused at the header, before the lines are read; a JSON matrix grows with the
// rows it holds, not with the rows it opens (`[],` is 3 bytes; its share of the triangles was 8 × num_nodes).
import { describe, expect, it } from 'vitest';
import { graphFromEdgeList } from '../../contract/src/inputs/maxcut/edge-list.ts';
import { graphFromJsonStream } from '../../contract/src/inputs/maxcut/json-matrix.ts';
import { maxDataFileBytes } from '../../contract/src/inputs/maxcut/limits.ts';
import { quboFromJsonStream } from '../../contract/src/inputs/qubo/json-matrix.ts';
import { quboFromQuboFile } from '../../contract/src/inputs/qubo/qubo-file.ts';
import { encoder, inputError, pointers } from './support/maxcut-fixtures.ts';

/** More lines of 6 bytes than a data file can hold. */
const tooManyLines = Math.floor((maxDataFileBytes + 1) / 6) + 1;

/** `header`, then up to 1,000 chunks of valid lines; counts the chunks served and whether the reader closed it. */
function source(header: string, line: string) {
  const served = { chunks: 0, closed: false };
  const lines = encoder.encode(line.repeat(1000));
  const chunks: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (served.chunks === 1001) return { done: true, value: undefined };
        return { done: false, value: served.chunks++ === 0 ? encoder.encode(header) : lines };
      },
      return: async () => {
        served.closed = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { served, chunks };
}

describe('a header declaring more lines than a data file can hold', () => {
  it.each([
    ['an edge list', `3 ${tooManyLines}\n`, '1 2 1\n', graphFromEdgeList],
    ['a .qubo file', `p qubo 0 100000 0 ${tooManyLines}\n`, '0 1 1\n', quboFromQuboFile],
  ] as const)('%s is refused at the header, the rest unread', async (_, header, line, read) => {
    const { served, chunks } = source(header, line);
    const error = await inputError(() => read(chunks));
    expect(pointers(error)).toEqual(['/line/1']);
    expect(error.message).toContain(`is more than a data file of at most ${maxDataFileBytes} bytes can hold`);
    expect(served).toEqual({ chunks: 1, closed: true });
  });

  it.each([
    ['an edge list', `3 ${tooManyLines - 1}\n`, '1 2 1\n', graphFromEdgeList],
    ['a .qubo file', `p qubo 0 100000 0 ${tooManyLines - 1}\n`, '0 1 1\n', quboFromQuboFile],
  ] as const)(
    '%s declaring as many as one can hold is read, and refused for the lines it lacks',
    async (_, header, line, read) => {
      const { served, chunks } = source(header, line);
      const error = await inputError(() => read(chunks));
      expect(served.chunks).toBe(1001);
      expect(error.errors[0]!.detail).toMatch(/ but the file has 1000000$/);
    },
  );
});

describe('a JSON matrix of empty rows claiming the JSON format’s largest size', () => {
  it.each([
    ['max cut', '{"num_nodes":8192,"adj_matrix":[', graphFromJsonStream],
    ['QUBO', '{"num_variables":8192,"q_matrix":[', quboFromJsonStream],
  ] as const)('%s: is refused for its shape, its triangles never grown past what it holds', async (_, head, read) => {
    // 24 KiB: 8,192 rows `[]`, read in 1 KiB chunks; the memory in use is looked at after each chunk.
    const bytes = encoder.encode(`${head}${Array.from({ length: 8192 }, () => '[]').join(',')}]}`);
    const before = process.memoryUsage().arrayBuffers;
    let most = 0;
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += 1024) {
        yield bytes.subarray(at, at + 1024);
        most = Math.max(most, process.memoryUsage().arrayBuffers - before);
      }
    }
    const error = await inputError(() => read(chunks()));
    expect(error.message).toMatch(/must be num_\w+ × num_\w+ \(8192 × 8192\)/);
    expect(most).toBeLessThan(16 * 2 ** 20); // the full triangles are 256 MiB each
  });
});
