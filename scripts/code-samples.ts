// Request samples for the reference (`x-codeSamples`), made from openapi.yaml at `npm run generate`: for every
// operation and every example of its request body, a curl command and the same call through @jes/client. They
// send the operation's required parameters and the example body, to the contract's first server, so they cannot
// drift from the contract; test/docs/code-samples.test.ts runs each one and type-checks the TypeScript.
import { parse } from 'yaml';

type Node = Record<string, any>;

export interface CodeSample {
  lang: 'Shell' | 'TypeScript';
  label: string;
  source: string;
}

/** The samples of one request: an operation with one example of its body (or none). */
export interface RequestSamples {
  operationId: string;
  method: string;
  path: string;
  /** The request body example's name, when the operation has a body. */
  example: string | undefined;
  curl: CodeSample;
  typescript: CodeSample;
}

interface Request {
  op: Node;
  pathParams: Record<string, string>;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: { type: 'json' | 'multipart'; value: Node; files: string[] } | undefined;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'patch'];

function deref(doc: Node, node: Node | undefined): Node | undefined {
  if (!node?.$ref) return node;
  const keys = (node.$ref as string)
    .slice(2)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  return deref(
    doc,
    keys.reduce<Node | undefined>((at, key) => at?.[key], doc),
  );
}

/** A word for the shell: bare when it is safe, else single-quoted. */
function sh(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `text` as a printf format that prints it back. */
function printfFormat(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/%/g, '%%').replace(/\n/g, '\\n');
}

/**
 * A value as a literal of TypeScript (bare keys, single quotes, as in the client's README) or JSON, on one line when
 * it fits in `width` columns, else one member per line.
 */
