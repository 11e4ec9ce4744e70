// The documented shapes of the Job Execution Service, as named checks over openapi.yaml. Each check returns
// its violations (empty when the contract keeps the shape), so tests can run it on the real document and
// on deliberately broken copies.
import {
  deref,
  exampleSites,
  type Node,
  type Operation,
  operationById,
  operations,
  response,
  schemaValidator,
} from './openapi-document.ts';
import { bruteForceMaxCut, cutValue, formatTimestamp } from './maxcut.ts';

export interface Check {
  name: string;
  run(doc: Node): string[];
}

const schema = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });
const jsonSchema = (doc: Node, node: Node | undefined): Node | undefined => deref(doc, node)?.content?.['application/json']?.schema;
const exampleValue = (doc: Node, name: string): any => structuredClone(doc.components?.examples?.[name]?.value);

/** Collects violations from schema behaviour: values it must accept and values it must refuse. */
function behaviour(doc: Node) {
  const validate = schemaValidator(doc);
  const violations: string[] = [];
  return {
    violations,
    accepts(what: string, s: Node | undefined, value: unknown) {
      if (!s) return void violations.push(`${what}: schema missing`);
      const errors = validate(s, value);
      if (errors.length > 0) violations.push(`${what}: must be accepted, but ${errors.join('; ')}`);
    },
    refuses(what: string, s: Node | undefined, value: unknown) {
      if (!s) return void violations.push(`${what}: schema missing`);
      if (validate(s, value).length === 0) violations.push(`${what}: must be refused, but is accepted`);
    },
  };
}

function find(doc: Node, operationId: string, method: string, path: string, violations: string[]): Operation | undefined {
  const op = operations(doc).find((o) => o.operation.operationId === operationId);
  if (!op) return void violations.push(`operation ${operationId} is missing`);
  if (op.method !== method || op.path !== path) violations.push(`${operationId} must be ${method.toUpperCase()} ${path}, is ${op.label}`);
  return op;
}

const sixNodes = (doc: Node) => exampleValue(doc, 'MaxCutInput');

const login: Check = {
  name: 'POST /login takes {username, password} and returns {access_token}',
  run(doc) {
    const b = behaviour(doc);
    const op = find(doc, 'login', 'post', '/login', b.violations);
    if (!op) return b.violations;
    if (!Array.isArray(op.operation.security) || op.operation.security.length !== 0) b.violations.push('login must not need a token (security: [])');
    const body = jsonSchema(doc, op.operation.requestBody);
    b.accepts('login body', body, { username: 'demo', password: 'secret' });
    b.refuses('login body without password', body, { username: 'demo' });
    b.refuses('login body with a numeric username', body, { username: 1, password: 'secret' });
    const ok = jsonSchema(doc, response(doc, op, '200'));
    b.accepts('login 200', ok, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 });
    b.refuses('login 200 without access_token', ok, { token_type: 'Bearer', expires_in: 3600 });
    if (!response(doc, op, '200')?.headers?.['Cache-Control']) b.violations.push('login 200 must document Cache-Control: no-store');
    return b.violations;
  },
};

