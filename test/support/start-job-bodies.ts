// Refused start-job bodies and the errors a user must see for each, run against the reference server
// (server/test/start-job-body.test.ts) and the sandbox (sandbox/test/start-job-body.test.ts) alike: the body of
// POST /problem/<problemId> is one of its use case's two shapes (the contract's oneOf: its input inline, or a
// data file), and only the shape it meant is reported, never Ajv's account of the other one ("must have
// required property 'data_file_identifier'", "must match exactly one schema in oneOf"). A body of the other use
// case names neither shape of the path it was sent to: it is told what that path takes, nothing of its own
// members (each path takes its own use case's input only, contract 1.5.0).

export interface RefusedBody {
  what: string;
  /** The use case whose path the body is sent to: POST /problem/<problemId>. */
  problemId: 'maxcut' | 'qubo';
  body: unknown;
  /** The problem's `errors`, exactly (the deepest pointer first). */
  errors: { pointer: string; detail: string }[];
}

const row = [
  [0, 1],
  [1, 0],
];
const file = 'd6e02699b78918a5032ec7a872e2de7800c3a15a';
const neither = 'must have either num_nodes and adj_matrix, or data_file_identifier';
const neitherQubo = 'must have either num_variables and q_matrix, or data_file_identifier';
const qubo = {
  num_variables: 2,
  q_matrix: [
    [-1, 2],
    [0, -1],
  ],
};

export const refusedBodies: RefusedBody[] = [
  {
    problemId: 'maxcut',
    what: 'num_nodes as a string (issue 13)',
    body: { num_nodes: '6', adj_matrix: row },
    errors: [{ pointer: '/num_nodes', detail: 'must be integer' }],
  },
  {
    problemId: 'maxcut',
    what: 'a weight as a string',
    body: {
      num_nodes: 2,
      adj_matrix: [
        [0, '1'],
        [1, 0],
      ],
    },
    errors: [{ pointer: '/adj_matrix/0/1', detail: 'must be number' }],
  },
  {
    problemId: 'maxcut',
    what: 'two mistakes in the inline input, both reported',
    body: {
      num_nodes: '2',
      adj_matrix: [
        [0, 1],
        [1, null],
      ],
    },
    errors: [
      { pointer: '/adj_matrix/1/1', detail: 'must be number' },
      { pointer: '/num_nodes', detail: 'must be integer' },
    ],
  },
  {
    problemId: 'maxcut',
    what: 'no adj_matrix',
    body: { num_nodes: 2 },
    errors: [{ pointer: '/adj_matrix', detail: "must have required property 'adj_matrix'" }],
  },
  {
    problemId: 'maxcut',
    what: 'no num_nodes',
    body: { adj_matrix: row },
    errors: [{ pointer: '/num_nodes', detail: "must have required property 'num_nodes'" }],
  },
  {
    problemId: 'maxcut',
    what: 'solvers beside an inline input (they go in the query)',
    body: { num_nodes: 2, adj_matrix: row, solvers: [{ name: 'exact' }] },
    errors: [{ pointer: '/solvers', detail: 'must NOT have additional properties' }],
  },
  {
    problemId: 'maxcut',
    what: 'an inline input and a data file at once',
    body: { num_nodes: 2, adj_matrix: row, data_file_identifier: file },
    errors: [{ pointer: '/data_file_identifier', detail: 'must NOT have additional properties' }],
  },
  {
    problemId: 'maxcut',
    what: 'a malformed data file identifier',
    body: { data_file_identifier: 'D6E0' },
    errors: [{ pointer: '/data_file_identifier', detail: 'must match pattern "^[0-9a-f]{40}$"' }],
  },
  {
    problemId: 'maxcut',
    what: 'a negative seed with a data file',
    body: { data_file_identifier: file, solvers: [{ name: 'exact', params: { seed: -1 } }] },
    errors: [{ pointer: '/solvers/0/params/seed', detail: 'must be >= 0' }],
  },
  {
    problemId: 'maxcut',
    what: 'a time limit of 0 with a data file',
    body: { data_file_identifier: file, time_limit_seconds: 0 },
    errors: [{ pointer: '/time_limit_seconds', detail: 'must be > 0' }],
  },
  { problemId: 'maxcut', what: 'an empty object', body: {}, errors: [{ pointer: '/', detail: neither }] },
  {
    problemId: 'maxcut',
    what: 'solvers alone',
    body: { solvers: [{ name: 'exact' }] },
    errors: [{ pointer: '/', detail: neither }],
  },
  { problemId: 'maxcut', what: 'an array', body: [row], errors: [{ pointer: '/', detail: 'must be object' }] },
  {
    problemId: 'maxcut',
    what: 'a QUBO input sent to /problem/maxcut',
    body: qubo,
    errors: [{ pointer: '/', detail: neither }],
  },
  {
    problemId: 'maxcut',
    what: 'a graph with a QUBO matrix in place of its adjacency matrix',
    body: { num_nodes: 2, q_matrix: row },
    errors: [
      { pointer: '/adj_matrix', detail: "must have required property 'adj_matrix'" },
      { pointer: '/q_matrix', detail: 'must NOT have additional properties' },
    ],
  },
  {
    problemId: 'qubo',
    what: 'a max-cut input sent to /problem/qubo',
    body: { num_nodes: 2, adj_matrix: row },
    errors: [{ pointer: '/', detail: neitherQubo }],
  },
  {
    problemId: 'qubo',
    what: 'num_variables as a string',
    body: { ...qubo, num_variables: '2' },
    errors: [{ pointer: '/num_variables', detail: 'must be integer' }],
  },
  {
    problemId: 'qubo',
    what: 'a QUBO coefficient as a string',
    body: {
      num_variables: 2,
      q_matrix: [
        [-1, '2'],
        [0, -1],
      ],
    },
    errors: [{ pointer: '/q_matrix/0/1', detail: 'must be number' }],
  },
  {
    problemId: 'qubo',
    what: 'no q_matrix',
    body: { num_variables: 2 },
    errors: [{ pointer: '/q_matrix', detail: "must have required property 'q_matrix'" }],
  },
  {
    problemId: 'qubo',
    what: 'no variables',
    body: { num_variables: 0, q_matrix: [] },
    errors: [
      { pointer: '/num_variables', detail: 'must be >= 1' },
      { pointer: '/q_matrix', detail: 'must NOT have fewer than 1 items' },
    ],
  },
  {
    problemId: 'qubo',
    what: 'solvers beside an inline QUBO input (they go in the query)',
    body: { ...qubo, solvers: [{ name: 'exact' }] },
    errors: [{ pointer: '/solvers', detail: 'must NOT have additional properties' }],
  },
  {
    problemId: 'qubo',
    what: 'a QUBO input and a data file at once',
    body: { ...qubo, data_file_identifier: file },
    errors: [{ pointer: '/data_file_identifier', detail: 'must NOT have additional properties' }],
  },
  {
    problemId: 'qubo',
    what: 'a negative seed with a data file, for qubo',
    body: { data_file_identifier: file, solvers: [{ name: 'annealing', params: { seed: -1 } }] },
    errors: [{ pointer: '/solvers/0/params/seed', detail: 'must be >= 0' }],
  },
  { problemId: 'qubo', what: 'an empty object, for qubo', body: {}, errors: [{ pointer: '/', detail: neitherQubo }] },
];
