// The contract test suite: openapi.yaml keeps every documented shape, and each check fails on a copy of
// the document where that shape is broken (so none of them can pass vacuously).
import { describe, expect, it } from 'vitest';
import { checkNamed, checks } from './checks.ts';
import { loadContract, type Node } from './openapi-document.ts';

const doc = loadContract();

describe('openapi.yaml', () => {
  it.each(checks.map((c) => [c.name, c] as const))('%s', (_, check) => {
    expect(check.run(doc)).toEqual([]);
  });
});

const QUBO_CHECK =
  'QUBO examples are correct: the 4-variable example has minimum energy -11 at (1, 0, 0, 1), its .qubo file and use-case record say the same, and every energy is xᵀQx of its assignment';

const LINKS_CHECK = checks.find((c) => c.name.startsWith('every link names an operation'))!.name;

/** Deliberate breakages of documented shapes, each with the check that must catch it. */
const breakages: { breaks: string; check: string; mutate(doc: Node): void }[] = [
  {
    breaks: 'a start-job link reading $request.path.problem_id, which POST /problem/maxcut does not have',
    check: LINKS_CHECK,
    mutate: (d) => (d.components.responses.JobStarted.links.GetJob.parameters = { job_id: '$request.path.problem_id' }),
  },
  {
    breaks: "an upload link reading a member the upload's body lacks",
    check: LINKS_CHECK,
    mutate: (d) => {
      const created = d.paths['/data_file'].post.responses['201'];
      created.links.GetDataFile.parameters = { data_file_identifier: '$response.body#/id' };
    },
  },
  {
    breaks: 'a link to an operation that does not exist',
    check: LINKS_CHECK,
    mutate: (d) => (d.components.responses.JobStarted.links.GetJob.operationId = 'readJob'),
  },
  {
    breaks: 'timestamps switched to RFC 3339',
    check: 'timestamps are MM/DD/YYYY, HH:MM:SS (24-hour, UTC) and end_at is "" until the end',
    mutate: (d) => Object.assign(d.components.schemas.Timestamp, { pattern: undefined, format: 'date-time' }),
  },
  {
    breaks: 'GET /job/{job_id} returning the job without its id key',
    check: 'GET /job/{job_id} returns {job: {"<job_id>": {status, started_at, end_at, executions}}}',
    mutate: (d) => (d.components.schemas.JobEnvelope.properties.job = { $ref: '#/components/schemas/Job' }),
  },
  {
    breaks: 'end_at no longer required',
    check: 'GET /job/{job_id} returns {job: {"<job_id>": {status, started_at, end_at, executions}}}',
    mutate: (d) =>
      (d.components.schemas.Job.required = d.components.schemas.Job.required.filter((r: string) => r !== 'end_at')),
  },
  {
    breaks: 'startJob answering 202 instead of 200',
    check: 'POST /problem/{problem_id} takes the input inline or {data_file_identifier} and returns 200 {detail, job}',
    mutate: (d) => {
      const responses = d.paths['/problem/{problem_id}'].post.responses;
      responses['202'] = responses['200'];
      delete responses['200'];
    },
  },
  {
    breaks: 'adj_matrix loosened to any array',
    check: 'POST /problem/{problem_id} takes the input inline or {data_file_identifier} and returns 200 {detail, job}',
    mutate: (d) => (d.components.schemas.MaxCutInput.properties.adj_matrix = { type: 'array', description: 'x' }),
  },
  {
    breaks: 'login token renamed to token',
    check: 'POST /login takes {username, password} and returns {access_token}',
    mutate: (d) => {
      const s = d.components.schemas.LoginResponse;
      s.properties.token = s.properties.access_token;
      delete s.properties.access_token;
      s.required = ['token', 'token_type', 'expires_in'];
    },
  },
  {
    breaks: 'a job status added without notice',
    check: 'the job, execution and data-file status enums are complete',
    mutate: (d) => d.components.schemas.JobStatus.enum.push('QUEUED'),
  },
  {
    breaks: 'a 404 answered as plain JSON',
    check: 'every 4xx/5xx response is application/problem+json referencing Problem, with its codes listed',
    mutate: (d) => {
      const r = d.components.responses.JobNotFound;
      r.content = { 'application/json': { schema: { type: 'object' } } };
    },
  },
  {
    breaks: 'login 401 without a challenge',
    check: 'every 4xx/5xx response is application/problem+json referencing Problem, with its codes listed',
    mutate: (d) => delete d.paths['/login'].post.responses['401'].headers['WWW-Authenticate'],
  },
  {
    breaks: 'getJob made public',
    check: 'a bearer JWT guards every operation but login and getHealth, and 401 carries WWW-Authenticate',
    mutate: (d) => (d.paths['/job/{job_id}'].get.security = []),
  },
  {
    breaks: 'the inline limit stated as "4 MB"',
    check: 'the inline limit is smaller than 4 MiB, stated in bytes, with 413 payload_too_large',
    mutate: (d) => {
      const op = d.paths['/problem/{problem_id}'].post;
      op.description = 'Inline data must be smaller than 4 MB.';
      op.requestBody.description = 'The input.';
    },
  },
  {
    breaks: 'a finished example whose cut does not match its partition',
    check: 'max-cut examples are correct: the 6-node example has maximum cut 53 and every cut matches its partition',
    mutate: (d) =>
      (d.components.examples.JobFinished.value.job.K7Q2M9X4TB1R.executions['local-search'].data.cut_value = 54),
  },
  {
    breaks: 'the QUBO example with its minimum energy moved (Q[0][0] -5 → -4)',
    check: QUBO_CHECK,
    mutate: (d) => (d.components.examples.QuboInput.value.q_matrix[0][0] = -4),
  },
  {
    breaks: "the QUBO use case's example input no longer the QuboInput example",
    check: QUBO_CHECK,
    mutate: (d) => (d.components.examples.QuboUseCase.value.example_input.num_variables = 5),
  },
  {
    breaks: 'the .qubo upload example with a coupling of its own',
    check: QUBO_CHECK,
    mutate: (d) => {
      const upload = d.paths['/data_file'].post.requestBody.content['multipart/form-data'].examples.qubo.value;
      upload.file = upload.file.replace('2 3 5', '2 3 6');
    },
  },
  {
    breaks: 'a QUBO answer whose energy is not xᵀQx of its assignment',
    check: QUBO_CHECK,
    mutate: (d) =>
      (d.components.examples.JobOutput.value.outputs.exact = { energy: -12, assignment: [1, 0, 0, 1], optimal: true }),
  },
  {
    breaks: 'an example that no longer matches its schema',
    check: 'every example is valid against its schema, and every request and response body has one',
    mutate: (d) => (d.components.examples.JobPending.value.job.W9D4H6J2K8M1.started_at = '2026-11-22 14:07:45'),
  },
  {
    breaks: 'a running example with an end_at',
    check: 'example jobs are consistent: timestamps, end_at, summary counts, output only on SUCCESS',
    mutate: (d) => (d.components.examples.JobRunning.value.job.P3WZ8N5C2V0H.end_at = '11/22/2026, 14:06:00'),
  },
  {
    breaks: 'an operation without operationId',
    check: 'every operation has a verb-phrase operationId, summary, description, tag, 4xx and 500 response',
    mutate: (d) => delete d.paths['/healthz'].get.operationId,
  },
  {
    breaks: 'the use-case list showing a different record',
    check: 'the use-case record is the same everywhere and its example input is valid',
    mutate: (d) => (d.components.examples.UseCaseList.value.problem.maxcut.max_inline_bytes = 4000000),
  },
  {
    breaks: 'cancel endpoint removed',
    check: 'every added endpoint exists with its documented method, path and status codes',
    mutate: (d) => delete d.paths['/job/{job_id}/cancel'],
  },
];

describe('each check fails on a contract that breaks its shape', () => {
  it.each(breakages.map((b) => [b.breaks, b] as const))('%s', (_, breakage) => {
    const broken = structuredClone(doc);
    breakage.mutate(broken);
    expect(checkNamed(breakage.check).run(broken)).not.toEqual([]);
  });
});