const startJob: Check = {
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
    b.refuses('num_nodes as a string', body, { num_nodes: '2', adj_matrix: [[0, 1], [1, 0]] });
    b.refuses('input without num_nodes', body, { adj_matrix: [[0, 1], [1, 0]] });
    b.refuses('a non-numeric weight', body, { num_nodes: 2, adj_matrix: [[0, 'x'], [1, 0]] });
    b.refuses('a flat adj_matrix', body, { num_nodes: 2, adj_matrix: [0, 1, 1, 0] });
    b.refuses('a short data_file_identifier', body, { data_file_identifier: 'abc' });
    b.refuses('both forms at once', body, { ...sixNodes(doc), data_file_identifier: 'd6e02699b78918a5032ec7a872e2de7800c3a15a' });
    const codes = Object.keys(op.operation.responses ?? {}).filter((s) => s.startsWith('2'));
    if (codes.join() !== '200') b.violations.push(`startJob must answer 200 only (the platform's clients check 200), documents ${codes.join()}`);
    const ok = jsonSchema(doc, response(doc, op, '200'));
    b.accepts('startJob 200', ok, { detail: 'Job created', job: 'K7Q2M9X4TB1R' });
    b.refuses('startJob 200 with a lower-case job id', ok, { detail: 'Job created', job: 'k7q2m9x4tb1r' });
    b.refuses('startJob 200 without detail', ok, { job: 'K7Q2M9X4TB1R' });
    if (!response(doc, op, '200')?.headers?.Location?.required) b.violations.push('startJob 200 must send Location: /job/{id}');
    const names = op.parameters.map((p) => `${p.in}:${p.name}`);
    for (const expected of ['query:solver', 'query:time_limit_seconds']) {
      if (!names.includes(expected)) b.violations.push(`startJob must take the ${expected} parameter`);
    }
    return b.violations;
  },
};

const inlineLimit: Check = {
  name: 'the inline limit is smaller than 4 MiB, stated in bytes, with 413 payload_too_large',
  run(doc) {
    const violations: string[] = [];
    const op = operationById(doc, 'startJob');
    const described = `${deref(doc, op.operation.requestBody)?.description ?? ''} ${op.operation.description ?? ''}`;
    if (!described.includes('4,194,303 bytes') || !described.includes('4,194,304')) {
      violations.push('startJob must state the inline limit in bytes (at most 4,194,303; 4,194,304 or more answers 413)');
    }
    const tooLarge = response(doc, op, '413');
    const examples = Object.values<Node>(tooLarge?.content?.['application/problem+json']?.examples ?? {});
    const values = examples.map((e) => deref(doc, e)?.value);
    if (!values.some((v) => v?.code === 'payload_too_large' && v?.max_bytes === 4194304)) {
      violations.push('startJob 413 must show payload_too_large with max_bytes 4194304');
    }
    if (exampleValue(doc, 'MaxCutUseCase')?.max_inline_bytes !== 4194304) violations.push('the use-case example must give max_inline_bytes 4194304');
    return violations;
  },
};

const getJob: Check = {
  name: 'GET /job/{job_id} returns {job: {"<job_id>": {status, started_at, end_at, executions}}}',
  run(doc) {
    const b = behaviour(doc);
    const op = find(doc, 'getJob', 'get', '/job/{job_id}', b.violations);
    if (!op) return b.violations;
    const id = op.parameters.find((p) => p.in === 'path' && p.name === 'job_id');
    b.accepts('job id', id?.schema, 'K7Q2M9X4TB1R');
    for (const bad of ['k7q2m9x4tb1r', 'K7Q2M9X4TB1', 'K7Q2M9X4TB1RX', 'K7Q2-9X4TB1R']) b.refuses(`job id ${bad}`, id?.schema, bad);
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
    b.refuses('a job with an RFC 3339 started_at', ok, { job: { K7Q2M9X4TB1R: { ...job, started_at: '2026-11-22T14:03:07Z' } } });
    b.refuses('executions as a list', ok, { job: { K7Q2M9X4TB1R: { ...job, executions: Object.values(job?.executions ?? {}) } } });
    return b.violations;
  },
};

