// Refused startJob bodies and the errors a user must see for each, run against the reference server
// (server/test/start-job-body.test.ts) and the sandbox (test/sandbox/start-job-body.test.ts) alike: the body is
// one of two shapes (the contract's oneOf), and only the shape it meant is reported, never Ajv's account of the
// other one ("must have required property 'data_file_identifier'", "must match exactly one schema in oneOf").

export interface RefusedBody {
  what: string;
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

export const refusedBodies: RefusedBody[] = [
  {
    what: 'num_nodes as a string (issue 13)',
    body: { num_nodes: '6', adj_matrix: row },
    errors: [{ pointer: '/num_nodes', detail: 'must be integer' }],
  },
  {
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
    what: 'no adj_matrix',
    body: { num_nodes: 2 },
    errors: [{ pointer: '/adj_matrix', detail: "must have required property 'adj_matrix'" }],
  },
  {
    what: 'no num_nodes',
    body: { adj_matrix: row },
    errors: [{ pointer: '/num_nodes', detail: "must have required property 'num_nodes'" }],
  },
  {
    what: 'solvers beside an inline input (they go in the query)',
    body: { num_nodes: 2, adj_matrix: row, solvers: [{ name: 'exact' }] },
    errors: [{ pointer: '/solvers', detail: 'must NOT have additional properties' }],
  },
  {
    what: 'an inline input and a data file at once',
    body: { num_nodes: 2, adj_matrix: row, data_file_identifier: file },
    errors: [{ pointer: '/data_file_identifier', detail: 'must NOT have additional properties' }],
  },
  {
    what: 'a malformed data file identifier',
    body: { data_file_identifier: 'D6E0' },
    errors: [{ pointer: '/data_file_identifier', detail: 'must match pattern "^[0-9a-f]{40}$"' }],
  },
  {
    what: 'a negative seed with a data file',
    body: { data_file_identifier: file, solvers: [{ name: 'exact', params: { seed: -1 } }] },
    errors: [{ pointer: '/solvers/0/params/seed', detail: 'must be >= 0' }],
  },
  {
    what: 'a time limit of 0 with a data file',
    body: { data_file_identifier: file, time_limit_seconds: 0 },
    errors: [{ pointer: '/time_limit_seconds', detail: 'must be > 0' }],
  },
  { what: 'an empty object', body: {}, errors: [{ pointer: '/', detail: neither }] },
  { what: 'solvers alone', body: { solvers: [{ name: 'exact' }] }, errors: [{ pointer: '/', detail: neither }] },
  { what: 'an array', body: [row], errors: [{ pointer: '/', detail: 'must be object' }] },
];
