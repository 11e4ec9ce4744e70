// Tests for the errors of the streaming JSON data-file reader (graphFromJsonStream): keys, num_nodes,
// non-finite numbers, grammar errors at matrix positions or byte offsets, and truncated files.
import { describe, expect, it } from 'vitest';
import { graphFromJsonStream } from '../../contract/src/inputs/maxcut/json-matrix.ts';
import { MAX_JSON_SIZE } from '../../contract/src/inputs/read/json-matrix.ts';
import { chunksOf, EXAMPLE, inputError, pointers } from './support/maxcut-fixtures.ts';

describe('graphFromJsonStream errors', () => {
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
    const extra = await inputError(() =>
      graphFromJsonStream(chunksOf('{"num_nodes": 1, "adj_matrix": [[0]], "a/b": 1}')),
    );
    expect(pointers(extra)).toEqual(['/a~1b']);
    expect(extra.message).toMatch(/only "num_nodes" and "adj_matrix"/);
    const repeated = await inputError(() =>
      graphFromJsonStream(chunksOf('{"num_nodes": 1, "num_nodes": 1, "adj_matrix": [[0]]}')),
    );
    expect(pointers(repeated)).toEqual(['/num_nodes']);
    // Escapes in keys mean what JSON says they mean.
    const escaped = await graphFromJsonStream(chunksOf('{"num\\u005fnodes": 1, "adj_matrix": [[0]]}'));
    expect(escaped.n).toBe(1);
  });

  it('refuses a num_nodes that is not an integer ≥ 1, and one too large for the JSON format', async () => {
    for (const value of ['0', '-1', '2.5', '"6"', 'null', '[6]']) {
      const error = await inputError(() =>
        graphFromJsonStream(chunksOf(`{"num_nodes": ${value}, "adj_matrix": [[0]]}`)),
      );
      expect(pointers(error)).toEqual(['/num_nodes']);
    }
    const large = await inputError(() =>
      graphFromJsonStream(chunksOf(`{"num_nodes": ${MAX_JSON_SIZE + 1}, "adj_matrix": [[0]]}`)),
    );
    expect(pointers(large)).toEqual(['/num_nodes']);
    expect(large.message).toMatch(/too large for the JSON format.*edge list/);
    expect(MAX_JSON_SIZE * MAX_JSON_SIZE * 8).toBeLessThanOrEqual(512 * 1024 * 1024);
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
      const error = await inputError(() =>
        graphFromJsonStream(chunksOf(`{"num_nodes": 2, "adj_matrix": ${matrix}}`, 'bytes')),
      );
      expect(pointers(error), matrix).toEqual([pointer]);
    }
  });

  it('refuses trailing garbage and other grammar errors at their byte offset', async () => {
    const text = JSON.stringify(EXAMPLE);
    const trailing = await inputError(() => graphFromJsonStream(chunksOf(text + ' \n x')));
    expect(trailing.errors).toEqual([
      {
        pointer: `/byte/${text.length + 3}`,
        detail: `unexpected "x" at byte ${text.length + 3}; expected nothing after the end of the JSON object`,
      },
    ]);
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
      const error = await inputError(() =>
        graphFromJsonStream(chunksOf(text.slice(0, length), { seed: length, max: 5 })),
      );
      expect(error.message, `a prefix of ${length} bytes`).toMatch(
        length === 0 ? /^The file is empty\.$/ : /^The JSON file ends early \(at byte \d+\); expected /,
      );
      expect(error.errors).toHaveLength(1);
    }
  });
});
