// Hostile uploads (POST /data_file): forms cut short, without a boundary, with an empty part name, a file
// part without a filename, parts without headers, too many fields; and files whose contents attack the
// background validation (10,000-deep JSON, numbers past a double, NUL, bytes that are not UTF-8, UTF-16).
import fc from 'fast-check';
import { form, nested, type Part } from './bodies.ts';
import type { GenerationContext } from './cases.ts';
import { hostileNumbers, hostileStrings, invalidUtf8, utf8Bom } from './hostile.ts';
import { type CaseSpec, dataFileContents, validUploadParts } from './valid-cases.ts';

/** File contents that must be refused (INVALID) or handled, never crash the validator or the solvers. */
export const hostileFileContents: (string | Buffer)[] = [
  '',
  ' \n\t\n',
  '\u0000',
  '2 1\n1 2 1\u0000\n',
  nested('array', 10_000),
  `{"num_nodes":1,"adj_matrix":${nested('array', 10_000)}}`,
  `{"num_nodes":1,"adj_matrix":[[0]],"x":${nested('object', 10_000)}}`,
  ...hostileNumbers.slice(0, 8).map((n) => `2 1\n1 2 ${n}\n`),
  ...hostileNumbers.slice(0, 8).map((n) => `{"num_nodes":2,"adj_matrix":[[0,${n}],[${n},0]]}`),
  '{"num_nodes":1e400,"adj_matrix":[[0]]}',
  '{"num_nodes":18446744073709551616,"adj_matrix":[[0]]}',
  '18446744073709551616 0\n',
  '2147483648 0\n',
  '1000000 1\n1 2 1\n',
  '-1 0\n',
  '0 0\n',
  '3 1\n1 4 1\n',
  '3 1\n0 1 1\n',
  '2 1\n1 2 NaN\n',
  '2 1\n1 2 Infinity\n',
  '2 3\n1 2 1\n',
  '2 1\n1 2 1\n1 2 1\n',
  '3 2\n1 2 1.7976931348623157e308\n2 3 1.7976931348623157e308\n',
  '3 3\n1 2 1.7976931348623157e308\n2 3 1.7976931348623157e308\n1 3 -1.7976931348623157e308\n',
  '4 3\n1 2 -1.7976931348623157e308\n1 3 -1.7976931348623157e308\n1 4 -1.7976931348623157e308\n',
  '{"num_nodes":3,"adj_matrix":[[0,1e308,1e308],[1e308,0,1e308],[1e308,1e308,0]]}',
  `2 1\n1 2 ${'1'.repeat(10_000)}\n`,
  `2 1\n${'1 '.repeat(5_000)}\n`,
  '{"num_nodes":2,"adj_matrix":[[0,1],[1,0]],"num_nodes":3}',
  '{"\\u0000":1,"num_nodes":1,"adj_matrix":[[0]]}',
  '{"__proto__":{"num_nodes":5},"num_nodes":1,"adj_matrix":[[0]]}',
  '{"num_nodes":1,"adj_matrix":[[0]],"\\ud800":1}',
  '{"num_nodes":1,"adj_matrix":[[0]],"Ā𝄞":1}',
  '"text"',
  'null',
  '[',
  '{"num_nodes":2,"adj_matrix":[[0,1],[1,0]]',
  '{"num_nodes":1.5,"adj_matrix":[[0]]}',
  ...invalidUtf8.map((bytes) => Buffer.concat([Buffer.from('2 1\n1 2 1 '), bytes, Buffer.from('\n')])),
  ...invalidUtf8.map((bytes) =>
    Buffer.concat([Buffer.from('{"num_nodes":1,"adj_matrix":[[0]],"'), bytes, Buffer.from('":1}')]),
  ),
  Buffer.concat([utf8Bom, utf8Bom, Buffer.from('2 1\n1 2 1\n')]),
  Buffer.from('\ufeff2 1\n1 2 1\n', 'utf16le'),
  Buffer.from('{"num_nodes":1,"adj_matrix":[[0]]}', 'utf16le'),
];

type Form = {
  parts: Part[];
  options?: Parameters<typeof form>[1];
  contentType?: (boundary: string) => string;
  what: string;
};

const file = (data: string | Buffer, filename = 'graph.txt'): Part => ({
  name: 'file',
  filename,
  contentType: 'text/plain',
  data,
});
const fields = (name = 'graph.txt'): Part[] => [
  { name: 'problem_id', data: 'maxcut' },
  { name: 'name', data: name },
];

