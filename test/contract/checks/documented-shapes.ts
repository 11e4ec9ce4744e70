// The shapes the interface document fixes and the endpoints the contract adds: login, starting a job in both
// forms, the inline limit, the keyed job, timestamps, status enums, executions and max-cut output.
import { deref, type Node, operationById, response } from '../openapi-document.ts';
import { behaviour, type Check, exampleValue, find, jsonSchema, schema, sixNodes } from './support.ts';

export const login: Check = {
  name: 'POST /login takes {username, password} and returns {access_token}',
  run(doc) {
    const b = behaviour(doc);
    const op = find(doc, 'login', 'post', '/login', b.violations);
    if (!op) return b.violations;
    if (!Array.isArray(op.operation.security) || op.operation.security.length !== 0)
      b.violations.push('login must not need a token (security: [])');
    const body = jsonSchema(doc, op.operation.requestBody);
    b.accepts('login body', body, { username: 'demo', password: 'secret' });
    b.refuses('login body without password', body, { username: 'demo' });
    b.refuses('login body with a numeric username', body, { username: 1, password: 'secret' });
    const ok = jsonSchema(doc, response(doc, op, '200'));
    b.accepts('login 200', ok, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 });
    b.refuses('login 200 without access_token', ok, { token_type: 'Bearer', expires_in: 3600 });
    if (!response(doc, op, '200')?.headers?.['Cache-Control'])
      b.violations.push('login 200 must document Cache-Control: no-store');
    return b.violations;
  },
};

export const startJob: Check = {
  name: 'POST /problem/{problem_id} takes the input inline or {data_file_identifier} and returns 200 {detail, job}',
  run(doc) {
    const b = behaviour(doc);
    const op = find(doc, 'startJob', 'post', '/problem/{problem_id}', b.violations);
    if (!op) return b.violations;
    const body = jsonSchema(doc, op.operation.requestBody);
    b.accepts('inline max-cut input', body, sixNodes(doc));
    b.accepts('data-file form', body, { data_file_identifier: 'd6e02699b78918a5032ec7a872e2de7800c3a15a' });
    b.accepts('data-file form with solvers and time limit', body, {
      data_file_identifier: 'd6e02699b78918a5032ec7a872e2de7800c3a15a',
      solvers: [{ name: 'exact' }],
      time_limit_seconds: 5,
    });
    b.refuses('num_nodes as a string', body, {
      num_nodes: '2',
      adj_matrix: [
        [0, 1],
        [1, 0],
      ],
    });
    b.refuses('input without num_nodes', body, {
      adj_matrix: [
        [0, 1],
        [1, 0],
      ],
    });
    b.refuses('a non-numeric weight', body, {
      num_nodes: 2,
      adj_matrix: [
        [0, 'x'],
        [1, 0],
      ],
    });
    b.refuses('a flat adj_matrix', body, { num_nodes: 2, adj_matrix: [0, 1, 1, 0] });
    b.refuses('a short data_file_identifier', body, { data_file_identifier: 'abc' });
    b.refuses('both forms at once', body, {
      ...sixNodes(doc),
      data_file_identifier: 'd6e02699b78918a5032ec7a872e2de7800c3a15a',
    });
    const codes = Object.keys(op.operation.responses ?? {}).filter((s) => s.startsWith('2'));
    if (codes.join() !== '200')
      b.violations.push(`startJob must answer 200 only (the platform's clients check 200), documents ${codes.join()}`);
    const ok = jsonSchema(doc, response(doc, op, '200'));
    b.accepts('startJob 200', ok, { detail: 'Job created', job: 'K7Q2M9X4TB1R' });
    b.refuses('startJob 200 with a lower-case job id', ok, { detail: 'Job created', job: 'k7q2m9x4tb1r' });
    b.refuses('startJob 200 without detail', ok, { job: 'K7Q2M9X4TB1R' });
    if (!response(doc, op, '200')?.headers?.Location?.required)
      b.violations.push('startJob 200 must send Location: /job/{id}');
    const names = op.parameters.map((p) => `${p.in}:${p.name}`);
    for (const expected of ['query:solver', 'query:time_limit_seconds']) {
      if (!names.includes(expected)) b.violations.push(`startJob must take the ${expected} parameter`);
    }
    return b.violations;
  },
};