const timestamps: Check = {
  name: 'timestamps are MM/DD/YYYY, HH:MM:SS (24-hour, UTC) and end_at is "" until the end',
  run(doc) {
    const b = behaviour(doc);
    for (const good of ['11/22/2026, 14:03:07', '01/01/2000, 00:00:00', '12/31/2099, 23:59:59']) {
      b.accepts(`timestamp ${good}`, schema('Timestamp'), good);
      b.accepts(`optional timestamp ${good}`, schema('OptionalTimestamp'), good);
    }
    const bad = ['2026-11-22T14:03:07Z', '11/22/2026 14:03:07', '11/22/2026, 2:03:07 PM', '13/22/2026, 14:03:07',
      '11/32/2026, 14:03:07', '11/22/2026, 24:00:00', '11/22/26, 14:03:07', '1/2/2026, 14:03:07', ''];
    for (const value of bad) b.refuses(`timestamp "${value}"`, schema('Timestamp'), value);
    b.accepts('optional timestamp ""', schema('OptionalTimestamp'), '');
    b.refuses('optional timestamp " "', schema('OptionalTimestamp'), ' ');
    const job = deref(doc, schema('Job'))?.properties ?? {};
    if (job.started_at?.$ref !== '#/components/schemas/Timestamp') b.violations.push('Job.started_at must be a Timestamp');
    if (job.end_at?.$ref !== '#/components/schemas/OptionalTimestamp') b.violations.push('Job.end_at must be an OptionalTimestamp');
    if (!/UTC/.test(deref(doc, schema('Timestamp'))?.description ?? '')) b.violations.push('Timestamp must say it is UTC');
    return b.violations;
  },
};

const enumOf = (doc: Node, name: string) => JSON.stringify(deref(doc, schema(name))?.enum);

const statuses: Check = {
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

const executions: Check = {
  name: 'executions are keyed by solver and a max-cut output is {cut_value, partition, optimal}',
  run(doc) {
    const b = behaviour(doc);
    const success = exampleValue(doc, 'JobFinished')?.job?.K7Q2M9X4TB1R?.executions?.exact;
    b.accepts('a SUCCESS execution with data', schema('Execution'), success);
    b.accepts('a max-cut output', schema('MaxCutOutput'), { cut_value: 53, partition: [0, 1, 1, 1, 0, 0], optimal: true });
    b.accepts('a max-cut output with a fractional negative cut', schema('MaxCutOutput'), { cut_value: -1.5, partition: [0, 1], optimal: false });
    b.refuses('a partition with a 2', schema('MaxCutOutput'), { cut_value: 1, partition: [0, 2], optimal: false });
    b.refuses('an output without optimal', schema('MaxCutOutput'), { cut_value: 1, partition: [0, 1] });
    b.refuses('an output without cut_value', schema('MaxCutOutput'), { partition: [0, 1], optimal: true });
    const executionsSchema = deref(doc, schema('Job'))?.properties?.executions;
    b.accepts('executions keyed by solver', executionsSchema, { exact: success });
    b.refuses('executions keyed by a non-solver name', executionsSchema, { 'Not A Solver': success });
    return b.violations;
  },
};

const addedEndpoints: Check = {
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
    if (limit?.minimum !== 1 || limit?.maximum !== 100 || limit?.default !== 20) violations.push('listJobs limit must be 1..100, default 20');
    return violations;
  },
};

const operationHygiene: Check = {
  name: 'every operation has a verb-phrase operationId, summary, description, tag, 4xx and 500 response',
  run(doc) {
    const violations: string[] = [];
    const tags = new Set((doc.tags ?? []).map((t: Node) => t.name));
    const ids = new Set<string>();
    for (const op of operations(doc)) {
      const { operationId, summary, description } = op.operation;
      if (!/^(login|list|get|start|cancel|upload|delete)([A-Z][a-z]+)*$/.test(operationId ?? '')) violations.push(`${op.label}: operationId "${operationId}" is not a verb phrase`);
      if (ids.has(operationId)) violations.push(`${op.label}: operationId ${operationId} is not unique`);
      ids.add(operationId);
      if (!summary) violations.push(`${op.label}: no summary`);
      if (!description) violations.push(`${op.label}: no description`);
      if (!(op.operation.tags ?? []).length || !(op.operation.tags ?? []).every((t: string) => tags.has(t))) violations.push(`${op.label}: tags must be declared`);
      const statuses = Object.keys(op.operation.responses ?? {});
      if (!statuses.some((s) => s.startsWith('4'))) violations.push(`${op.label}: no 4xx response`);
      if (!statuses.includes('500')) violations.push(`${op.label}: no 500 response`);
      for (const p of op.parameters) if (!p.description) violations.push(`${op.label}: parameter ${p.name} has no description`);
    }
    return violations;
  },
};

