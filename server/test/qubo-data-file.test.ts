// Tests for QUBO data files (quboFromDataFile through qubo.readDataFile): qbsolv's .qubo text (the contract's
// upload example, tolerated layouts, every refusal with its /line/N pointer) and the JSON shape, which must
// prepare the same input as the inline body.
import { describe, expect, it } from 'vitest';
import { energy } from '../../contract/src/inputs/qubo/input.ts';
import { qubo } from '../src/qubo/use-case.ts';
import { CHUNKINGS, chunksOf, encoder, inputError, pointers, random, spaced } from './support/maxcut-fixtures.ts';
import {
  EXAMPLE,
  EXAMPLE_ASSIGNMENT,
  EXAMPLE_FILE,
  EXAMPLE_MINIMUM,
  plain,
  quboText,
  randomMatrix,
} from './support/qubo-fixtures.ts';

const read = async (text: string | Uint8Array, chunking: (typeof CHUNKINGS)[number] = 'whole') =>
  qubo.readDataFile(chunksOf(text, chunking));
const example = plain(qubo.checkInline(EXAMPLE).prepare());

describe('.qubo files', () => {
  it('reads the contract upload example: the same QUBO as the inline example, minimum -11', async () => {
    for (const chunking of CHUNKINGS) {
      const { format, input } = await read(EXAMPLE_FILE, chunking);
      expect(format).toBe('qubo');
      expect(plain(input)).toEqual(example);
      expect(energy(input, EXAMPLE_ASSIGNMENT)).toBe(EXAMPLE_MINIMUM);
    }
  });

  const lines = EXAMPLE_FILE.trimEnd().split('\n');
  const variants: Record<string, string | Uint8Array> = {
    'CRLF line ends': lines.join('\r\n') + '\r\n',
    'a byte-order mark': new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(EXAMPLE_FILE)]),
    'trailing spaces and tabs, and several between fields': lines
      .map((l) => l.replaceAll(' ', ' \t ') + ' \t')
      .join('\n'),
    'blank lines and comments anywhere': '\n' + lines.join('\n\nc a comment\n  c indented\n') + '\n\n',
    'entries in another order, i > j as Q[i][j], numbers as 1e0 and 2.0':
      'p qubo 0 4 4 6\n2 3 5\n1 2 1e0\n3 3 -6\n0 1 2.0\n2 1 1\n1 0 2\n0 0 -5\n2 2 -8\n1 1 -3\n0 2 4\n',
    'no final newline': lines.join('\n'),
  };
  for (const [name, text] of Object.entries(variants)) {
    it(`tolerates ${name}, in any chunking`, async () => {
      for (const chunking of CHUNKINGS) expect(plain((await read(text, chunking)).input)).toEqual(example);
    });
  }

  it('agrees with the inline body on random matrices, zero sums dropped', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const q = randomMatrix(seed, 1 + (seed % 9), seed % 2 ? 'sparse' : 'fractional');
      q[0]![q.length - 1] = 3;
      q[q.length - 1]![0] = q.length > 1 ? -3 : 3; // cancels: W = 0
      const inline = plain(qubo.checkInline({ num_variables: q.length, q_matrix: q }).prepare());
      expect(plain((await read(quboText(q), { seed, max: 7 })).input)).toEqual(inline);
    }
  });

  it('reads every number form exactly as Number() does', async () => {
    const literals = [
      '1',
      '-2.5',
      '1e3',
      '+7',
      '0.1',
      '-0.3',
      '.5',
      '5.',
      '-0',
      '2.5E-3',
      '123456789012345',
      '1234567890123456',
      '12345678901234567890',
      '0.123456789012345',
      '-9.87654321098765',
      '1.0000000000000002',
      '0.000000000000001',
      '3.14159265358979323846',
      '1e-320',
      '1.7976931348623157e308',
      '00012.50',
    ];
    const rng = random(11);
    for (let k = 0; k < 200; k++) {
      const digits = String(Math.floor(rng() * 1e15));
      const at = Math.floor(rng() * digits.length);
      literals.push((rng() < 0.5 ? '-' : '') + digits.slice(0, at) + '.' + digits.slice(at));
    }
    const text =
      `p qubo 0 ${literals.length} ${literals.length} 0\n` + literals.map((l, i) => `${i} ${i} ${l}`).join('\n');
    const { input } = await read(text);
    expect(Array.from(input.diagonal)).toEqual(literals.map(Number));
  });

  it('reads a QUBO with no entries at all', async () => {
    expect(plain((await read('p qubo 0 3 0 0\n')).input)).toEqual({
      n: 3,
      diagonal: [0, 0, 0],
      offsets: [0, 0, 0, 0],
      columns: [],
      couplings: [],
    });
  });

  const refusals: Array<[string, string, string, string[]]> = [
    ['an empty file', '', 'The file is empty.', ['']],
    ['a file of blanks', ' \n\t\r\n', 'The file is empty.', ['']],
    [
      'comments only',
      'c nothing\nc here\n',
      'The file has no p line "p qubo 0 maxDiagonals nDiagonals nElements".',
      ['/line/1'],
    ],
    ['an entry before the p line', 'c x\n0 0 1\np qubo 0 1 1 0\n', 'Line 2: expected the "p qubo 0', ['/line/2']],
    ['a p line of the wrong shape', 'p qubo 0 4 4\n', 'Line 1: expected "p qubo 0 maxDiagonals', ['/line/1']],
    ['another format than qubo', 'p qubit 0 4 4 6\n', 'Line 1: expected "p qubo 0', ['/line/1']],
    [
      'a topology other than 0',
      'c\np qubo 1 4 4 6\n',
      'Line 2: the topology must be 0 (unconstrained), found 1.',
      ['/line/2'],
    ],
    [
      'no variables',
      'p qubo 0 0 0 0\n',
      'Line 1: maxDiagonals (the number of variables) must be at least 1.',
      ['/line/1'],
    ],
    [
      'too many variables',
      'p qubo 0 100001 0 0\n',
      'Line 1: 100001 variables is more than the 100000 a QUBO may have.',
      ['/line/1'],
    ],
    [
      'more diagonals than variables',
      'p qubo 0 2 3 0\n',
      'Line 1: nDiagonals 3 is more than maxDiagonals 2.',
      ['/line/1'],
    ],
    [
      'more elements than pairs',
      'p qubo 0 2 0 3\n',
      'Line 1: nElements 3 is more than the 2 pairs i ≠ j.',
      ['/line/1'],
    ],
    [
      'a second p line',
      'p qubo 0 2 1 0\np qubo 0 2 1 0\n0 0 1\n',
      'Line 2: a second p line (the first is line 1).',
      ['/line/2'],
    ],
    ['a line of two fields', 'p qubo 0 2 1 0\n0 0\n', 'Line 2: expected "i j value", found "0 0".', ['/line/2']],
    [
      'a variable that is not a number',
      'p qubo 0 2 0 1\n0 x 1\n',
      'Line 2: expected "i j value" with integer variable numbers, found "0 x 1".',
      ['/line/2'],
    ],
    ['a negative variable', 'p qubo 0 2 0 1\n-1 0 1\n', 'Line 2: expected "i j value" with integer', ['/line/2']],
    ['a variable out of range', 'p qubo 0 2 0 1\n0 2 1\n', 'Line 2: variable 2 is out of range 0..1.', ['/line/2']],
    [
      'a value that is not a number',
      'p qubo 0 2 1 0\n1 1 one\n',
      'Line 2: expected "i j value" with a numeric value, found "1 1 one".',
      ['/line/2'],
    ],
    [
      'a value that is NaN',
      'p qubo 0 2 1 0\n1 1 NaN\n',
      'Line 2: expected "i j value" with a numeric value',
      ['/line/2'],
    ],
    [
      'an infinite value',
      'p qubo 0 2 1 0\n1 1 1e400\n',
      'Line 2: the value 1e400 is not a finite number.',
      ['/line/2'],
    ],
    [
      'a diagonal entry given twice',
      'p qubo 0 2 2 0\n1 1 1\nc\n1 1 2\n',
      'Line 4: the entry (1, 1) is given twice, on lines 2 and 4.',
      ['/line/4'],
    ],
    [
      'an element given twice',
      'p qubo 0 3 0 3\n2 0 1\n0 2 1\n2 0 5\n',
      'Line 4: the entry (2, 0) is given twice, on lines 2 and 4.',
      ['/line/4'],
    ],
    [
      'fewer diagonals than declared',
      'p qubo 0 2 2 0\n0 0 1\n',
      'Line 1: the p line says 2 diagonal entries but the file has 1.',
      ['/line/1'],
    ],
    [
      'more elements than declared',
      'p qubo 0 3 0 1\n0 1 1\n1 0 1\n0 2 1\n',
      'Line 3: the p line says 1 elements but the file has 3.',
      ['/line/3'],
    ],
    [
      'entries whose absolute values sum past a double',
      'p qubo 0 2 2 0\n0 0 1e308\n1 1 -1e308\n',
      'The absolute values of the entries of Q must sum',
      [''],
    ],
    [
      'a line longer than 4096 bytes',
      `p qubo 0 2 1 0\n0 0 ${'1'.repeat(5000)}\n`,
      'Line 2 is longer than 4096 bytes.',
      ['/line/2'],
    ],
    ['part of a byte-order mark', '\xef\xbb', 'Line 1: expected the "p qubo 0', ['/line/1']],
  ];
  for (const [name, text, message, expected] of refusals) {
    it(`refuses ${name}`, async () => {
      for (const chunking of ['whole', 'bytes'] as const) {
        const error = await inputError(() => read(text === '\xef\xbb' ? new Uint8Array([0xef, 0xbb]) : text, chunking));
        expect(error.message.startsWith(message), error.message).toBe(true);
        expect(pointers(error)).toEqual(expected);
      }
    });
  }

  it('reports every bad line, up to 20, then the counts', async () => {
    const bad = Array.from({ length: 5 }, (_, k) => `${k} 9 1`);
    const error = await inputError(() => read(`p qubo 0 3 0 5\n${bad.join('\n')}\n`));
    expect(pointers(error)).toEqual(['/line/2', '/line/3', '/line/4', '/line/5', '/line/6']);
    const many = Array.from({ length: 30 }, () => '0 0 x').join('\n');
    const capped = await inputError(() => read(`p qubo 0 1 1 0\n${many}\n`));
    expect(capped.errors).toHaveLength(20);
  });
});