export const inlineLimit: Check = {
  name: 'the inline limit is smaller than 4 MiB, stated in bytes, with 413 payload_too_large',
  run(doc) {
    const violations: string[] = [];
    const op = operationById(doc, 'startJob');
    const described = `${deref(doc, op.operation.requestBody)?.description ?? ''} ${op.operation.description ?? ''}`;
    if (!described.includes('4,194,303 bytes') || !described.includes('4,194,304')) {
      violations.push(
        'startJob must state the inline limit in bytes (at most 4,194,303; 4,194,304 or more answers 413)',
      );
    }
    const tooLarge = response(doc, op, '413');
    const examples = Object.values<Node>(tooLarge?.content?.['application/problem+json']?.examples ?? {});
    const values = examples.map((e) => deref(doc, e)?.value);
    if (!values.some((v) => v?.code === 'payload_too_large' && v?.max_bytes === 4194304)) {
      violations.push('startJob 413 must show payload_too_large with max_bytes 4194304');
    }
    if (exampleValue(doc, 'MaxCutUseCase')?.max_inline_bytes !== 4194304)
      violations.push('the use-case example must give max_inline_bytes 4194304');
    return violations;
  },
};

export const getJob: Check = {
  name: 'GET /job/{job_id} returns {job: {"<job_id>": {status, started_at, end_at, executions}}}',
  run(doc) {
    const b = behaviour(doc);
    const op = find(doc, 'getJob', 'get', '/job/{job_id}', b.violations);
    if (!op) return b.violations;
    const id = op.parameters.find((p) => p.in === 'path' && p.name === 'job_id');
    b.accepts('job id', id?.schema, 'K7Q2M9X4TB1R');
    for (const bad of ['k7q2m9x4tb1r', 'K7Q2M9X4TB1', 'K7Q2M9X4TB1RX', 'K7Q2-9X4TB1R'])
      b.refuses(`job id ${bad}`, id?.schema, bad);
    const ok = jsonSchema(doc, response(doc, op, '200'));
    const envelope = exampleValue(doc, 'JobFinished');
    b.accepts('a finished job keyed by its id', ok, envelope);
    const job = envelope?.job?.K7Q2M9X4TB1R;
    b.refuses('a job that is not keyed by its id', ok, { job });
    b.refuses('a job keyed by something that is not a job id', ok, { job: { 'not-an-id': job } });
    for (const member of ['status', 'started_at', 'end_at', 'executions']) {
      const { [member]: _, ...without } = job ?? {};
      b.refuses(`a job without ${member}`, ok, { job: { K7Q2M9X4TB1R: without } });
    }
    b.accepts('a job with end_at ""', ok, { job: { K7Q2M9X4TB1R: { ...job, status: 'RUNNING', end_at: '' } } });
    b.refuses('a job with an unknown status', ok, { job: { K7Q2M9X4TB1R: { ...job, status: 'DONE' } } });
    b.refuses('a job with an RFC 3339 started_at', ok, {
      job: { K7Q2M9X4TB1R: { ...job, started_at: '2026-11-22T14:03:07Z' } },
    });
    b.refuses('executions as a list', ok, {
      job: { K7Q2M9X4TB1R: { ...job, executions: Object.values(job?.executions ?? {}) } },
    });
    return b.violations;
  },
};

export const timestamps: Check = {
  name: 'timestamps are MM/DD/YYYY, HH:MM:SS (24-hour, UTC) and end_at is "" until the end',
  run(doc) {
    const b = behaviour(doc);
    for (const good of ['11/22/2026, 14:03:07', '01/01/2000, 00:00:00', '12/31/2099, 23:59:59']) {
      b.accepts(`timestamp ${good}`, schema('Timestamp'), good);
      b.accepts(`optional timestamp ${good}`, schema('OptionalTimestamp'), good);
    }
    const bad = [
      '2026-11-22T14:03:07Z',
      '11/22/2026 14:03:07',
      '11/22/2026, 2:03:07 PM',
      '13/22/2026, 14:03:07',
      '11/32/2026, 14:03:07',
      '11/22/2026, 24:00:00',
      '11/22/26, 14:03:07',
      '1/2/2026, 14:03:07',
      '',
    ];
    for (const value of bad) b.refuses(`timestamp "${value}"`, schema('Timestamp'), value);
    b.accepts('optional timestamp ""', schema('OptionalTimestamp'), '');
    b.refuses('optional timestamp " "', schema('OptionalTimestamp'), ' ');
    const job = deref(doc, schema('Job'))?.properties ?? {};
    if (job.started_at?.$ref !== '#/components/schemas/Timestamp')
      b.violations.push('Job.started_at must be a Timestamp');
    if (job.end_at?.$ref !== '#/components/schemas/OptionalTimestamp')
      b.violations.push('Job.end_at must be an OptionalTimestamp');
    if (!/UTC/.test(deref(doc, schema('Timestamp'))?.description ?? ''))
      b.violations.push('Timestamp must say it is UTC');
    return b.violations;
  },
};