const publicOperations = ['login', 'getHealth'];

const security: Check = {
  name: 'a bearer JWT guards every operation but login and getHealth, and 401 carries WWW-Authenticate',
  run(doc) {
    const violations: string[] = [];
    const schemes = Object.entries<Node>(doc.components?.securitySchemes ?? {}).filter(
      ([, s]) => s.type === 'http' && s.scheme === 'bearer' && s.bearerFormat === 'JWT',
    );
    const name = schemes[0]?.[0];
    if (!name) return ['a security scheme of type http, scheme bearer, bearerFormat JWT is needed'];
    if (!(doc.security ?? []).some((r: Node) => name in r)) violations.push(`the document's security must require ${name}`);
    for (const op of operations(doc)) {
      const id = op.operation.operationId;
      const own = op.operation.security;
      if (publicOperations.includes(id)) {
        if (!Array.isArray(own) || own.length !== 0) violations.push(`${id} must be public (security: [])`);
        continue;
      }
      if (own !== undefined && !own.some((r: Node) => name in r)) violations.push(`${id} must require ${name}`);
      const unauthorized = response(doc, op, '401');
      if (!deref(doc, unauthorized?.headers?.['WWW-Authenticate'])?.required) violations.push(`${id}: 401 must carry WWW-Authenticate`);
      const codes = problemCodes(doc, unauthorized);
      if (!codes?.includes('missing_token') || !codes.includes('invalid_token')) violations.push(`${id}: 401 must list missing_token and invalid_token`);
    }
    return violations;
  },
};

/** The `code` values an error response lists (allOf [Problem, {properties: {code: {enum}}}]). */
function problemCodes(doc: Node, res: Node | undefined): string[] | undefined {
  const s = res?.content?.['application/problem+json']?.schema;
  return s?.allOf?.map((part: Node) => part.properties?.code?.enum).find(Array.isArray);
}

const errorModel: Check = {
  name: 'every 4xx/5xx response is application/problem+json referencing Problem, with its codes listed',
  run(doc) {
    const violations: string[] = [];
    const problem = deref(doc, schema('Problem'));
    for (const member of ['type', 'title', 'status', 'detail', 'code']) {
      if (!problem?.required?.includes(member)) violations.push(`Problem must require ${member}`);
    }
    for (const member of ['instance', 'request_id', 'errors', 'max_bytes']) {
      if (!problem?.properties?.[member]) violations.push(`Problem must define ${member}`);
    }
    const catalogue = problem?.description ?? '';
    for (const op of operations(doc)) {
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        const res = deref(doc, raw);
        const where = `${op.label} ${status}`;
        const types = Object.keys(res?.content ?? {});
        if (types.join() !== 'application/problem+json') violations.push(`${where}: content must be application/problem+json only, is ${types.join() || 'none'}`);
        const s = res?.content?.['application/problem+json']?.schema;
        const refsProblem = s?.$ref === '#/components/schemas/Problem' || s?.allOf?.[0]?.$ref === '#/components/schemas/Problem';
        if (!refsProblem) violations.push(`${where}: schema must reference Problem`);
        const codes = problemCodes(doc, res);
        if (!codes?.length) violations.push(`${where}: must list its codes`);
        for (const code of codes ?? []) if (!catalogue.includes(`\`${code}\``)) violations.push(`${where}: code ${code} is not in the Problem catalogue`);
        if (!deref(doc, res?.headers?.['X-Request-Id'])?.required) violations.push(`${where}: must carry X-Request-Id`);
        if (status === '429' && !res?.headers?.['Retry-After']) violations.push(`${where}: must carry Retry-After`);
        // RFC 9110: every 401 carries a challenge, login's included.
        if (status === '401' && !deref(doc, res?.headers?.['WWW-Authenticate'])?.required) violations.push(`${where}: must carry WWW-Authenticate`);
      }
    }
    return violations;
  },
};