describe('JSON QUBO files', () => {
  it('reads the contract example in any layout and chunking, and its members in either order', async () => {
    const next = random(7);
    const swapped = { q_matrix: EXAMPLE.q_matrix, num_variables: 4 };
    const texts = [
      JSON.stringify(EXAMPLE),
      JSON.stringify(swapped, null, 2),
      spaced(EXAMPLE, next) + '\n',
      new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(' \r\n' + JSON.stringify(swapped))]),
    ];
    for (const text of texts) {
      for (const chunking of CHUNKINGS) {
        const { format, input } = await read(text, chunking);
        expect(format).toBe('json');
        expect(plain(input)).toEqual(example);
      }
    }
  });

  it('agrees with the inline body on random matrices', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const q = randomMatrix(seed, 1 + (seed % 11), (['integer', 'fractional', 'sparse'] as const)[seed % 3]!);
      const body = seed % 2 ? { num_variables: q.length, q_matrix: q } : { q_matrix: q, num_variables: q.length };
      const inline = plain(qubo.checkInline(body).prepare());
      expect(plain((await read(JSON.stringify(body), { seed, max: 9 })).input)).toEqual(inline);
    }
  });

  const refusals: Array<[string, string, string, Array<{ pointer: string; detail: string }>]> = [
    [
      'an infinite entry',
      '{"num_variables": 2, "q_matrix": [[1, 2], [1e400, 0]]}',
      'q_matrix entries must be finite numbers.',
      [{ pointer: '/q_matrix/1/0', detail: '1e400 is not a finite number' }],
    ],
    [
      'a short row',
      '{"num_variables": 2, "q_matrix": [[1, 2], [3]]}',
      'q_matrix must be num_variables × num_variables (2 × 2).',
      [{ pointer: '/q_matrix/1', detail: 'row 1 has 1 entry; expected 2' }],
    ],
    [
      'too many rows, num_variables last',
      '{"q_matrix": [[1], [2]], "num_variables": 1}',
      'q_matrix must be num_variables × num_variables (1 × 1).',
      [{ pointer: '/q_matrix', detail: 'q_matrix has 2 rows; expected 1' }],
    ],
    [
      'max cut’s members',
      '{"num_nodes": 1, "adj_matrix": [[0]]}',
      'The JSON object may hold only "num_variables" and "q_matrix"; it holds "num_nodes".',
      [{ pointer: '/num_nodes', detail: 'unknown key; only "num_variables" and "q_matrix" are allowed' }],
    ],
    [
      'a missing q_matrix',
      '{"num_variables": 1}',
      'The JSON object must hold "num_variables" and "q_matrix"; "q_matrix" is missing.',
      [{ pointer: '/q_matrix', detail: 'this required key is missing' }],
    ],
    [
      'num_variables 0',
      '{"num_variables": 0, "q_matrix": [[0]]}',
      'num_variables must be an integer ≥ 1.',
      [{ pointer: '/num_variables', detail: 'must be an integer ≥ 1, found 0' }],
    ],
    [
      'a string entry',
      '{"num_variables": 1, "q_matrix": [["1"]]}',
      'Unexpected "\\"" at byte 35 of the JSON file; expected a number or "]".',
      [{ pointer: '/q_matrix/0/0', detail: 'unexpected "\\"" at byte 35; expected a number or "]"' }],
    ],
    [
      'entries whose absolute values sum past a double',
      '{"num_variables": 2, "q_matrix": [[1e308, 0], [0, -1e308]]}',
      'The absolute values of the entries of Q must sum to a finite number (below about 1.8e308), or an energy could not be represented.',
      [{ pointer: '/q_matrix', detail: 'the absolute values of the entries sum past the largest double' }],
    ],
  ];
  for (const [name, text, message, errors] of refusals) {
    it(`refuses ${name}`, async () => {
      const error = await inputError(() => read(text, 'bytes'));
      expect(error.message).toBe(message);
      expect(error.errors).toEqual(errors);
    });
  }

  it('refuses a num_variables too large for the JSON format, pointing to the .qubo format', async () => {
    const error = await inputError(() => read('{"num_variables": 8193, "q_matrix": [[0]]}'));
    expect(error.message).toMatch(
      /^A QUBO of 8193 variables is too large for the JSON format \(at most 8192 variables\); upload it as a \.qubo file/,
    );
    expect(pointers(error)).toEqual(['/num_variables']);
  });
});