/** Broken forms around a valid upload. */
function brokenForms(valid: Part[], contents: string | Buffer, hostile: string): Form[] {
  return [
    { parts: valid, options: { truncated: true }, what: 'no closing boundary' },
    {
      parts: [{ ...valid[0]!, data: Buffer.from(contents).subarray(0, 3) }],
      options: { truncated: true },
      what: 'cut inside the file',
    },
    { parts: valid, contentType: () => 'multipart/form-data', what: 'no boundary parameter' },
    { parts: valid, contentType: () => 'multipart/form-data; boundary=', what: 'an empty boundary' },
    {
      parts: valid,
      contentType: () => 'multipart/form-data; boundary=not-the-one-used',
      what: 'a boundary the body does not use',
    },
    { parts: valid, contentType: (b) => `multipart/mixed; boundary=${b}`, what: 'multipart/mixed' },
    { parts: valid, contentType: (b) => `multipart/form-data; boundary=${b}; charset=utf-16`, what: 'charset=utf-16' },
    { parts: [{ ...valid[0]!, name: '' }, ...valid.slice(1)], what: 'a file part with an empty name' },
    { parts: [...valid, { name: '', data: 'x' }], what: 'a field with an empty name' },
    { parts: [{ name: 'file', data: contents }, ...fields()], what: 'a file part without filename' },
    { parts: [{ name: 'file', filename: '', data: contents }, ...fields()], what: 'an empty filename' },
    { parts: [{ headers: [], data: contents }, ...fields()], what: 'a part without headers' },
    {
      parts: [{ headers: ['Content-Disposition: attachment'], data: contents }, ...fields()],
      what: 'a part that is not form-data',
    },
    { parts: [file(contents), file(contents, 'again.txt'), ...fields()], what: 'two files' },
    {
      parts: [...valid, ...Array.from({ length: 12 }, (_, i) => ({ name: `extra${i}`, data: 'x' }))],
      what: 'more fields than allowed',
    },
    {
      parts: [file(contents), { name: 'problem_id', data: 'maxcut' }, { name: 'name', data: 'x'.repeat(70_000) }],
      what: 'a field over 64 KiB',
    },
    {
      parts: [
        file(contents),
        { name: 'problem_id', data: 'maxcut' },
        { name: 'name', data: 'n' },
        { name: 'description', data: 'd'.repeat(5000) },
      ],
      what: 'a description over 4096 characters',
    },
    {
      parts: [file(contents), { name: 'problem_id', data: hostile }, { name: 'name', data: 'n' }],
      what: 'a hostile problem_id',
    },
    {
      parts: [file(contents), { name: 'problem_id', data: 'maxcut' }, { name: 'name', data: hostile }],
      what: 'a hostile name',
    },
    { parts: [file(contents, hostile), ...fields()], what: 'a hostile filename' },
    { parts: [file(contents), { name: hostile, data: 'x' }, ...fields()], what: 'a hostile field name' },
    { parts: [...fields(), file(contents)], what: 'fields before the file' },
    { parts: [file(contents), { name: 'problem_id', data: 'maxcut' }], what: 'no name' },
    { parts: [{ name: 'file', data: 'not a file' }, ...fields()], what: 'file as a text field' },
    {
      parts: [
        {
          ...file(contents),
          headers: [
            'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'%F0%9F%99%82%00.txt',
            'Content-Transfer-Encoding: base64',
          ],
        },
        ...fields(),
      ],
      what: 'an RFC 5987 filename and a transfer encoding',
    },
    { parts: valid, options: { eol: '\n' }, what: 'LF line ends' },
    { parts: valid, options: { preamble: 'preamble text \u0000' }, what: 'a preamble' },
    { parts: [], what: 'no parts at all' },
  ];
}

export function multipartCase(ctx: GenerationContext): fc.Arbitrary<CaseSpec> {
  const contents = fc.oneof(
    { weight: 1, arbitrary: dataFileContents },
    { weight: 2, arbitrary: fc.constantFrom(...hostileFileContents) },
  );
  const hostileFile = fc
    .tuple(validUploadParts(ctx), contents)
    .map(([parts, data]) => ({ parts: [{ ...parts[0]!, data }, ...parts.slice(1)], what: 'hostile contents' }) as Form);
  const broken = fc
    .tuple(validUploadParts(ctx), contents, fc.constantFrom(...hostileStrings), fc.nat())
    .map(([parts, data, hostile, pick]) => {
      const forms = brokenForms(parts, parts[0]!.data, hostile);
      return {
        ...forms[pick % forms.length]!,
        parts: forms[pick % forms.length]!.parts.map((p) => (p === parts[0] && pick % 3 === 0 ? { ...p, data } : p)),
      };
    });
  return fc.oneof(hostileFile, broken).map(({ parts, options, contentType, what }) => {
    const { boundary, body } = form(parts, options);
    return {
      family: `multipart: ${what}`,
      method: 'POST',
      target: '/data_file',
      headers: [['Content-Type', contentType ? contentType(boundary) : `multipart/form-data; boundary=${boundary}`]],
      body,
    };
  });
}