function literal(value: unknown, style: 'ts' | 'json', indent = '', width = 100): string {
  if (typeof value === 'string' && style === 'ts') {
    return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  const key = (name: string) => (style === 'ts' && /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
  const items = Array.isArray(value)
    ? value.map((item) => literal(item, style, inner))
    : Object.entries(value).map(([name, item]) => `${key(name)}: ${literal(item, style, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  const line = items.length === 0 ? `${open.trim()}${close.trim()}` : `${open}${items.join(', ')}${close}`;
  if (line.length + indent.length <= width && !line.includes('\n')) return line;
  // TypeScript's style keeps a trailing comma; JSON has none.
  const lines = items.map((item, i) => `${inner}${item}${i < items.length - 1 || style === 'ts' ? ',' : ''}`);
  return `${open.trim()}\n${lines.join('\n')}\n${indent}${close.trim()}`;
}

const ts = (value: unknown, width?: number) => literal(value, 'ts', '', width);

interface ClientCall {
  /** The name of the variable the result goes in. */
  result: string;
  call: (r: Request) => string;
  /** The helper is an async iterator over pages. */
  pages?: true;
  /** The helper is an async iterator over a stream's events, each a result. */
  stream?: true;
  /** The operation needs no token: the client is made without credentials. */
  anonymous?: true;
}

/**
 * How each operation is called through @jes/client (client/README.md). An operation missing here fails the
 * generation, so a new operation cannot ship without its sample.
 */
const clientCalls: Record<string, ClientCall> = {
  login: { result: 'token', call: (r) => `jes.login(${ts(r.body!.value)})`, anonymous: true },
  getHealth: { result: 'health', call: () => 'jes.health()', anonymous: true },
  listProblems: { result: 'useCases', call: () => 'jes.listProblems()' },
  getProblem: { result: 'useCase', call: (r) => `jes.getProblem(${ts(r.pathParams.problem_id)})` },
  getMaxCutUseCase: { result: 'useCase', call: () => `jes.getProblem('maxcut')` },
  getQuboUseCase: { result: 'useCase', call: () => `jes.getProblem('qubo')` },
  startJob: { result: 'started', call: (r) => startJobCall(r, r.pathParams.problem_id!) },
  startMaxCutJob: { result: 'started', call: (r) => startJobCall(r, 'maxcut') },
  startQuboJob: { result: 'started', call: (r) => startJobCall(r, 'qubo') },
  listJobs: { result: 'page', call: () => 'jes.listJobs()', pages: true },
  getJob: { result: 'job', call: (r) => `jes.getJob(${ts(r.pathParams.job_id)})` },
  deleteJob: { result: 'deleted', call: (r) => `jes.deleteJob(${ts(r.pathParams.job_id)})` },
  cancelJob: { result: 'job', call: (r) => `jes.cancelJob(${ts(r.pathParams.job_id)})` },
  getJobOutput: { result: 'output', call: (r) => `jes.getOutput(${ts(r.pathParams.job_id)})` },
  getJobInput: { result: 'input', call: (r) => `jes.getInput(${ts(r.pathParams.job_id)})` },
  listDataFiles: { result: 'page', call: () => 'jes.listDataFiles()', pages: true },
  uploadDataFile: { result: 'dataFile', call: uploadDataFileCall },
  getDataFile: { result: 'dataFile', call: (r) => `jes.getDataFile(${ts(r.pathParams.data_file_identifier)})` },
  deleteDataFile: { result: 'deleted', call: (r) => `jes.deleteDataFile(${ts(r.pathParams.data_file_identifier)})` },
  streamJobEvents: { result: 'event', call: (r) => `jes.jobEvents(${ts(r.pathParams.job_id)})`, stream: true },
  streamEvents: { result: 'event', call: () => 'jes.events()', stream: true },
  getWebhook: { result: 'webhook', call: () => 'jes.getWebhook()' },
  setWebhook: { result: 'webhook', call: (r) => `jes.setWebhook(${ts(r.body!.value)})` },
  deleteWebhook: { result: 'deleted', call: () => 'jes.deleteWebhook()' },
  rotateWebhookSecret: { result: 'webhook', call: () => 'jes.rotateWebhookSecret()' },
  listWebhookDeliveries: { result: 'deliveries', call: () => 'jes.listWebhookDeliveries()' },
};

/** startJob takes the input, then the solvers and time limit as options (the body's, beside a data file). */
function startJobCall(r: Request, problemId: string): string {
  const { solvers, time_limit_seconds: timeLimitSeconds, ...input } = r.body!.value;
  const options = { ...(solvers ? { solvers } : {}), ...(timeLimitSeconds !== undefined ? { timeLimitSeconds } : {}) };
  const args = [ts(problemId), ts(input)];
  if (Object.keys(options).length > 0) args.push(ts(options));
  return `jes.startJob(${args.join(', ')})`;
}

function uploadDataFileCall(r: Request): string {
  const { problem_id: problemId, ...fields } = r.body!.value;
  return `jes.uploadDataFile(${ts({ problemId, ...fields })})`;
}

function curl(base: string, r: Request, method: string, path: string, secured: boolean): string {
  const query = new URLSearchParams(r.query).toString();
  const url = `${base}${path}${query ? `?${query}` : ''}`;
  const prelude: string[] = [];
  // -N: a stream's events are printed as they come, not when curl's buffer fills.
  const streams = Boolean(r.op.responses?.['200']?.content?.['text/event-stream']);
  const args = [`curl -sS${streams ? 'N' : ''}${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${sh(url)}`];
  if (secured) args.push('-H "Authorization: Bearer $TOKEN"');
  for (const [name, value] of Object.entries(r.headers)) args.push(`-H ${sh(`${name}: ${value}`)}`);
  if (r.body?.type === 'json') {
    args.push("-H 'Content-Type: application/json'", `-d ${sh(literal(r.body.value, 'json', '  '))}`);
  }
  if (r.body?.type === 'multipart') {
    for (const [name, value] of Object.entries<unknown>(r.body.value)) {
      // --form-string: a text field is sent as it is (-F would read a leading @ or < as a file).
      if (!r.body.files.includes(name)) {
        args.push(`--form-string ${sh(`${name}=${String(value)}`)}`);
        continue;
      }
      const fileName = typeof r.body.value.name === 'string' ? r.body.value.name : `${name}.txt`;
      prelude.push(`printf ${sh(printfFormat(String(value)))} > ${sh(fileName)}`);
      args.push(`-F ${sh(`${name}=@${fileName}`)}`);
    }
  }
  return [...prelude, args.join(' \\\n  ')].join('\n');
}

function typescript(base: string, credentials: Node, r: Request): string {
  const how = clientCalls[r.op.operationId];
  if (!how)
    throw new Error(`scripts/code-samples.ts: no @jes/client call for ${r.op.operationId}; add it to clientCalls`);
  const { username, password } = credentials;
  const options = how.anonymous ? { baseUrl: base } : { baseUrl: base, username, password };
  const lines = [
    "import { createJesClient, formatProblem } from '@jes/client';",
    '',
    `const jes = createJesClient(${ts(options, 70)});`,
  ];
  const check = (indent: string) => [
    `${indent}if (${how.result}.error) throw new Error(formatProblem(${how.result}.error));`,
    `${indent}console.log(${how.result}.data${how.pages ? '.items' : ''});`,
  ];
  if (how.pages || how.stream) lines.push(`for await (const ${how.result} of ${how.call(r)}) {`, ...check('  '), '}');
  else lines.push(`const ${how.result} = await ${how.call(r)};`, ...check(''));
  return `${lines.join('\n')}\n`;
}

/** The example value of a parameter: its own, else its schema's first. */
function exampleOf(doc: Node, param: Node): string {
  const value = param.example ?? deref(doc, param.schema)?.examples?.[0];
  if (value === undefined) throw new Error(`scripts/code-samples.ts: required parameter ${param.name} has no example`);
  return String(value);
}

/** The bodies a request can be sent with: each example of its first media type, or none at all. */
function bodiesOf(doc: Node, op: Node): [string | undefined, Request['body']][] {
  const content: Node = deref(doc, op.requestBody)?.content ?? {};
  const [type, media] = Object.entries<Node>(content)[0] ?? [];
  if (!media) return [[undefined, undefined]];
  const examples = Object.entries<Node>(media.examples ?? {});
  if (examples.length === 0)
    throw new Error(`scripts/code-samples.ts: ${op.operationId} has a request body without examples`);
  const files = Object.keys(media.encoding ?? {});
  const kind = type === 'multipart/form-data' ? 'multipart' : 'json';
  return examples.map(([name, example]) => [name, { type: kind, value: deref(doc, example)!.value, files }]);
}

/**
 * The path parameters a body example is sent with: those of a concrete path that documents the same example for
 * the same method, where there is one (the QUBO input documented on /problem/{problem_id} goes to /problem/qubo,
 * which answers it first; sent to the parameter's example, /problem/maxcut, it would be refused), else `fallback`.
 */
function paramsFor(doc: Node, path: string, method: string, body: Request['body'], fallback: Record<string, string>) {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (!body || names.length === 0) return fallback;
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/{}]+)');
  const template = new RegExp(`^${escaped}$`);
  const same = JSON.stringify(body.value);
  for (const [other, item] of Object.entries<Node>(doc.paths)) {
    const match = other === path || !item[method] ? null : template.exec(other);
    if (!match) continue;
    if (bodiesOf(doc, item[method]).some(([, b]) => JSON.stringify(b?.value) === same))
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  }
  return fallback;
}

/** The samples of every operation, in the order of openapi.yaml. */
export function requestSamples(doc: Node): RequestSamples[] {
  const base = doc.servers[0].url as string;
  const loginExamples = deref(doc, doc.paths['/login'].post.requestBody)!.content['application/json'].examples;
  const credentials = deref(doc, Object.values<Node>(loginExamples)[0])!.value as Node;
  const samples: RequestSamples[] = [];
  for (const [path, item] of Object.entries<Node>(doc.paths)) {
    for (const method of httpMethods.filter((m) => item[m])) {
      const op = item[method] as Node;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Node) => deref(doc, p)!);
      const pick = (where: string) =>
        Object.fromEntries(params.filter((p) => p.in === where && p.required).map((p) => [p.name, exampleOf(doc, p)]));
      const secured = (op.security ?? doc.security ?? []).length > 0;
      const bodies = bodiesOf(doc, op);
      for (const [example, body] of bodies) {
        const pathParams = paramsFor(doc, path, method, body, pick('path'));
        const concrete = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
        const request: Request = { op, pathParams, headers: pick('header'), query: pick('query'), body };
        const suffix = bodies.length > 1 ? ` (${example})` : '';
        samples.push({
          operationId: op.operationId,
          method,
          path,
          example,
          curl: { lang: 'Shell', label: `curl${suffix}`, source: curl(base, request, method, concrete, secured) },
          typescript: {
            lang: 'TypeScript',
            label: `@jes/client${suffix}`,
            source: typescript(base, credentials, request),
          },
        });
      }
    }
  }
  return samples;
}

/** The contract with each operation's samples as `x-codeSamples`, for Redocly (openapi.yaml stays without them). */
export function withCodeSamples(contractText: string): Node {
  const doc = parse(contractText) as Node;
  const samples = requestSamples(doc);
  for (const [path, item] of Object.entries<Node>(doc.paths)) {
    for (const method of httpMethods.filter((m) => item[m])) {
      const mine = samples.filter((s) => s.path === path && s.method === method);
      item[method]['x-codeSamples'] = [...mine.map((s) => s.curl), ...mine.map((s) => s.typescript)];
    }
  }
  return doc;
}

/** Every distinct sample label of the document, curl's first: the tabs Redoc may show (its `codeSamples.languages`). */
export function sampleLanguages(doc: Node): { lang: string; label: string }[] {
  const all = Object.values<Node>(doc.paths).flatMap((item) =>
    httpMethods.flatMap((m) => (item[m]?.['x-codeSamples'] ?? []) as CodeSample[]),
  );
  const unique = new Map(all.map(({ lang, label }) => [label, { lang, label }]));
  return [...unique.values()].sort((a, b) => Number(b.lang === 'Shell') - Number(a.lang === 'Shell'));
}
