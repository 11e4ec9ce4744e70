// The sandbox against hostile requests (the security review's, and the edge rules it shares with the reference
// server): it never dies, routes then authenticates before it reads a body, decodes Content-Encoding, refuses
// other charsets, strips a byte-order mark, refuses NUL, unpaired surrogates and deep nesting with a pointer,
// takes an upload's `file` part however it is sent, and refuses empty query values. Every answer is checked
// against the contract: its status is one the operation documents and its body matches that response's schema.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperation } from '../../conformance/src/contract/document.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { deref, loadContract, type Node, response, schemaValidator } from '../contract/openapi-document.ts';

const repoRoot = join(import.meta.dirname, '../..');
const doc = loadContract();
const validate = schemaValidator(doc);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Node;
}

/** The answer must be one the contract documents for the operation (a 404 or 405 for no operation). */
function expectDocumented(method: string, path: string, answer: Answer): void {
  const where = `${method} ${path} → ${answer.status} ${JSON.stringify(answer.body ?? null).slice(0, 300)}`;
  const op = findOperation(doc, method, path.split('?')[0]!);
  if (!op) {
    expect([404, 405], where).toContain(answer.status);
    expect(validate({ $ref: '#/components/schemas/Problem' }, answer.body), where).toEqual([]);
    return;
  }
  const documented = response(doc, op, String(answer.status));
  expect(documented, `${where}: ${op.label} does not document ${answer.status}`).toBeDefined();
  const [type, media] = Object.entries<Node>(documented!.content ?? {})[0] ?? [];
  if (!type) return;
  expect(answer.headers['content-type'], where).toBe(type);
  expect(validate(deref(doc, media!.schema)!, answer.body), where).toEqual([]);
  if (type === 'application/problem+json') expect(answer.headers['x-request-id'], where).toBe(answer.body.request_id);
}