const responseHeaders: Check = {
  name: 'every response carries X-Request-Id, and successful secured ones announce rate limits',
  run(doc) {
    const violations: string[] = [];
    for (const op of operations(doc)) {
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
        const headers = deref(doc, raw)?.headers ?? {};
        if (!headers['X-Request-Id']) violations.push(`${op.label} ${status}: no X-Request-Id`);
        const limited = status.startsWith('2') && op.operation.operationId !== 'getHealth';
        if (limited && (!headers.RateLimit || !headers['RateLimit-Policy'])) violations.push(`${op.label} ${status}: no RateLimit / RateLimit-Policy`);
      }
    }
    return violations;
  },
};

const servers: Check = {
  name: 'servers list production and sandbox base URLs with defaults',
  run(doc) {
    const violations: string[] = [];
    const list: Node[] = doc.servers ?? [];
    for (const kind of ['Production', 'Sandbox']) {
      if (!list.some((s) => (s.description ?? '').startsWith(kind))) violations.push(`no ${kind} server`);
    }
    for (const s of list) {
      for (const [name, v] of Object.entries<Node>(s.variables ?? {})) {
        if (typeof v.default !== 'string' || !v.default) violations.push(`server ${s.url}: variable ${name} needs a default`);
      }
    }
    return violations;
  },
};

const examplesValid: Check = {
  name: 'every example is valid against its schema, and every request and response body has one',
  run(doc) {
    const validate = schemaValidator(doc);
    const violations = exampleSites(doc).flatMap((site) => validate(site.schema, site.value).map((e) => `${site.where}: ${e}`));
    for (const op of operations(doc)) {
      const bodies: [string, Node | undefined][] = [[`${op.label} request`, deref(doc, op.operation.requestBody)]];
      for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) bodies.push([`${op.label} ${status}`, deref(doc, raw)]);
      for (const [where, holder] of bodies) {
        for (const [type, media] of Object.entries<Node>(holder?.content ?? {})) {
          if (!media.example && !Object.keys(media.examples ?? {}).length) violations.push(`${where} ${type}: no example`);
        }
      }
    }
    return violations;
  },
};

/** Every job object found in the example values, with where it was found. */
function exampleJobs(doc: Node): [string, Node][] {
  const found: [string, Node][] = [];
  const visit = (where: string, value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (typeof node.status === 'string' && node.executions && 'started_at' in node) found.push([where, node]);
    for (const [key, child] of Object.entries(node)) visit(`${where}/${key}`, child);
  };
  for (const [name, example] of Object.entries<Node>(doc.components?.examples ?? {})) visit(name, example.value);
  return found;
}

const terminalJob = ['FINISHED', 'ERROR', 'CANCELLED'];
const terminalExecution = ['SUCCESS', 'ERROR', 'CANCELLED'];

