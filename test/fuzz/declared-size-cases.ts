// Uploads whose data file declares more than it may hold (issue 27, 5): a 22-byte `p qubo 0 10000000 0 0` was READY
// with 10 million variables, and its job's answers took the server from 1.1 to 2.9 GB. Sizes past a use case's
// max_nodes, counts of lines no data file can hold, JSON matrices of empty rows, and a NUL inside a line: each
// file must end INVALID, which the campaign checks by reading the file back once validated (fileMustBeInvalid).
import fc from 'fast-check';
import { form } from './bodies.ts';
import type { CaseSpec } from './valid-cases.ts';

/** More lines "i j w" than a data file of 100 MiB can hold (each takes at least 6 bytes). */
const tooManyLines = Math.floor((100 * 2 ** 20 + 1) / 6) + 1;

export const declaredSizeFiles: { problemId: 'maxcut' | 'qubo'; contents: string }[] = [
  { problemId: 'maxcut', contents: '10000000 0' },
  { problemId: 'maxcut', contents: '100001 0\n' },
  { problemId: 'maxcut', contents: `2 ${tooManyLines}\n1 2 1\n` },
  { problemId: 'maxcut', contents: '{"num_nodes":10000000,"adj_matrix":[[0]]}' },
  { problemId: 'maxcut', contents: `{"num_nodes":8192,"adj_matrix":[${Array(8192).fill('[]').join(',')}]}` },
  { problemId: 'maxcut', contents: '2 1\n1\u0000 2 1\n' },
  { problemId: 'maxcut', contents: '2\u0000 1\n1 2 1\n' },
  { problemId: 'qubo', contents: 'p qubo 0 10000000 0 0' },
  { problemId: 'qubo', contents: 'c a comment\np qubo 0 100001 0 0\n' },
  { problemId: 'qubo', contents: `p qubo 0 100000 0 ${tooManyLines}\n0 1 1\n` },
  { problemId: 'qubo', contents: '{"num_variables":10000000,"q_matrix":[[0]]}' },
  { problemId: 'qubo', contents: `{"q_matrix":[${Array(8192).fill('[]').join(',')}],"num_variables":8192}` },
  { problemId: 'qubo', contents: 'p qubo 0 2 0 1\n0 1\u0000 1\n' },
  { problemId: 'qubo', contents: 'p qubo 0 2 1 0\n0 0 -1\u0000\n' },
];

export function declaredSizeCase(): fc.Arbitrary<CaseSpec> {
  return fc.constantFrom(...declaredSizeFiles).map(({ problemId, contents }) => {
    const { boundary, body } = form([
      { name: 'file', filename: 'declared.txt', contentType: 'text/plain', data: contents },
      { name: 'problem_id', data: problemId },
      { name: 'name', data: 'declared.txt' },
    ]);
    return {
      family: `declared sizes: ${problemId}`,
      method: 'POST',
      target: '/data_file',
      headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]],
      body,
      fileMustBeInvalid: true,
    };
  });
}