interface Sent {
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A request over node:http (any header, any bytes), answered within 10 s or failed; checked by expectDocumented. */
async function send(base: string, method: string, path: string, sent: Sent = {}): Promise<Answer> {
  const answer = await new Promise<Answer>((resolve, reject) => {
    // node:http sends a GET or DELETE body without Content-Length unless it is given.
    const length = sent.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(sent.body)) };
    const req = request(`${base}${path}`, { method, headers: { ...length, ...sent.headers }, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        } catch {
          reject(new Error(`${method} ${path} → ${res.statusCode} with a body that is not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)));
    req.on('error', reject);
    req.end(sent.body);
  });
  expectDocumented(method, path, answer);
  return answer;
}

const bearer = { authorization: 'Bearer anything' };
const json = { ...bearer, 'content-type': 'application/json' };
const graph = '{"num_nodes": 1, "adj_matrix": [[0]]}';
const dataFileId = 'd6e02699b78918a5032ec7a872e2de7800c3a15a';
const credentials = (username: string) => `{"username": "${username}", "password": "anything"}`;

interface Part {
  name?: string;
  filename?: string;
  type?: string;
  value: string;
}

/** A multipart/form-data body written by hand, so that a part can lack a name, a file name or a type. */
function form(parts: Part[]): { headers: Record<string, string>; body: Buffer } {
  const boundary = 'hostile-boundary-7f3a';
  const text = parts.map((p) => {
    const disposition = ['form-data', ...(p.name === undefined ? [] : [`name="${p.name}"`]), ...(p.filename === undefined ? [] : [`filename="${p.filename}"`])];
    const type = p.type ? `Content-Type: ${p.type}\r\n` : '';
    return `--${boundary}\r\nContent-Disposition: ${disposition.join('; ')}\r\n${type}\r\n${p.value}\r\n`;
  });
  return { headers: { ...bearer, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.from(`${text.join('')}--${boundary}--\r\n`) };
}

const upload = (file: Omit<Part, 'name'>, more: Part[] = []) => form([{ name: 'file', ...file }, { name: 'problem_id', value: 'maxcut' }, { name: 'name', value: 'g.txt' }, ...more]);
const edgeList = '2 1\n1 2 3\n';

let sandbox: Sandbox;
let call: (method: string, path: string, sent?: Sent) => Promise<Answer>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  call = (method, path, sent) => send(sandbox.url, method, path, sent);
});
afterAll(() => sandbox?.close());

describe('the sandbox never dies', () => {
  it('regression: a property name past U+00FF answers 400 instead of crashing the sandbox (ERR_INVALID_CHAR writing sl-violations)', async () => {
    for (const name of ['Ā', '😀', '\u007f', 'é']) {
      const answer = await call('POST', '/problem/maxcut', { headers: json, body: JSON.stringify({ num_nodes: 1, adj_matrix: [[0]], [name]: 1 }) });
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
      // Prism's account stays valid JSON, in printable ASCII only, and still names the member.
      const violations = answer.headers['sl-violations'] as string;
      expect(violations).toMatch(/^[\x20-\x7e]+$/);
      expect(JSON.stringify(JSON.parse(violations))).toContain(JSON.stringify(name).slice(1, -1));
    }
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('regression: npm run sandbox (sandbox/main.ts) survives the request that killed it, and logs an unhandled rejection or exception instead of exiting', async () => {
    // Injected once the sandbox says it listens: a rejection nobody handles and an exception nobody catches.
    const inject = "const log = console.log; console.log = (...a) => { log(...a); if (String(a[0]).includes('listening on')) setImmediate(() => { Promise.reject(new Error('injected rejection')); setImmediate(() => { throw new Error('injected exception'); }); }); };";
    const child = spawn(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(inject)}`, join(repoRoot, 'sandbox/main.ts')], {
      cwd: repoRoot,
      env: { ...process.env, SANDBOX_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const found = /listening on (http:\/\/\S+)/.exec(output);
          if (found) resolve(found[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening: ${output}`)));
      });
      const crash = await send(url, 'POST', '/problem/maxcut', { headers: json, body: '{"num_nodes": 1, "adj_matrix": [[0]], "Ā": 1}' });
      expect(crash.status).toBe(400);
      expect((await send(url, 'GET', '/healthz')).status).toBe(200);
      expect(output).toContain('injected rejection');
      expect(output).toContain('injected exception');
      expect(child.exitCode, output).toBeNull();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('regression: a path or query with a malformed percent escape answers 4xx, not 500 (URI malformed in Prism)', async () => {
    for (const path of ['/job/%E0%A4%A', '/job/%ZZ', '/data_file/%00', '//job', '/job?limit=%ZZ', '/job?status=%E0%A4%A']) {
      const answer = await call('GET', path, { headers: bearer });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
  });
});

describe('route, then authenticate, then read the body', () => {
  it('routing first, then a secured operation without Authorization answers 401 missing_token before its body is read (not 413, 400 or 415)', async () => {
    const bodies: Sent[] = [
      { headers: { 'content-type': 'application/json' }, body: ' '.repeat(5 * 1024 * 1024) },
      { headers: { 'content-type': 'application/json' }, body: '{"num_nodes": 3,' },
      { headers: { 'content-type': 'application/json; charset=latin1' }, body: graph },
      { headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, body: graph },
      { headers: { 'content-type': 'application/json', authorization: '' }, body: graph },
    ];
    const example = deref(doc, deref(doc, doc.components.responses.Unauthorized)!.content['application/problem+json'].examples.missing_token)!.value;
    for (const sent of bodies) {
      const answer = await call('POST', '/problem/maxcut', sent);
      expect([answer.status, answer.body.code, answer.headers['www-authenticate']]).toEqual([401, 'missing_token', 'Bearer realm="jes"']);
      expect(Object.keys(answer.body).sort()).toEqual(Object.keys(example).sort());
      expect(answer.body.instance).toBe('/problem/maxcut');
    }
    const uploaded = await call('POST', '/data_file', { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nbroken' });
    expect([uploaded.status, uploaded.body.code]).toEqual([401, 'missing_token']);
    // Routing comes before: no token needed for a 404 or a 405, whatever the body.
    expect((await call('POST', '/nowhere', { headers: { 'content-type': 'application/json' }, body: '{' })).body.code).toBe('not_found');
    const method = await call('DELETE', '/job', { body: ' '.repeat(5 * 1024 * 1024) });
    expect([method.status, method.headers.allow]).toEqual([405, 'GET']);
    // The public operation and a request with a token read their bodies: too large is still 413.
    const login = await call('POST', '/login', { headers: { 'content-type': 'application/json' }, body: ' '.repeat(65_536) });
    expect([login.status, login.body.max_bytes]).toEqual([413, 65_536]);
    expect((await call('POST', '/problem/maxcut', { headers: json, body: ' '.repeat(5 * 1024 * 1024) })).status).toBe(413);
  });

  it('a malformed Authorization answers 401 invalid_token, also before the body is read', async () => {
    for (const authorization of ['Basic YTpi', 'Bearer', 'Bearer a b']) {
      const answer = await call('POST', '/problem/maxcut', { headers: { authorization, 'content-type': 'application/json' }, body: ' '.repeat(5 * 1024 * 1024) });
      expect([answer.status, answer.body.code]).toEqual([401, 'invalid_token']);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="jes", error="invalid_token"/);
    }
  });
});

describe('the bytes of a body', () => {
  it('a body without Content-Type answers 415, as the reference server does', async () => {
    for (const [path, body] of [['/problem/maxcut', graph], ['/problem/maxcut', ''], ['/data_file', upload({ value: edgeList }).body]] as const) {
      const answer = await call('POST', path, { headers: bearer, body });
      expect([path, answer.status, answer.body.code]).toEqual([path, 415, 'unsupported_media_type']);
    }
  });

  it('a JSON body in a charset other than UTF-8 answers 415; utf-8 and utf8 in any case are accepted', async () => {
    for (const charset of ['latin1', 'iso-8859-1', 'utf-16', 'us-ascii']) {
      for (const [path, body, headers] of [['/problem/maxcut', graph, json], ['/login', credentials('anyone'), {}]] as const) {
        const answer = await call('POST', path, { headers: { ...headers, 'content-type': `application/json; charset=${charset}` }, body });
        expect([path, charset, answer.status, answer.body.code]).toEqual([path, charset, 415, 'unsupported_media_type']);
      }
    }
    for (const charset of ['utf-8', 'UTF-8', 'utf8', 'Utf8', '"utf-8"']) {
      expect((await call('POST', '/problem/maxcut', { headers: { ...json, 'content-type': `application/json; charset=${charset}` }, body: graph })).status).toBe(200);
    }
  });

  it('gzip, deflate, br and identity bodies are decoded, with the limits applied to the decoded size', async () => {
    const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync, identity: (b) => b, GZIP: gzipSync, ' br ': brotliCompressSync };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const answer = await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': encoding }, body: encode(Buffer.from(graph)) });
      expect([encoding, answer.status, answer.body]).toEqual([encoding, 200, { detail: 'Job created', job: 'K7Q2M9X4TB1R' }]);
    }
    const login = await call('POST', '/login', { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(credentials('anyone')) });
    expect(login.status).toBe(200);
    const sized = (bytes: number) => gzipSync(Buffer.from(graph.padEnd(bytes, ' ')));
    const over = await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': 'gzip' }, body: sized(4_194_304) });
    expect([over.status, over.body.code, over.body.max_bytes]).toEqual([413, 'payload_too_large', 4_194_304]);
    expect((await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': 'gzip' }, body: sized(4_194_303) })).status).toBe(200);
    const files = upload({ value: edgeList });
    expect((await call('POST', '/data_file', { headers: { ...files.headers, 'content-encoding': 'br' }, body: brotliCompressSync(files.body) })).status).toBe(201);
  });

  it('a corrupt encoded body answers 400 invalid_request saying it cannot be decoded', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const answer = await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': encoding }, body: Buffer.from('this is not compressed at all') });
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid_request']);
      expect(answer.body.detail).toMatch(new RegExp(`^The body cannot be decoded \\(Content-Encoding: ${encoding}\\): .+`));
    }
    const truncated = gzipSync(Buffer.from(graph)).subarray(0, 12);
    expect((await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': 'gzip' }, body: truncated })).status).toBe(400);
  });

  it('any other Content-Encoding (zstd, compress, a list) answers 415', async () => {
    for (const encoding of ['zstd', 'compress', 'x-gzip', 'gzip, br', 'identity, gzip', 'chunked']) {
      const answer = await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': encoding }, body: graph });
      expect([encoding, answer.status, answer.body.code]).toEqual([encoding, 415, 'unsupported_media_type']);
    }
    const files = upload({ value: edgeList });
    expect((await call('POST', '/data_file', { headers: { ...files.headers, 'content-encoding': 'zstd' }, body: files.body })).status).toBe(415);
  });

  it('a JSON body starting with the UTF-8 byte-order mark is accepted, the mark stripped', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect((await call('POST', '/problem/maxcut', { headers: json, body: Buffer.concat([bom, Buffer.from(graph)]) })).status).toBe(200);
    expect((await call('POST', '/login', { headers: { 'content-type': 'application/json' }, body: Buffer.concat([bom, Buffer.from(credentials('anyone'))]) })).status).toBe(200);
    const gzipped = gzipSync(Buffer.concat([bom, Buffer.from(graph)]));
    expect((await call('POST', '/problem/maxcut', { headers: { ...json, 'content-encoding': 'gzip' }, body: gzipped })).status).toBe(200);
  });
});

describe('hostile values in JSON bodies', () => {
  const refused = (pointer: string, detail: string) => ({ status: 400, code: 'invalid_request', errors: [{ pointer, detail }] });
  const nul = 'must not contain U+0000 (NUL)';
  const unpaired = 'must not contain an unpaired surrogate';
  const withParams = (params: string) => `{"data_file_identifier": "${dataFileId}", "solvers": [{"name": "exact", "params": ${params}}]}`;

  it('a string value or a property name with U+0000 answers 400 with its pointer', async () => {
    const login = await call('POST', '/login', { headers: { 'content-type': 'application/json' }, body: credentials('a\\u0000b') });
    expect(login.body).toMatchObject(refused('/username', nul));
    const value = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"note": "x\\u0000"}') });
    expect(value.body).toMatchObject(refused('/solvers/0/params/note', nul));
    const name = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"k\\u0000/~": 1}') });
    expect(name.body).toMatchObject(refused('/solvers/0/params/k\u0000~1~0', nul));
  });

  it('an unpaired surrogate (high or low, in a value or a name) answers 400 with its pointer; a valid pair is accepted', async () => {
    for (const lone of ['\\ud800', '\\udfff', 'a\\udc00b', '\\ud83d']) {
      const answer = await call('POST', '/login', { headers: { 'content-type': 'application/json' }, body: credentials(lone) });
      expect([lone, answer.body]).toMatchObject([lone, refused('/username', unpaired)]);
    }
    const name = await call('POST', '/problem/maxcut', { headers: json, body: withParams('{"\\udead": 1}') });
    expect(name.body).toMatchObject(refused('/solvers/0/params/\udead', unpaired));
    expect((await call('POST', '/login', { headers: { 'content-type': 'application/json' }, body: credentials('\\ud83d\\ude00 😀') })).status).toBe(200);
  });

  it('nesting deeper than 32 levels answers 400 with the pointer of the first value at depth 33; 32 levels are accepted', async () => {
    // The top-level object is depth 1, solvers 2, the solver 3, params 4: params and 28 objects inside reach 32.
    const nested = (levels: number) => '{"x": '.repeat(levels) + '1' + '}'.repeat(levels);
    expect((await call('POST', '/problem/maxcut', { headers: json, body: withParams(nested(29)) })).status).toBe(200);
    const deep = await call('POST', '/problem/maxcut', { headers: json, body: withParams(nested(30)) });
    expect(deep.body).toMatchObject(refused(`/solvers/0/params${'/x'.repeat(29)}`, 'must not be nested deeper than 32 levels'));
  });

  it('10,000 levels of nesting answer 400 (an iterative check, no stack overflow)', async () => {
    const arrays = await call('POST', '/problem/maxcut', { headers: json, body: '['.repeat(10_000) + ']'.repeat(10_000) });
    expect(arrays.body).toMatchObject(refused('/0'.repeat(32), 'must not be nested deeper than 32 levels'));
    const objects = await call('POST', '/problem/maxcut', { headers: json, body: '{"a": '.repeat(10_000) + '1' + '}'.repeat(10_000) });
    expect(objects.body).toMatchObject(refused('/a'.repeat(32), 'must not be nested deeper than 32 levels'));
  });
});

describe('uploads', () => {
  const created = deref(doc, doc.components.examples.DataFileUploadCreated)!.value;

  it("the file part is the file with or without a file name, and whatever its content type (regression: a file name without Content-Type answered 500, Prism's multipart parser threw)", async () => {
    const files: Omit<Part, 'name'>[] = [
      { value: edgeList },
      { value: edgeList, filename: '' },
      { value: edgeList, filename: 'g.txt' },
      { value: edgeList, filename: 'a=b; c.txt', type: 'text/plain' },
      { value: edgeList, filename: 'g.png', type: 'image/png' },
      { value: '{"num_nodes": 1, "adj_matrix": [[0]]}', type: 'application/json' },
    ];
    for (const file of files) {
      const answer = await call('POST', '/data_file', upload(file));
      expect([file, answer.status, answer.body]).toEqual([file, 201, created]);
      expect(answer.headers.location).toBe(`/data_file/${dataFileId}`);
    }
  });

  it("regression: a part with an empty name or none answers 400 invalid_request, not 500 (Prism's multipart parser threw on it); so does a form cut short", async () => {
    for (const part of [{ value: 'z' }, { name: '', value: 'z' }, { name: '', filename: 'x', value: 'z' }]) {
      // First, so that the one file part the form may hold is this one (the reference server's busboy limit).
      const answer = await call('POST', '/data_file', form([part, { name: 'file', value: edgeList }, { name: 'problem_id', value: 'maxcut' }, { name: 'name', value: 'g.txt' }]));
      expect([part, answer.status, answer.body.code, answer.body.errors?.[0]?.pointer]).toEqual([part, 400, 'invalid_request', '/']);
    }
    // Cut inside the file part, whose stream then fails too (an 'error' nobody heard would end the process).
    const files = form([{ name: 'problem_id', value: 'maxcut' }, { name: 'name', value: 'g.txt' }, { name: 'file', value: edgeList.repeat(100) }]);
    const cut = await call('POST', '/data_file', { headers: files.headers, body: files.body.subarray(0, files.body.length - 100) });
    expect([cut.status, cut.body.code]).toEqual([400, 'invalid_request']);
    const noBoundary = await call('POST', '/data_file', { headers: { ...bearer, 'content-type': 'multipart/form-data' }, body: files.body });
    expect([noBoundary.status, noBoundary.body.code]).toEqual([400, 'invalid_request']);
  });

  it('a text field with U+0000 (in its value or its name) answers 400 with its pointer', async () => {
    const value = await call('POST', '/data_file', form([{ name: 'file', value: edgeList }, { name: 'problem_id', value: 'maxcut' }, { name: 'name', value: 'g\u0000.txt' }]));
    expect(value.body).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ pointer: '/name', detail: 'must not contain U+0000 (NUL)' }] });
    const name = await call('POST', '/data_file', upload({ value: edgeList }, [{ name: 'note\u0000', value: 'x' }]));
    expect(name.body).toMatchObject({ status: 400, errors: [{ pointer: '/note\u0000', detail: 'must not contain U+0000 (NUL)' }] });
  });
});

describe('query values', () => {
  it('an empty query value answers 400 invalid_request with its pointer, as the reference server does', async () => {
    const cases = [
      ...['/job', '/data_file'].flatMap((path) => ['starting_after', 'status', 'problem_id', 'limit'].map((name) => ['GET', `${path}?${name}=`, name])),
      ['POST', '/problem/maxcut?solver=', 'solver'],
      ['POST', '/problem/maxcut?time_limit_seconds=', 'time_limit_seconds'],
      ['GET', '/job?limit=5&starting_after=', 'starting_after'],
    ] as const;
    for (const [method, path, name] of cases) {
      const answer = await call(method, path, method === 'POST' ? { headers: json, body: graph } : { headers: bearer });
      expect([path, answer.status, answer.body.code]).toEqual([path, 400, 'invalid_request']);
      expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/query/${name}`);
    }
    expect((await call('GET', '/job?limit=5&status=RUNNING', { headers: bearer })).status).toBe(200);
  });

  it('a query parameter the operation does not have answers 400 where the operation documents a 400, as the reference server does', async () => {
    for (const path of ['/job?x=1', '/job?LIMIT=5', '/data_file?limit=5&page=2', '/healthz?verbose', '/job/K7Q2M9X4TB1R?x=', '/problem?x=1']) {
      const answer = await call('GET', path, { headers: bearer });
      const name = /[?&]([^=&]+)=?[^=&]*$/.exec(path)![1];
      expect([path, answer.status, answer.body.code, answer.body.errors?.[0]?.pointer]).toEqual([path, 400, 'invalid_request', `/query/${name}`]);
    }
  });
});

describe('found by the fuzz test', () => {
  /** Writes `raw` on a socket of its own; resolves with everything the sandbox sent back before it closed. */
  const rawExchange = (raw: string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(sandbox.url);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });

  it('answers what Node refuses before the sandbox (malformed HTTP, headers over 16 KiB, no Host) with a problem, not a bare status line', async () => {
    for (const [raw, status, code] of [
      ['GET /healthz HTTP/1.1\r\nHost x\r\n\r\n', 400, 'invalid_request'],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
      ['GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'invalid_request'],
    ] as const) {
      const [head = '', rest = ''] = (await rawExchange(raw)).split('\r\n\r\n');
      // The body whole or in one chunk (Transfer-Encoding: chunked).
      const problem = JSON.parse(rest.slice(rest.indexOf('{'), rest.lastIndexOf('}') + 1));
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      expect(validate({ $ref: '#/components/schemas/Problem' }, problem)).toEqual([]);
      expect(problem).toMatchObject({ status, code });
    }
  });

  it('takes an absolute-form request target as its path', async () => {
    const [head = ''] = (await rawExchange(`GET ${sandbox.url}/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers with the contract examples whatever Prefer asks of Prism (dynamic=true made it invent bodies)', async () => {
    const answer = await call('GET', '/job', { headers: { ...bearer, prefer: 'dynamic=true' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual((await call('GET', '/job', { headers: bearer })).body);
  });
});