const jobExamples: Check = {
  name: 'example jobs are consistent: timestamps, end_at, summary counts, output only on SUCCESS',
  run(doc) {
    const violations: string[] = [];
    const jobs = exampleJobs(doc);
    if (!jobs.some(([, j]) => j.status === 'FINISHED')) violations.push('no FINISHED job example');
    const inlineBytes = Buffer.byteLength(JSON.stringify(sixNodes(doc)));
    for (const [where, job] of jobs) {
      const terminal = terminalJob.includes(job.status);
      if ((job.end_at === '') === terminal) violations.push(`${where}: end_at must be "" exactly while the job has not ended`);
      if (job.started_at !== formatTimestamp(job.timestamps?.submitted)) violations.push(`${where}: started_at must be timestamps.submitted`);
      if (terminal && job.end_at !== formatTimestamp(job.timestamps?.ended)) violations.push(`${where}: end_at must be timestamps.ended`);
      if (job.input?.mode === 'inline' && job.input.bytes !== inlineBytes) violations.push(`${where}: inline input is ${inlineBytes} bytes`);
      const list = Object.values<Node>(job.executions);
      const count = (...s: string[]) => list.filter((e) => s.includes(e.status)).length;
      const expected = { total: list.length, pending: count('PENDING', 'PREPARING'), running: count('RUNNING'), succeeded: count('SUCCESS'), failed: count('ERROR'), cancelled: count('CANCELLED') };
      if (JSON.stringify(job.summary) !== JSON.stringify(expected)) violations.push(`${where}: summary must be ${JSON.stringify(expected)}`);
      if ((job.status === 'ERROR') !== ('error' in job)) violations.push(`${where}: error must be present exactly when the job is ERROR`);
      for (const [solver, e] of Object.entries<Node>(job.executions)) {
        const at = `${where}/executions/${solver}`;
        if ((e.end_at === '') === terminalExecution.includes(e.status)) violations.push(`${at}: end_at must be "" exactly while it runs`);
        if ((e.started_at === '') !== (e.timestamps?.running === null)) violations.push(`${at}: started_at must be "" exactly until it runs`);
        if ('data' in e && e.status !== 'SUCCESS') violations.push(`${at}: data only on SUCCESS`);
        if ('error' in e !== (e.status === 'ERROR')) violations.push(`${at}: error exactly on ERROR`);
      }
    }
    return violations;
  },
};

const maxcutExamples: Check = {
  name: 'max-cut examples are correct: the 6-node example has maximum cut 53 and every cut matches its partition',
  run(doc) {
    const violations: string[] = [];
    const input = sixNodes(doc);
    const best = bruteForceMaxCut(input.adj_matrix);
    if (best !== 53) violations.push(`the 6-node example's maximum cut must be 53, is ${best}`);
    const outputs: [string, Node][] = [];
    const visit = (where: string, value: unknown) => {
      if (!value || typeof value !== 'object') return;
      const node = value as Node;
      if (Array.isArray(node.partition) && 'cut_value' in node) outputs.push([where, node]);
      for (const [key, child] of Object.entries(node)) visit(`${where}/${key}`, child);
    };
    for (const [name, example] of Object.entries<Node>(doc.components?.examples ?? {})) visit(name, example.value);
    if (outputs.length === 0) violations.push('no max-cut output example');
    for (const [where, output] of outputs) {
      if (output.partition.length !== input.num_nodes) violations.push(`${where}: partition must have one entry per node`);
      const cut = cutValue(input.adj_matrix, output.partition);
      if (cut !== output.cut_value) violations.push(`${where}: cut_value ${output.cut_value} but the partition cuts ${cut}`);
      if (output.optimal && output.cut_value !== best) violations.push(`${where}: claims optimal but the maximum is ${best}`);
    }
    return violations;
  },
};

const useCaseExamples: Check = {
  name: 'the use-case record is the same everywhere and its example input is valid',
  run(doc) {
    const b = behaviour(doc);
    const record = exampleValue(doc, 'MaxCutUseCase');
    if (JSON.stringify(exampleValue(doc, 'UseCaseList')?.problem?.maxcut) !== JSON.stringify(record)) {
      b.violations.push('GET /problem and GET /problem/maxcut must show the same maxcut record');
    }
    b.accepts('the record\'s example_input against MaxCutInput', schema('MaxCutInput'), record?.example_input);
    b.accepts('the record\'s example_input against its own input_schema', record?.input_schema, record?.example_input);
    return b.violations;
  },
};

export const checks: Check[] = [
  login, startJob, inlineLimit, getJob, timestamps, statuses, executions, addedEndpoints, operationHygiene,
  security, errorModel, responseHeaders, servers, examplesValid, jobExamples, maxcutExamples, useCaseExamples,
];

export function checkNamed(name: string): Check {
  const check = checks.find((c) => c.name === name);
  if (!check) throw new Error(`no check named ${name}`);
  return check;
}