const enumOf = (doc: Node, name: string) => JSON.stringify(deref(doc, schema(name))?.enum);

export const statuses: Check = {
  name: 'the job, execution and data-file status enums are complete',
  run(doc) {
    const expected: Record<string, string[]> = {
      JobStatus: ['PENDING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED'],
      ExecutionStatus: ['PENDING', 'PREPARING', 'RUNNING', 'SUCCESS', 'ERROR', 'CANCELLED'],
      DataFileStatus: ['PROCESSING', 'READY', 'INVALID'],
    };
    return Object.entries(expected)
      .filter(([name, values]) => enumOf(doc, name) !== JSON.stringify(values))
      .map(([name, values]) => `${name} must be ${values.join(', ')}; is ${enumOf(doc, name)}`);
  },
};

export const executions: Check = {
  name: 'executions are keyed by solver and a max-cut output is {cut_value, partition, optimal}',
  run(doc) {
    const b = behaviour(doc);
    const success = exampleValue(doc, 'JobFinished')?.job?.K7Q2M9X4TB1R?.executions?.exact;
    b.accepts('a SUCCESS execution with data', schema('Execution'), success);
    b.accepts('a max-cut output', schema('MaxCutOutput'), {
      cut_value: 53,
      partition: [0, 1, 1, 1, 0, 0],
      optimal: true,
    });
    b.accepts('a max-cut output with a fractional negative cut', schema('MaxCutOutput'), {
      cut_value: -1.5,
      partition: [0, 1],
      optimal: false,
    });
    b.refuses('a partition with a 2', schema('MaxCutOutput'), { cut_value: 1, partition: [0, 2], optimal: false });
    b.refuses('an output without optimal', schema('MaxCutOutput'), { cut_value: 1, partition: [0, 1] });
    b.refuses('an output without cut_value', schema('MaxCutOutput'), { partition: [0, 1], optimal: true });
    const executionsSchema = deref(doc, schema('Job'))?.properties?.executions;
    b.accepts('executions keyed by solver', executionsSchema, { exact: success });
    b.refuses('executions keyed by a non-solver name', executionsSchema, { 'Not A Solver': success });
    return b.violations;
  },
};

export const addedEndpoints: Check = {
  name: 'every added endpoint exists with its documented method, path and status codes',
  run(doc) {
    const violations: string[] = [];
    const expected: [string, string, string, string[]][] = [
      ['listProblems', 'get', '/problem', ['200']],
      ['getProblem', 'get', '/problem/{problem_id}', ['200', '404']],
      ['listJobs', 'get', '/job', ['200']],
      ['cancelJob', 'post', '/job/{job_id}/cancel', ['202', '404', '409']],
      ['getJobOutput', 'get', '/job/{job_id}/output', ['200', '404', '409']],
      ['uploadDataFile', 'post', '/data_file', ['200', '201', '413']],
      ['listDataFiles', 'get', '/data_file', ['200']],
      ['getDataFile', 'get', '/data_file/{data_file_identifier}', ['200', '404']],
      ['deleteDataFile', 'delete', '/data_file/{data_file_identifier}', ['204', '404', '409']],
      ['getHealth', 'get', '/healthz', ['200', '503']],
    ];
    for (const [id, method, path, statuses] of expected) {
      const op = find(doc, id, method, path, violations);
      for (const status of statuses) {
        if (op && !op.operation.responses?.[status]) violations.push(`${id} must document ${status}`);
      }
    }
    const upload = deref(doc, operationById(doc, 'uploadDataFile').operation.requestBody)?.content;
    if (!upload?.['multipart/form-data']) violations.push('uploadDataFile must take multipart/form-data');
    const list = operationById(doc, 'listJobs').parameters;
    for (const name of ['limit', 'starting_after', 'status', 'problem_id']) {
      if (!list.some((p) => p.in === 'query' && p.name === name)) violations.push(`listJobs must take ?${name}`);
    }
    const limit = deref(doc, list.find((p) => p.name === 'limit')?.schema);
    if (limit?.minimum !== 1 || limit?.maximum !== 100 || limit?.default !== 20)
      violations.push('listJobs limit must be 1..100, default 20');
    return violations;
  },
};
